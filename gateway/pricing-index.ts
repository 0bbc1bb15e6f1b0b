/**
 * GET /v1/pricing/index: the descriptor of schema/CONTRACT.md §2.5, from the route table, the built data and the
 * live contributions block of the submissions Worker.
 */
import {
  DATASET_NAME,
  methodStatement,
  PAID_ADDS,
  PRIVACY_STATEMENT,
  type PricingIndexDescriptor,
  RIGHT_OF_REPLY,
} from '../schema/pricing-index.js'
import { PRICE, routeByName } from '../schema/routes.js'
import { type Contributions, DISCLOSURE_RULE, Submission } from '../schema/submission.js'
import { PRICING_MODELS, SUBMISSION_CATEGORIES } from '../schema/vocabulary.js'
import { loadBundles } from './datasets/prepare.js'
import type { Env } from './env.js'
import type { Problem } from './http/problem.js'

const submissionFields = Object.keys(Submission.shape)

export async function contributions(env: Env): Promise<Contributions> {
  try {
    const response = await env.SUBMISSIONS.fetch('https://submissions/internal/contributions')
    if (response.ok) return (await response.json()) as Contributions
  } catch {
    // fall through: the index stays available while the submissions store is not
  }
  return {
    available: false,
    submissions: 0,
    truncated: false,
    by_category: {},
    disclosure_rule: DISCLOSURE_RULE,
  }
}

/** The descriptor, or a 503 problem when the bundles cannot be read. */
export async function pricingIndex(env: Env): Promise<PricingIndexDescriptor | Problem> {
  const pricing = routeByName('pricing')
  const data = await loadBundles(env.ASSETS)
  if ('status' in data) return data
  return {
    dataset: DATASET_NAME,
    human_readable: env.SITE_URL,
    full_dataset: `${env.BASE_URL}${pricing.path}`,
    method: methodStatement(data.pricing.counts, data.pricing.comparables),
    contribute: {
      endpoint: `${env.BASE_URL}${routeByName('submit').path}`,
      content_type: 'application/json',
      required: ['category', 'pricing_model', 'entry_usd_month or unit_price_usd'],
      optional: submissionFields.filter((f) => !['category', 'pricing_model'].includes(f)),
      categories: [...SUBMISSION_CATEGORIES],
      pricing_models: [...PRICING_MODELS],
      privacy: PRIVACY_STATEMENT,
    },
    right_of_reply: RIGHT_OF_REPLY,
    paid: {
      endpoint: `${env.BASE_URL}${pricing.path}`,
      price: `${PRICE.display} per query`,
      returns: pricing.summary,
      adds: PAID_ADDS,
    },
    contributions: await contributions(env),
    latest_correction: data.pricing.latest_correction,
    rows: data.pricing.rows.length,
    counts: {
      publish_a_price: data.pricing.counts.publish_a_price,
      sales_gated: data.pricing.counts.sales_gated,
      no_published_price: data.pricing.counts.no_published_price,
      price_not_read: data.pricing.counts.price_not_read,
    },
    freshness: data.pricing.freshness,
  }
}

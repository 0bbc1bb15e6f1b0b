/**
 * A crowd pricing submission (body of POST /v1/pricing/submit) and the aggregates published from them.
 */
import * as z from 'zod'
import { PricingModel, SubmissionCategory } from './vocabulary.js'

/** The largest price a submission may give (USD). */
export const MAX_PRICE_USD = 10_000_000
const Price = z.number().finite().nonnegative().max(MAX_PRICE_USD)
const ShortText = (max: number) => z.string().trim().min(1).max(max)

export const Submission = z
  .strictObject({
    category: SubmissionCategory,
    pricing_model: PricingModel,
    entry_usd_month: Price.optional(),
    unit_price_usd: Price.optional(),
    product: ShortText(200).optional(),
    usage_unit: ShortText(100).optional(),
    typical_discount_pct: z.number().finite().min(0).max(100).optional(),
    acv_band: ShortText(50).optional(),
    note: ShortText(2000).optional(),
    email: z.email().max(254).optional(),
  })
  .refine((s) => s.entry_usd_month !== undefined || s.unit_price_usd !== undefined, {
    path: ['entry_usd_month'],
    message: 'give entry_usd_month or unit_price_usd (at least one)',
  })
export type Submission = z.infer<typeof Submission>

/** The largest body the submit endpoint reads. */
export const MAX_SUBMISSION_BYTES = 16 * 1024

/** A median is published only at this many submissions in a category. */
export const DISCLOSURE_THRESHOLD = 5

export const CategoryAggregate = z.strictObject({
  n: z.number().int(),
  entry_p50: z.number().nullable(),
  unit_p50: z.number().nullable(),
  models: z.record(z.string(), z.number().int()),
})
export type CategoryAggregate = z.infer<typeof CategoryAggregate>

export const Contributions = z.strictObject({
  available: z.boolean(),
  submissions: z.number().int(),
  truncated: z.boolean(),
  by_category: z.record(z.string(), CategoryAggregate),
  disclosure_rule: z.string(),
  /** When the published snapshot was taken (absent on the internal live read). */
  as_of: z.iso.datetime().optional(),
})
export type Contributions = z.infer<typeof Contributions>

/**
 * The disclosure rule, served as `disclosure_rule` with every aggregate and quoted word for word in
 * gateway/submissions/README.md (test/build/readme-quotes.test.ts): what is published, when, and exactly what the exact
 * aggregates still give away (reproduced in test/submissions/disclosure.test.ts).
 */
export const DISCLOSURE_RULE = `Only category medians are published, and only once a category has ${DISCLOSURE_THRESHOLD} or more submissions from ${DISCLOSURE_THRESHOLD} or more distinct submitters (told apart by a salted hash of the client's network, its IPv4 /24 or IPv6 /48, never the address) and ${DISCLOSURE_THRESHOLD} or more networks gave that price; below that the median is null and the pricing-model counts are withheld. Each network has one voice per price in a category, the mean of the prices it gave there, and a median is taken over voices, not rows; of an even number of voices it is the mean of the two middle ones. Aggregates, counts included, are published from a periodic snapshot (as_of) holding everything that arrived since the one before: comparing two snapshots shows the arrivals in between only taken together (when a single submission arrived in a category, that is still its pricing model). Individual submissions and email addresses are never returned. What this does not hide, because medians and counts are exact and anyone may add rows: (1) whoever controls every other submitter network in a category (so at least ${DISCLOSURE_THRESHOLD - 1} networks) learns a newcomer's exact prices and exact pricing model, by putting their own prices at both extremes, which makes the median the newcomer's price, and subtracting their own pricing-model counts; with several newcomers in one snapshot, they learn the median of the newcomers' prices and how many chose each pricing model. (2) Once a category's median is published, every network someone adds is one more voice, which moves the median half a place: with m networks they can read the prices up to (m + 1) / 2 places (rounded down) either side of the middle (one network: the price next to the middle on each side), one value per price per snapshot, without learning who sent which. More rows from the same networks move it no further.`

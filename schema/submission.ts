/**
 * A crowd pricing submission (body of POST /v1/pricing/submit) and the aggregates published from them.
 */
import * as z from 'zod'
import { PricingModel, SubmissionCategory } from './vocabulary.js'

const Price = z.number().finite().nonnegative().max(10_000_000)
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

export const DISCLOSURE_RULE = `Only category medians are published, and only once a category has ${DISCLOSURE_THRESHOLD} or more submissions from ${DISCLOSURE_THRESHOLD} or more distinct submitters (told apart by a salted hash of the client's network, its IPv4 /24 or IPv6 /48, never the address) and the price has ${DISCLOSURE_THRESHOLD} or more values; below that the median is null and the pricing-model counts are withheld. A median of an even count is the mean of the two middle values. Aggregates, counts included, are published from a periodic snapshot (as_of), so one new submission cannot be isolated by reading them before and after it. Individual submissions and email addresses are never returned. Remaining risk: someone who controls ${DISCLOSURE_THRESHOLD - 1} distinct networks (IPv4 /24s or IPv6 /48s, not merely addresses or /64s) and is the only other submitter in a quiet category during one snapshot interval can still narrow down the next newcomer's price.`

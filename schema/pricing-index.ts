/**
 * The pricing index descriptor returned by GET /v1/pricing/index (SPEC.md, field for field).
 */
import { z } from 'zod'
import { Contributions } from './submission.js'

export const PricingIndexDescriptor = z.strictObject({
  dataset: z.string(),
  human_readable: z.string(),
  full_dataset: z.string(),
  method: z.string(),
  contribute: z.strictObject({
    endpoint: z.string(),
    content_type: z.string(),
    required: z.array(z.string()),
    optional: z.array(z.string()),
    categories: z.array(z.string()),
    pricing_models: z.array(z.string()),
    privacy: z.string(),
  }),
  right_of_reply: z.string(),
  paid: z.strictObject({ endpoint: z.string(), price: z.string(), returns: z.string() }),
  contributions: Contributions,
  /** Date of the latest correction, so an agent can skip a /changes call that would return nothing. */
  latest_correction: z.string().nullable(),
  rows: z.number().int(),
})
export type PricingIndexDescriptor = z.infer<typeof PricingIndexDescriptor>

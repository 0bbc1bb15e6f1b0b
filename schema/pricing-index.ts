/**
 * The pricing index descriptor returned by GET /v1/pricing/index (schema/CONTRACT.md §2.5, field for field).
 */
import * as z from 'zod'
import { Count, Freshness } from './datasets.js'
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
  paid: z.strictObject({
    endpoint: z.string(),
    price: z.string(),
    returns: z.string(),
    /** What the paid JSON adds over the free page (PAID_ADDS). */
    adds: z.string(),
  }),
  contributions: Contributions,
  /** Date of the latest correction, so an agent can skip a /changes call that would return nothing. */
  latest_correction: z.string().nullable(),
  rows: Count,
  /**
   * Derived from the rows (FORMAT.md, "Two nulls"): publish_a_price + no_published_price +
   * price_not_read = rows; sales_gated counts across all three.
   */
  counts: z.strictObject({
    publish_a_price: Count,
    sales_gated: Count,
    no_published_price: Count,
    price_not_read: Count,
  }),
  /** Rows due for re-read, derived on the build's date (as_of): the same shape as /v1/pricing's. */
  freshness: Freshness,
})
export type PricingIndexDescriptor = z.infer<typeof PricingIndexDescriptor>

/**
 * The re-read period, defined once. Rows are re-read against their vendor pages monthly (the job in
 * .github/workflows/reread.yml runs on the first of each month); 31 days is the longest gap between
 * two runs, so a row whose read_on is older than that has missed a re-read and is due.
 */
export const REREAD_PERIOD_DAYS = 31

/** What the paid JSON adds over the free page; said in the descriptor, on the page and in content/pricing/README.md. */
export const PAID_ADDS =
  "The free page holds every row, quote and note and the full corrections log. The paid JSON adds: each unit price converted exactly into the other units it converts to (per hour and per minute; a pack of N sessions and one session), and category medians on those converted units; each row's own price history from the corrections log; the date the vendor page states, as a date (YYYY-MM-DD, or YYYY-MM when the page names only a month); the date each price is as of (the page's own date, else the stored copy's capture date, else unknown) and where that date came from; for model APIs, each listed model's input and output price per 1M tokens, converted exactly; per-minute voice prices grouped by what the minute includes, with the prices left out of every group and why; and each row's days since it was read and whether it is due for re-read (counted from the price's date where known)."

/** How every row is made; shown in the descriptor and on the human page. */
export const METHOD_STATEMENT =
  'Each row is read off the vendor\'s own pricing, help-centre or documentation page, and carries a verbatim evidence quote, the URL read, the date we read it and the date its price is as of: the page\'s own date where it states one, else the stored copy\'s capture date where known, else unknown, never the day we read it. A price is null only with its reason. "Not published" and "sales call" are findings, made only when the page read is the vendor\'s own pricing page for the product; where that page has not been read yet, the row says "price not read yet", names the page still to read, and is counted apart, never as a vendor that publishes no price. No price is estimated, and none is carried over from an earlier read. The build refuses a price that does not appear in its quote. Rows are re-read against the vendor\'s page monthly, and a row is due for re-read once its price is as of more than the re-read period ago (or, with its date unknown, once its monthly re-read is missed); every change is published as a dated correction.'

/** The coverage schema/CONTRACT.md §1.3 sets out: products across the seven categories, at least this many per category. */
export const COVERAGE_GOAL = { products: 52, per_category: 4 } as const

/** The method text with the index's honest coverage, derived from the rows it describes. */
export function methodStatement(
  counts: {
    rows: number
    publish_a_price: number
    sales_gated: number
    no_published_price: number
    price_not_read: number
  },
  categories: readonly { category: string; products: number }[],
): string {
  const coverage =
    counts.rows >= COVERAGE_GOAL.products
      ? `The index holds ${counts.rows} products.`
      : `The index holds ${counts.rows} products, fewer than the ${COVERAGE_GOAL.products} it sets out to cover: the vendor pages we could read (stored copies) give no honest price or sales gate for the rest, and no row is added to reach a number.`
  const thin = categories.filter((c) => c.products < COVERAGE_GOAL.per_category)
  const perCategory = thin.length
    ? ` ${thin.length} of the ${categories.length} categories hold fewer than ${COVERAGE_GOAL.per_category} products (${thin.map((c) => `${c.category} ${c.products}`).join(', ')}).`
    : ''
  return `${METHOD_STATEMENT} ${coverage}${perCategory} Of the ${counts.rows}, ${counts.publish_a_price} publish a price, ${counts.no_published_price} publish no price on the pricing page we read, and for ${counts.price_not_read} the pricing page has not been read yet (price not read yet); ${counts.sales_gated} send at least one tier to a sales call.`
}

export const PRIVACY_STATEMENT =
  'A submission is stored only to compute category medians. No individual submission, product name, note or email address is ever returned by any endpoint, error or log; only per-category counts and medians are published, and medians only at 5 or more submissions. The email, if given, is kept solely so we can ask about an unusual value.'

export const RIGHT_OF_REPLY =
  'If a row is wrong or out of date, vendors and readers can write to the corrections contact with the product, the vendor page and what is wrong. Every correction is published with the date it was made and what changed (the field, the old and new value, and why), in the corrections log.'

export const DATASET_NAME = 'AI product pricing index'

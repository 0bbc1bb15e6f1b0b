/**
 * One footing per unit (content/FORMAT.md, "Price footing"): the checks that keep every published
 * price a list price in the field that means it. Each returns the problem, or null when the row
 * stands on the footing.
 */
import type { PricingRow } from '../../schema/content.js'
import { priceAppearsIn } from './price-in-quote.js'

/** The unit every model-API row publishes (FORMAT.md: one rule for which model). */
export const MODEL_API_UNIT = '1M input tokens'

export interface FootingBreak {
  field: 'entry_usd_month' | 'unit_price_usd' | 'usage_unit'
  problem: string
  allowed: string
}

/** Ranges as vendors write them: "$0.15–0.24", "$10 - $20", "between $1 and $2", "from $5 to $9". */
const RANGE = /\$?\s*(\d[\d,]*(?:\.\d+)?)\s*(?:[–—-]|to|and)\s*\$?\s*(\d[\d,]*(?:\.\d+)?)/gi

/** The ends of every range written in the quote. */
export function rangeEnds(quote: string): string[] {
  const ends: string[] = []
  for (const m of quote.matchAll(RANGE)) {
    const [whole, low, high] = m
    // "$0.15–0.24" is a range; "3-5 credits" without a dollar sign anywhere is not a price range.
    if (!whole.includes('$') && !/between|from/i.test(quote.slice(Math.max(0, (m.index ?? 0) - 12), m.index)))
      continue
    ends.push(low ?? '', high ?? '')
  }
  return ends.filter(Boolean)
}

export function footingBreaks(row: PricingRow): FootingBreak[] {
  const breaks: FootingBreak[] = []
  for (const field of ['entry_usd_month', 'unit_price_usd'] as const) {
    const price = row[field]
    if (price === null) continue
    if (rangeEnds(row.quote).some((end) => priceAppearsIn(price, end)))
      breaks.push({
        field,
        problem: `price ${price} is one end of a range in the quote`,
        allowed: 'a single list price; a range is recorded as null with the range in note',
      })
  }
  // The unit itself, without its parenthetical qualifier ("connected minute (Start plan)").
  const unit = (row.usage_unit ?? '').replace(/\([^)]*\)/g, '')
  if (row.unit_price_usd !== null && /\b(plan|subscription|tier|month|year)\b/i.test(unit))
    breaks.push({
      field: 'usage_unit',
      problem: `"${row.usage_unit}" is a plan or a period, not a unit of use`,
      allowed:
        'a plan price goes in entry_usd_month (when its period is monthly); unit_price_usd is per unit of use',
    })
  const perSeat = row.pricing_model === 'per-seat' || /\b(seat|user)s?\b/i.test(row.usage_unit ?? '')
  if (perSeat && row.unit_price_usd !== null)
    breaks.push({
      field: 'unit_price_usd',
      problem: 'a per-seat price is in unit_price_usd',
      allowed: 'a per-seat price goes in entry_usd_month, per seat per month',
    })
  // A row with no price yet (its pricing page not read) publishes no unit to check.
  const priced = row.unit_price_usd !== null
  if (
    priced &&
    row.category === 'model-api' &&
    row.pricing_model === 'per-token' &&
    row.usage_unit !== MODEL_API_UNIT
  )
    breaks.push({
      field: 'usage_unit',
      problem: `a per-token model-API row publishes "${row.usage_unit}"`,
      allowed: `"${MODEL_API_UNIT}" for the cheapest current model (FORMAT.md)`,
    })
  return breaks
}

/**
 * The counts the descriptor, the page and /v1/pricing state, derived from the rows. Three parts add
 * up to the rows: a published price, no price found on the pricing page (not published or sales
 * call), and the pricing page not read yet. Sales-gated rows are counted across all three.
 */
export interface PricingCounts {
  rows: number
  publish_a_price: number
  sales_gated: number
  no_published_price: number
  price_not_read: number
}

export function pricingCounts(rows: readonly PricingRow[]): PricingCounts {
  const priced = rows.filter((r) => r.entry_usd_month !== null || r.unit_price_usd !== null).length
  const notRead = rows.filter((r) => r.null_reason === 'pricing-page-not-read').length
  return {
    rows: rows.length,
    publish_a_price: priced,
    sales_gated: rows.filter((r) => r.sales_gated).length,
    no_published_price: rows.length - priced - notRead,
    price_not_read: notRead,
  }
}

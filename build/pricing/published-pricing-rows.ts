/**
 * The rows as the paid JSON serves them: each content row with its exact per-unit equivalents, its
 * own corrections (price history), the page's stated date as a date, the date its price is as of
 * (never the day we read it) and its freshness on the build's date.
 */
import type { Correction, PricingRow } from '../../schema/content.js'
import type { PublishedPricingRow } from '../../schema/datasets.js'
import { publishedModels } from './model-prices.js'
import { pageStatesOn } from './page-date.js'
import { asOfDay, priceAsOf } from './price-as-of.js'
import { daysBetween, rereadDue } from './pricing-freshness.js'
import { exactEquivalents } from './unit-conversion.js'

export function publishedPricingRows(
  rows: readonly PricingRow[],
  corrections: readonly Correction[],
  asOf: string,
): PublishedPricingRow[] {
  return [...rows]
    .sort((a, b) => a.category.localeCompare(b.category) || a.id.localeCompare(b.id))
    .map((row) => {
      const dated = priceAsOf(row)
      return {
        ...row,
        models: publishedModels(row.models),
        per_unit:
          row.unit_price_usd !== null && row.usage_unit !== null
            ? exactEquivalents(row.unit_price_usd, row.usage_unit)
            : [],
        price_history: corrections
          .filter((c) => c.product === row.id)
          .sort((a, b) => a.date.localeCompare(b.date)),
        page_states_on: pageStatesOn(row.page_states_date),
        ...dated,
        price_age_days: ((day) => (day === null ? null : daysBetween(day, asOf)))(asOfDay(dated.as_of)),
        days_since_read: daysBetween(row.read_on, asOf),
        reread_due: rereadDue(row, asOf),
      }
    })
}

/**
 * Derived comparables per index category, computed from the published rows only.
 */
import type { PricingRow } from '../../schema/content.js'
import type { Comparable, PriceSpread } from '../../schema/datasets.js'
import { INDEX_CATEGORIES } from '../../schema/vocabulary.js'
import { perMinute } from './included-usage.js'
import { minuteBundles } from './minute-bundles.js'
import { baseUnit } from './price-format.js'
import { comparableUnit } from './unit-conversion.js'

export function comparables(rows: readonly PricingRow[]): Comparable[] {
  return INDEX_CATEGORIES.map((category) => {
    const inCategory = rows.filter((r) => r.category === category)
    const priced = inCategory.filter((r) => r.entry_usd_month !== null || r.unit_price_usd !== null)
    // A per-minute price that says what its minute includes is compared only within its bundle.
    const bundled = (r: PricingRow) => r.minute_includes !== null && perMinute(r)
    const byUnit: Record<string, number[]> = {}
    for (const r of inCategory)
      if (r.unit_price_usd !== null && r.usage_unit !== null && !bundled(r)) {
        const unit = baseUnit(r.usage_unit)
        byUnit[unit] = [...(byUnit[unit] ?? []), r.unit_price_usd]
      }
    // Paid only: exact conversions put per-hour beside per-minute, a pack of N beside one.
    const byConvertedUnit: Record<string, number[]> = {}
    for (const r of inCategory)
      if (r.unit_price_usd !== null && r.usage_unit !== null && !bundled(r)) {
        const { unit, price } = comparableUnit(r.unit_price_usd, r.usage_unit)
        byConvertedUnit[unit] = [...(byConvertedUnit[unit] ?? []), price]
      }
    const models: Record<string, number> = {}
    for (const r of inCategory)
      if (r.pricing_model) models[r.pricing_model] = (models[r.pricing_model] ?? 0) + 1
    const { bundles, left_out } = minuteBundles(inCategory, spread)
    return {
      category,
      products: inCategory.length,
      publish_a_price: priced.length,
      sales_gated: inCategory.filter((r) => r.sales_gated).length,
      no_price: inCategory.filter((r) => r.null_reason === 'not-published' || r.null_reason === 'sales-gated')
        .length,
      price_not_read: inCategory.filter((r) => r.null_reason === 'pricing-page-not-read').length,
      entry_usd_month: spread(
        inCategory.flatMap((r) => (r.entry_usd_month === null ? [] : [r.entry_usd_month])),
      ),
      unit_price_usd_by_unit: spreads(byUnit),
      unit_price_usd_by_converted_unit: spreads(byConvertedUnit),
      per_minute_by_bundle: bundles,
      per_minute_left_out: left_out,
      pricing_models: Object.fromEntries(Object.entries(models).sort(([a], [b]) => a.localeCompare(b))),
    }
  })
}

function spreads(byUnit: Record<string, number[]>): Record<string, PriceSpread> {
  return Object.fromEntries(
    Object.entries(byUnit)
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([unit, prices]) => {
        const s = spread(prices)
        return s ? [[unit, s]] : []
      }),
  )
}

/** Median (mean of the middle two for an even count), minimum and maximum; null with no values. */
export function spread(values: readonly number[]): PriceSpread | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return { n: sorted.length, median: median(sorted), min: sorted[0] as number, max: sorted.at(-1) as number }
}

export function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2)
  const value =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
  return Math.round(value * 1e6) / 1e6
}

/**
 * Derived comparables per index category, computed from the published rows only. A median groups
 * only prices on the same unit and the same basis (content/FORMAT.md, "Like with like"): entry
 * prices per seat apart from per account and monthly billing apart from annual; unit prices by base
 * unit, base rates apart from overage rates; per-minute voice prices by what the minute includes.
 * Each group names what it left out, and a group of one is a single price, not a median.
 */
import type { PricingRow } from '../../schema/content.js'
import type { Comparable, LeftOut, PriceGroup, PriceSpread } from '../../schema/datasets.js'
import { INDEX_CATEGORIES } from '../../schema/vocabulary.js'
import { perMinute } from './included-usage.js'
import { minuteBundles } from './minute-bundles.js'
import { entryBasisLabel, UNIT_BASIS_TEXT } from './price-basis.js'
import { baseUnit, perUnit } from './price-format.js'
import { teamCost } from './team-cost.js'
import { comparableUnit } from './unit-conversion.js'

/** One price to group: the product, its price in the group's unit, and the unit and basis it is on. */
export interface Priced {
  product: string
  price: number
  unit: string
  basis: string
  seat_minimum: number | null
}

export function comparables(rows: readonly PricingRow[]): Comparable[] {
  return INDEX_CATEGORIES.map((category) => {
    const inCategory = rows.filter((r) => r.category === category)
    const priced = inCategory.filter((r) => r.entry_usd_month !== null || r.unit_price_usd !== null)
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
      entry_price_groups: priceGroups(entryPrices(inCategory)),
      unit_price_groups: priceGroups(unitPrices(inCategory, false)),
      unit_price_converted_groups: priceGroups(unitPrices(inCategory, true)),
      per_minute_by_bundle: bundles,
      per_minute_left_out: left_out,
      team_cost: teamCost(inCategory),
      pricing_models: Object.fromEntries(Object.entries(models).sort(([a], [b]) => a.localeCompare(b))),
    }
  })
}

/** Entry prices, each on its basis (per seat or per account, monthly or annual billing). */
export function entryPrices(rows: readonly PricingRow[]): Priced[] {
  return rows.flatMap((r) =>
    r.entry_usd_month === null || r.entry_basis === null
      ? []
      : [
          {
            product: r.id,
            price: r.entry_usd_month,
            unit: 'month',
            basis: entryBasisLabel(r.entry_basis),
            seat_minimum: r.entry_basis.seat_minimum,
          },
        ],
  )
}

/**
 * Unit prices by base unit and basis; `converted` puts them on the smallest unit of their family
 * (paid only). A per-minute price that says what its minute includes is compared only within its
 * bundle (minute-bundles.ts), so it is in no group here.
 */
export function unitPrices(rows: readonly PricingRow[], converted: boolean): Priced[] {
  return rows.flatMap((r) => {
    if (r.unit_price_usd === null || r.usage_unit === null || r.unit_basis === null) return []
    if (r.minute_includes !== null && perMinute(r)) return []
    const { unit, price } = converted
      ? comparableUnit(r.unit_price_usd, r.usage_unit)
      : { unit: baseUnit(r.usage_unit), price: r.unit_price_usd }
    return [{ product: r.id, price, unit, basis: UNIT_BASIS_TEXT[r.unit_basis], seat_minimum: null }]
  })
}

/** Groups of one unit and one basis, each naming the same-unit prices it left out. */
export function priceGroups(prices: readonly Priced[]): PriceGroup[] {
  const keys = [...new Set(prices.map((p) => `${p.unit}\u0000${p.basis}`))].sort((a, b) => a.localeCompare(b))
  return keys.map((key) => {
    const [unit = '', basis = ''] = key.split('\u0000')
    const members = prices.filter((p) => p.unit === unit && p.basis === basis)
    const left_out: LeftOut[] = prices
      .filter((p) => p.unit === unit && p.basis !== basis)
      .map((p) => ({ product: p.product, basis: p.basis }))
      .sort((a, b) => a.product.localeCompare(b.product))
    const s = spread(members.map((m) => m.price)) as PriceSpread
    const one = members.length === 1
    return {
      label: `USD ${unit === 'month' ? 'per month' : perUnit(unit)}, ${basis}`,
      unit,
      basis,
      products: members.map((m) => m.product).sort(),
      spread: one ? null : s,
      single_price: one ? s.median : null,
      left_out,
      seat_minimums: members
        .flatMap((m) => (m.seat_minimum === null ? [] : [{ product: m.product, seats: m.seat_minimum }]))
        .sort((a, b) => a.product.localeCompare(b.product)),
    }
  })
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

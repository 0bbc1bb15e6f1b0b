/**
 * Like with like for per-minute voice prices (content/FORMAT.md, "Like with like"): a minute that
 * includes the model, speech and telephony is not the same purchase as a minute that bills the
 * phone line extra. Prices are grouped by what the minute includes, and a price whose page leaves
 * any part unstated is left out of every group, with the parts it leaves unstated named.
 */
import { MINUTE_PARTS, type MinuteIncludes, type PricingRow } from '../../schema/content.js'
import type { MinuteBundle, MinuteLeftOut } from '../../schema/datasets.js'
import { perMinute } from './included-usage.js'
import { UNIT_BASIS_TEXT } from './price-basis.js'
import { comparableUnit } from './unit-conversion.js'

const PART_NAMES: Record<(typeof MINUTE_PARTS)[number], string> = {
  model: 'the model',
  speech_in: 'speech in',
  speech_out: 'speech out',
  telephony: 'telephony',
}

/** "model, speech in and speech out included; telephony extra": the bundle in words. */
export function bundleLabel(m: Omit<MinuteIncludes, 'quotes'>): string {
  const named = (state: string) =>
    MINUTE_PARTS.filter((p) => m[p] === state).map((p) => PART_NAMES[p].replace(/^the /, ''))
  const join = (parts: string[]) =>
    parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
  const included = named('included')
  const extra = named('extra')
  const unstated = named('unstated')
  return [
    included.length ? `${join(included)} included` : '',
    extra.length ? `${join(extra)} extra` : '',
    unstated.length ? `${join(unstated)} not stated` : '',
  ]
    .filter(Boolean)
    .join('; ')
}

/** The per-minute rows of a category, grouped by bundle, and those left out with why. */
export function minuteBundles(
  rows: readonly PricingRow[],
  spread: (values: readonly number[]) => MinuteBundle['spread'] | null,
): { bundles: MinuteBundle[]; left_out: MinuteLeftOut[] } {
  const groups = new Map<
    string,
    { includes: Omit<MinuteIncludes, 'quotes'>; basis: string; rows: PricingRow[] }
  >()
  const left_out: MinuteLeftOut[] = []
  for (const row of rows) {
    if (!perMinute(row) || row.unit_price_usd === null || row.usage_unit === null) continue
    const m = row.minute_includes
    const unstated = m ? MINUTE_PARTS.filter((p) => m[p] === 'unstated') : [...MINUTE_PARTS]
    if (!m || unstated.length) {
      left_out.push({
        product: row.id,
        why: `the vendor's page does not say whether the minute includes ${unstated.map((p) => PART_NAMES[p]).join(', ')}`,
      })
      continue
    }
    const { quotes: _, ...includes } = m
    const basis = UNIT_BASIS_TEXT[row.unit_basis ?? 'base']
    const key = [...MINUTE_PARTS.map((p) => includes[p]), basis].join('|')
    const group = groups.get(key) ?? { includes, basis, rows: [] }
    group.rows.push(row)
    groups.set(key, group)
  }
  const bundles = [...groups.values()].flatMap(({ includes, basis, rows: grouped }) => {
    const prices = grouped.map(
      (r) => comparableUnit(r.unit_price_usd as number, r.usage_unit as string).price,
    )
    const s = spread(prices)
    if (!s) return []
    // A bundle of one is that one price, never called a median.
    const one = s.n === 1
    return [
      {
        label: bundleLabel(includes),
        basis,
        spread: one ? null : s,
        single_price: one ? s.median : null,
        products: grouped.map((r) => r.id).sort(),
      },
    ]
  })
  return {
    bundles: bundles.sort((a, b) => a.label.localeCompare(b.label) || a.basis.localeCompare(b.basis)),
    left_out: left_out.sort((a, b) => a.product.localeCompare(b.product)),
  }
}

/**
 * Freshness, derived on the build's date from each row's as-of date (build/pricing/price-as-of.ts):
 * a row whose price is as of more than the re-read period (REREAD_PERIOD_DAYS, defined once in
 * schema/pricing-index.ts) before the build is due. A row whose as-of date is unknown cannot be aged,
 * so it is due when its monthly re-read was missed (read_on older than the period).
 */
import type { PricingRow } from '../../schema/content.js'
import type { Freshness } from '../../schema/datasets.js'
import { datedSummary, daysBetween } from '../../schema/price-dates.js'
import { REREAD_PERIOD_DAYS } from '../../schema/pricing-index.js'
import { asOfDay, priceAsOf } from './price-as-of.js'

export { daysBetween }

/** Today in UTC, YYYY-MM-DD: the default as-of date of a build. */
export const todayUtc = () => new Date().toISOString().slice(0, 10)

type Dated = Pick<PricingRow, 'read_on' | 'page_states_date' | 'copy_captured_on'>

/** The day a row's age counts from: its as-of date, or read_on when the as-of date is unknown. */
export function agedFrom(row: Dated): string {
  return asOfDay(priceAsOf(row).as_of) ?? row.read_on
}

export function rereadDue(row: Dated, buildDate: string): boolean {
  return daysBetween(agedFrom(row), buildDate) > REREAD_PERIOD_DAYS
}

export function freshness(rows: readonly (Dated & Pick<PricingRow, 'id'>)[], asOf: string): Freshness {
  const due = rows
    .filter((r) => rereadDue(r, asOf))
    .sort((a, b) => agedFrom(a).localeCompare(agedFrom(b)) || a.id.localeCompare(b.id))
  return {
    as_of: asOf,
    reread_period_days: REREAD_PERIOD_DAYS,
    due_for_reread: due.length,
    due_rows: due.map((r) => r.id),
    ...datedSummary(
      rows.map((r) => ({ id: r.id, as_of: priceAsOf(r).as_of })),
      asOf,
    ),
  }
}

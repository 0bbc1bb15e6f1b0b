/**
 * Freshness, derived from the rows' read dates on the build's date: a row whose read_on is older
 * than the re-read period (REREAD_PERIOD_DAYS, defined once in schema/pricing-index.ts) is due.
 */
import type { PricingRow } from '../../schema/content.js'
import type { Freshness } from '../../schema/datasets.js'
import { REREAD_PERIOD_DAYS } from '../../schema/pricing-index.js'

const DAY_MS = 86_400_000

/** Today in UTC, YYYY-MM-DD: the default as-of date of a build. */
export const todayUtc = () => new Date().toISOString().slice(0, 10)

/** Whole days from one YYYY-MM-DD to another (negative when `from` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

export function rereadDue(readOn: string, asOf: string): boolean {
  return daysBetween(readOn, asOf) > REREAD_PERIOD_DAYS
}

export function freshness(rows: readonly Pick<PricingRow, 'id' | 'read_on'>[], asOf: string): Freshness {
  const due = rows
    .filter((r) => rereadDue(r.read_on, asOf))
    .sort((a, b) => a.read_on.localeCompare(b.read_on) || a.id.localeCompare(b.id))
  return {
    as_of: asOf,
    reread_period_days: REREAD_PERIOD_DAYS,
    due_for_reread: due.length,
    due_rows: due.map((r) => r.id),
  }
}

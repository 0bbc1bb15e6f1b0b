/**
 * How many prices are dated and how old the oldest dated one is (content/FORMAT.md, "As-of date"),
 * worked out from the published rows' as-of dates: the build says it for the whole index and the
 * gateway for one category, with one function. A row whose as-of date is unknown is counted as
 * undated, never as current.
 */

const DAY_MS = 86_400_000

/** The day an as-of date counts from: a month-only date counts from its first day (the older end). */
export function asOfDay(asOf: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(asOf)) return asOf
  if (/^\d{4}-\d{2}$/.test(asOf)) return `${asOf}-01`
  return null
}

/** Whole days from one YYYY-MM-DD to another (negative when `from` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

export interface DatedSummary {
  /** Rows whose price's date is known (the page's own date, or the stored copy's capture date). */
  dated: number
  /** Rows whose price's date is unknown: never shown as current. */
  undated: number
  /** The oldest dated price: its row, its as-of date and its age in days on the build's date. */
  oldest_dated: { product: string; as_of: string; age_days: number } | null
}

export function datedSummary(
  rows: readonly { id: string; as_of: string }[],
  buildDate: string,
): DatedSummary {
  const dated = rows
    .flatMap((r) => {
      const day = asOfDay(r.as_of)
      return day ? [{ product: r.id, as_of: r.as_of, day }] : []
    })
    .sort((a, b) => a.day.localeCompare(b.day) || a.product.localeCompare(b.product))
  const [oldest] = dated
  return {
    dated: dated.length,
    undated: rows.length - dated.length,
    oldest_dated: oldest
      ? { product: oldest.product, as_of: oldest.as_of, age_days: daysBetween(oldest.day, buildDate) }
      : null,
  }
}

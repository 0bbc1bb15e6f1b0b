/**
 * The date a vendor page states, as the paid JSON's `page_states_on`: "Jun 16, 2025" and
 * "Effective December 5th, 2025" become 2025-06-16 and 2025-12-05; "March 2026" becomes 2026-03.
 * Text with no month and year gives null: a date is never guessed.
 */
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

const NAME = '(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?'
const DAY_FIRST = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${NAME},?\\s+(\\d{4})\\b`, 'i')
const MONTH_FIRST = new RegExp(`\\b${NAME}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i')
const MONTH_ONLY = new RegExp(`\\b${NAME}\\s+(\\d{4})\\b`, 'i')

function month(name: string): number | null {
  const index = MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)))
  return index === -1 ? null : index + 1
}

const two = (n: number) => String(n).padStart(2, '0')

function day(year: number, m: number, d: number): string | null {
  const iso = `${year}-${two(m)}-${two(d)}`
  const parsed = new Date(`${iso}T00:00:00Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(iso) ? iso : null
}

export function pageStatesOn(text: string | null): string | null {
  if (!text) return null
  const monthFirst = text.match(MONTH_FIRST)
  if (monthFirst) {
    const [, name, d, y] = monthFirst as unknown as [string, string, string, string]
    const m = month(name)
    return m ? day(Number(y), m, Number(d)) : null
  }
  const dayFirst = text.match(DAY_FIRST)
  if (dayFirst) {
    const [, d, name, y] = dayFirst as unknown as [string, string, string, string]
    const m = month(name)
    return m ? day(Number(y), m, Number(d)) : null
  }
  const only = text.match(MONTH_ONLY)
  if (only) {
    const [, name, y] = only as unknown as [string, string, string]
    const m = month(name)
    return m ? `${y}-${two(m)}` : null
  }
  return null
}

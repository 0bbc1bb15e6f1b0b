/**
 * What a price includes (content/FORMAT.md, "Like with like"): a per-minute voice price says what
 * the minute includes, and an entry price what usage it includes and what beyond it costs, each in
 * the vendor's words. The build checks the words are there and every amount we write is in them.
 */
import type { PricingRow } from '../../schema/content.js'
import { priceAppearsIn } from './price-in-quote.js'

export interface IncludedUsageBreak {
  field: 'minute_includes' | 'entry_includes'
  problem: string
  allowed: string
}

const AMOUNT = /\$\s?(\d[\d,]*(?:\.\d+)?)/g

/** Dollar amounts written in `text` that `quote` does not carry. */
function amountsNotIn(text: string, quote: string): string[] {
  return [...text.matchAll(AMOUNT)]
    .map((m) => m[1] ?? '')
    .filter((a) => !priceAppearsIn(Number(a.replace(/,/g, '')), quote))
}

/** True when the row's unit price is priced per minute (its base unit, before any qualifier). */
export function perMinute(row: Pick<PricingRow, 'unit_price_usd' | 'usage_unit'>): boolean {
  return row.unit_price_usd !== null && /^minute\b/i.test(row.usage_unit ?? '')
}

export function includedUsageBreaks(row: PricingRow): IncludedUsageBreak[] {
  const breaks: IncludedUsageBreak[] = []
  if (row.category === 'voice-agent' && perMinute(row) && row.minute_includes === null)
    breaks.push({
      field: 'minute_includes',
      problem: 'a per-minute voice price does not say what the minute includes',
      allowed:
        "minute_includes with model, speech_in, speech_out and telephony (included, extra or unstated) and the vendor's words in quote",
    })
  if (row.minute_includes && !perMinute(row))
    breaks.push({
      field: 'minute_includes',
      problem: 'minute_includes on a row with no per-minute price',
      allowed: 'minute_includes only with a unit price per minute',
    })
  if (row.entry_includes) {
    if (row.entry_usd_month === null)
      breaks.push({
        field: 'entry_includes',
        problem: 'entry_includes on a row with no entry price',
        allowed: 'entry_includes only with entry_usd_month',
      })
    const { usage, beyond, quotes } = row.entry_includes
    const missing = amountsNotIn(`${usage} ${beyond ?? ''}`, quotes.join(' \n '))
    if (missing.length)
      breaks.push({
        field: 'entry_includes',
        problem: `amount(s) ${missing.map((a) => `$${a}`).join(', ')} written in entry_includes are not in its quote`,
        allowed: 'every amount in usage and beyond written verbatim in entry_includes.quotes',
      })
  }
  return breaks
}

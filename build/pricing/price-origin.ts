/**
 * The footing rule on where a price comes from (content/FORMAT.md, "Price footing"): a published
 * price is a list price on the vendor's own page, never a worked example's figure, a calculator's
 * output or a third party's transcription. The build cannot see the page, so it reads the signs the
 * row itself carries: the quote's wording and the address it was read at.
 */
import type { PricingRow } from '../../schema/content.js'

export type OriginRule = 'worked-example' | 'calculator' | 'third-party'

export interface OriginBreak {
  field: 'quote' | 'source_url'
  rule: OriginRule
  problem: string
  allowed: string
}

/**
 * Wording that marks a worked example: a scenario told to the reader ("You signed up ... for $25",
 * "Let's say", "if you upgrade ... you'll pay"), or an example flagged as one ("Example:", "e.g.").
 */
const WORKED_EXAMPLE: readonly RegExp[] = [
  /\bexample\b/i,
  /\be\.g\./i,
  /\b(?:let['’]s say|suppose|imagine|say you)\b/i,
  /\byou (?:signed up|subscribed|upgraded|downgraded|bought|purchased|were charged|paid)\b/i,
  /\bif you\b[^.]*\byou['’]ll (?:pay|be charged|be billed)\b/i,
  /\byou would (?:pay|be charged|be billed)\b/i,
]

/** Wording or an address that marks a calculator's or estimator's output. */
const CALCULATOR = /\b(?:calculator|estimator|estimated (?:cost|price|bill)|would cost)\b/i
const CALCULATOR_PATH = /(?:calculator|estimat)/i

/**
 * Hosts that serve other people's copies or transcriptions of vendor pages: page mirrors and
 * proxies on shared hosting, code hosts, price trackers. A vendor's own page is never read there,
 * except the code host's own product pages (`owner`: GitHub's pages about Copilot).
 */
const THIRD_PARTY_HOSTS: readonly { host: RegExp; owner?: RegExp }[] = [
  { host: /(?:^|\.)workers\.dev$/i },
  { host: /(?:^|\.)pages\.dev$/i },
  { host: /(?:^|\.)github\.io$/i },
  { host: /^(?:www\.)?github\.com$/i, owner: /^github\b/i },
  { host: /^raw\.githubusercontent\.com$/i },
  { host: /^gist\.github\.com$/i },
  { host: /(?:^|\.)flexprice\.io$/i },
  { host: /(?:^|\.)skills\.sh$/i },
]

export function originBreaks(
  row: Pick<PricingRow, 'vendor' | 'quote' | 'source_url' | 'entry_usd_month' | 'unit_price_usd'>,
) {
  const breaks: OriginBreak[] = []
  if (row.entry_usd_month === null && row.unit_price_usd === null) return breaks
  const example = WORKED_EXAMPLE.map((p) => p.exec(row.quote)).find((m) => m !== null)
  if (example)
    breaks.push({
      field: 'quote',
      rule: 'worked-example',
      problem: `the price is taken from a worked example ("${example[0]}" in the quote)`,
      allowed:
        "a list price quoted from the vendor's price list or plan table, or null with null_reason (the example goes in note)",
    })
  const calc = CALCULATOR.exec(row.quote)
  const url = new URL(row.source_url)
  if (calc || CALCULATOR_PATH.test(url.pathname))
    breaks.push({
      field: calc ? 'quote' : 'source_url',
      rule: 'calculator',
      problem: calc
        ? `the price is a calculator's or estimate's output ("${calc[0]}" in the quote)`
        : `the page read is a calculator or estimator (${url.pathname})`,
      allowed: "a list price from the vendor's own price list, never a computed figure",
    })
  if (THIRD_PARTY_HOSTS.some((t) => t.host.test(url.hostname) && !t.owner?.test(row.vendor)))
    breaks.push({
      field: 'source_url',
      rule: 'third-party',
      problem: `the page read is on ${url.hostname}, a third party's copy or transcription, not the vendor's own page`,
      allowed: "the vendor's own pricing, help-centre or documentation page",
    })
  return breaks
}

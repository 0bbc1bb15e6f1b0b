/**
 * The monthly re-read: fetch each row's source page and say whether its quote is still there.
 * It only reports. A changed page yields a proposed correction stub and, at most, a hint; nothing
 * here writes to content/, because a price must be read by a person off the page, never guessed.
 */
import type { Correction, PricingRow } from '../../schema/content.js'
import { htmlToText, normaliseSpace } from '../pricing/html-text.js'
import type { Fetcher } from './reread-fetch.js'

export { htmlToText } from '../pricing/html-text.js'
export { type FetchedPage, type Fetcher, rewriteOrigin, undiciFetcher, userAgent } from './reread-fetch.js'
export { renderReport, summaryLines } from './reread-report.js'

/**
 * kept: the quote is on the page. changed: the page answered but the quote is gone. dropped: the
 * page is gone (404 or 410). unreachable: no answer we can judge (network error, timeout, other status).
 */
export type RereadStatus = 'kept' | 'changed' | 'dropped' | 'unreachable'

export interface RereadResult {
  id: string
  product: string
  vendor: string
  source_url: string
  /** The URL requested, after any origin override. */
  fetched_url: string
  status: RereadStatus
  http_status: number | null
  /** One line on why the row got its status. */
  detail: string
  quote: string
  read_on: string
  /** For kept rows: found as written, or only once spacing and table/markdown marks are ignored. */
  match: 'exact' | 'loose' | null
  /** For changed rows: the stub an editor completes after reading the page. */
  correction: Correction | null
  /** For changed rows: price-like text near the product's name. A hint for the editor, never data. */
  hints: string[]
  /**
   * Set when the row is `pricing-page-not-read`: the vendor pricing page still to read. The report
   * lists these first, as the editors' first work, whatever the source page's status.
   */
  page_to_read: string | null
}

export interface RereadOptions {
  /** The date written into correction stubs (YYYY-MM-DD); defaults to today in UTC. */
  today?: string
}

export const today = () => new Date().toISOString().slice(0, 10)

export async function rereadRow(
  row: PricingRow,
  fetch: Fetcher,
  options: RereadOptions = {},
): Promise<RereadResult> {
  const base = {
    id: row.id,
    product: row.product,
    vendor: row.vendor,
    source_url: row.source_url,
    fetched_url: row.source_url,
    quote: row.quote,
    read_on: row.read_on,
    match: null,
    correction: null,
    hints: [],
    page_to_read: row.null_reason === 'pricing-page-not-read' ? row.pricing_page_url : null,
  } satisfies Partial<RereadResult>
  let page: Awaited<ReturnType<Fetcher>>
  try {
    page = await fetch(row.source_url)
  } catch (error) {
    return { ...base, status: 'unreachable', http_status: null, detail: describeError(error) }
  }
  const common = { ...base, fetched_url: page.url, http_status: page.status }
  if (page.status === 404 || page.status === 410)
    return { ...common, status: 'dropped', detail: `the page answered ${page.status}: it is gone` }
  if (page.status >= 300 && page.status < 400)
    return {
      ...common,
      status: 'unreachable',
      detail: `still redirecting (${page.status}) after the redirect limit`,
    }
  if (page.status < 200 || page.status >= 300)
    return {
      ...common,
      status: 'unreachable',
      detail: `the page answered ${page.status}; nothing to compare`,
    }
  const text = htmlToText(page.body)
  const match = findQuote(row.quote, text)
  if (match)
    return {
      ...common,
      status: 'kept',
      match,
      detail:
        match === 'exact' ? 'quote found verbatim' : 'quote found once spacing and table marks are ignored',
    }
  return {
    ...common,
    status: 'changed',
    detail: 'the page answered but the quote is no longer on it',
    correction: {
      date: options.today ?? today(),
      product: row.id,
      field: 'quote',
      from: row.quote,
      to: null,
      why: 'quote no longer on page; re-read needed',
    },
    hints: priceHints(text, row),
  }
}

/**
 * Verbatim after white-space normalisation first. Failing that, a looser look that ignores all
 * spacing and the pipes and asterisks of stored markdown copies (a stored "| $5 / MTok |" is the
 * live table cell "$5 / MTok"), and folds typographic quotes and dashes.
 */
export function findQuote(quote: string, pageText: string): 'exact' | 'loose' | null {
  if (normaliseSpace(pageText).includes(normaliseSpace(quote))) return 'exact'
  const q = loose(quote)
  return q.length > 0 && loose(pageText).includes(q) ? 'loose' : null
}

function loose(text: string): string {
  return text
    .replace(/[‘’‚′]/g, "'")
    .replace(/[“”„″]/g, '"')
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/[\s\u00a0\u200b|*`]+/g, '')
}

const PRICE =
  /(?:US\s?)?\$\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:USD|US dollars))?(?:\s?(?:\/|per)\s?[A-Za-z][\w-]*)?/g
const WINDOW = 240
const MAX_HINTS = 3

/** Price-like strings within a short window of the product's name (or, failing that, the vendor's). */
export function priceHints(text: string, row: Pick<PricingRow, 'product' | 'vendor'>): string[] {
  const lower = text.toLowerCase()
  const names = [row.product, row.product.replace(/\s*\([^)]*\)\s*/g, ' ').trim(), row.vendor]
  for (const name of names) {
    const needle = name.toLowerCase()
    if (needle.length < 2) continue
    const hints = new Set<string>()
    for (
      let at = lower.indexOf(needle);
      at !== -1 && hints.size < MAX_HINTS;
      at = lower.indexOf(needle, at + 1)
    ) {
      const window = text.slice(Math.max(0, at - WINDOW), at + needle.length + WINDOW)
      for (const m of window.matchAll(PRICE)) {
        if (hints.size >= MAX_HINTS) break
        hints.add(`${m[0].trim()} (near "${name}")`)
      }
    }
    if (hints.size) return [...hints]
  }
  return []
}

/** Network errors as one line: undici's code (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT…) and message. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `request failed: ${String(error)}`
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'no answer within the time limit'
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code
  return `request failed${typeof code === 'string' ? ` (${code})` : ''}: ${error.message}`
}

/**
 * Price statements on a vendor page, for the editor's collect tool (scripts/editor/collect-row.ts): the
 * page as lines of visible text, every currency amount with its unit and period, every sentence that
 * sends a buyer to sales, and a date the page states about itself. It finds; it never decides. The
 * editor reads the page and the draft, and the build's checks still apply.
 */
import { decodeEntities, htmlToText, normaliseSpace } from './html-text.js'

/**
 * Tags that end a line of text when the page is split into blocks (headings, paragraphs, items, table
 * rows). Table cells stay on their row's line, a space apart, so one line is one row of a price table.
 */
const BLOCK =
  /^(address|article|aside|blockquote|br|caption|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|tfoot|thead|tr|ul)$/i
/** Tags inside a run of text, dropped with no gap, as the re-read's text does ("$<b>0.99</b>" is "$0.99"). */
const INLINE =
  /^(a|abbr|b|bdi|bdo|cite|code|data|del|dfn|em|font|i|ins|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var|wbr)$/i

/** Markdown, plain text or HTML: HTML when the server says so or the body starts like a document. */
export function looksLikeHtml(body: string, contentType?: string | null): boolean {
  if (contentType) {
    if (/html/i.test(contentType)) return true
    if (/markdown|text\/plain/i.test(contentType)) return false
  }
  return /^\s*(<!doctype html|<html\b|<head\b|<body\b)/i.test(body)
}

/**
 * The visible text of the page, one block per line. Every line is a run of the text a reader sees,
 * so a quote taken from one line is verbatim in the page once white space is collapsed.
 */
export function pageLines(body: string, contentType?: string | null): string[] {
  const text = looksLikeHtml(body, contentType)
    ? decodeEntities(
        body
          .replace(/<!--[\s\S]*?-->/g, ' ')
          .replace(/<(script|style|template|head|svg|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
          .replace(/<\/?([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>/g, (_, name: string) =>
            BLOCK.test(name) ? '\n' : INLINE.test(name) ? '' : ' ',
          ),
      )
    : body
  return text
    .split(/\r?\n/)
    .map((line) => normaliseSpace(line))
    .filter((line) => line.length > 0)
}

/** The text a quote must be found in: what the re-read compares against, so a draft stays checkable. */
export function pageTextForQuotes(body: string, contentType?: string | null): string {
  return looksLikeHtml(body, contentType) ? htmlToText(body) : normaliseSpace(body)
}

export type Period = 'month' | 'year' | 'one-time' | null

export interface PriceStatement {
  /** The whole line the amount is on: the verbatim quote a draft row uses. */
  line: string
  /** The amount as written ("$0.99", "US$ 1,200.00"). */
  written: string
  amount: number
  currency: 'USD' | 'EUR' | 'GBP'
  /** What one amount buys, as written after it ("resolution", "1M input tokens", "seat"), or null. */
  unit: string | null
  period: Period
  /** "typically $0.15–0.24": one end of a range is never a list price (FORMAT.md). */
  inRange: boolean
  /** The nearest heading or table label before the line, e.g. a tier name; a hint for the editor. */
  context: string | null
}

export interface SalesStatement {
  line: string
  /** The wording found ("Contact sales", "talk to Sales", "order form"...). */
  wording: string
  context: string | null
}

const AMOUNT =
  /(?<![\w$€£])(?:(US\$|\$|USD|€|EUR|£|GBP)\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)|(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(USD|EUR|GBP|€)(?![a-z]))/gi

/** The same pattern without the global flag, for a yes/no test that keeps no state between lines. */
const HAS_AMOUNT = new RegExp(AMOUNT.source, 'i')

const PERIODS: [RegExp, Period][] = [
  [/^(?:\/\s*|per\s+|a\s+|each\s+|every\s+)?(?:mo|mon|month|monthly)\b/i, 'month'],
  [/^(?:\/\s*|per\s+|a\s+|each\s+)?(?:yr|year|annum|annually|yearly)\b/i, 'year'],
  [/^(?:one[- ]time|once)\b/i, 'one-time'],
]

/** What follows an amount: "/mo", "per resolution", "/ 1M tokens", "per user per month". */
const UNIT_AFTER =
  /^\s*(?:\/|per\b|a\b|each\b)\s*([A-Za-z0-9][\w.,-]*(?:\s+(?!per\b|a\b|each\b|\/)[A-Za-z][\w-]*){0,2})/i

const SALES =
  /\b(contact (?:our )?sales|talk to (?:our )?sales|contact us for (?:pricing|a quote)|book a (?:demo|call)|request a (?:quote|demo)|get a quote|custom pricing|account executive|order form|sales team|sales-led)\b/i

const RANGE_BEFORE = /(?:between|from|typically|ranging)\s*$/i

function currencyOf(symbol: string): PriceStatement['currency'] {
  const s = symbol.toUpperCase()
  if (s === '€' || s === 'EUR') return 'EUR'
  if (s === '£' || s === 'GBP') return 'GBP'
  return 'USD'
}

function readUnit(after: string): { unit: string | null; period: Period } {
  let rest = after
  let unit: string | null = null
  let period: Period = null
  for (let i = 0; i < 2; i++) {
    const m = UNIT_AFTER.exec(rest)
    if (!m) break
    const word = (m[1] ?? '').replace(/[.,]+$/, '')
    const asPeriod = PERIODS.find(([re]) => re.test(word))
    if (asPeriod) period = period ?? asPeriod[1]
    else unit = unit ?? word
    rest = rest.slice(m[0].length)
  }
  if (period === null) {
    const loose = /^\s*(?:billed\s+)?(monthly|annually|yearly|per month|a month|one[- ]time)\b/i.exec(rest)
    if (loose)
      period = /month/i.test(loose[1] ?? '') ? 'month' : /one/i.test(loose[1] ?? '') ? 'one-time' : 'year'
  }
  return { unit, period }
}

const HEADING_LIKE = /^(?:#{1,6}\s+)?[A-Z][\w +&().-]{0,40}$/

/** Every currency amount on the page, with the unit and period written right after it. */
export function findPriceStatements(lines: readonly string[]): PriceStatement[] {
  const found: PriceStatement[] = []
  let context: string | null = null
  for (const line of lines) {
    if (HEADING_LIKE.test(line) && !HAS_AMOUNT.test(line)) context = line.replace(/^#+\s*/, '')
    for (const m of line.matchAll(AMOUNT)) {
      const written = m[0]
      const number = (m[2] ?? m[3] ?? '').replace(/,/g, '')
      const amount = Number(number)
      if (!Number.isFinite(amount)) continue
      const start = m.index ?? 0
      const after = line.slice(start + written.length)
      const before = line.slice(0, start)
      const { unit, period } = readUnit(after)
      const inRange =
        RANGE_BEFORE.test(before.trimEnd()) ||
        /^\s*(?:[–—-]|to)\s*(?:US\$|\$|€|£)?\s?\d/.test(after) ||
        /\d\s*(?:[–—-]|to)\s*$/.test(before.trimEnd())
      found.push({
        line,
        written,
        amount,
        currency: currencyOf(m[1] ?? m[4] ?? '$'),
        unit,
        period,
        inRange,
        context,
      })
    }
  }
  return found
}

/** Every line that sends a buyer to sales (a call, an account executive, an order form). */
export function findSalesStatements(lines: readonly string[]): SalesStatement[] {
  const found: SalesStatement[] = []
  let context: string | null = null
  for (const line of lines) {
    const m = SALES.exec(line)
    if (m) found.push({ line, wording: m[0], context })
    if (HEADING_LIKE.test(line)) context = line.replace(/^#+\s*/, '')
  }
  return found
}

const MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec'
const STATED_DATE = new RegExp(
  `\\b(?:Last updated|Last modified|Updated|Effective|Published|Revised)(?: on)?[:\\s]+(?:(?:${MONTHS})\\.? \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}|\\d{1,2} (?:${MONTHS}) \\d{4}|\\d{4}-\\d{2}-\\d{2})`,
  'i',
)

/** A date the page states about itself ("Last updated June 9, 2025"), exactly as written, or null. */
export function pageStatedDate(lines: readonly string[]): string | null {
  for (const line of lines) {
    const m = STATED_DATE.exec(line)
    if (m) return m[0]
  }
  return null
}

/** The page's own title, for the draft's product and vendor placeholders. */
export function pageTitle(body: string): string | null {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1]
  if (title) return normaliseSpace(decodeEntities(title)) || null
  const h1 = /^#\s+(.+)$/m.exec(body)?.[1]
  return h1 ? normaliseSpace(h1) : null
}

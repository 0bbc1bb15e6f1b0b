/**
 * From a fetched vendor page to a draft pricing row (and, for a row that exists, proposed corrections).
 * The draft is a proposal for the editor, never content: it is written outside content/pricing/rows,
 * its quote is always a line copied from the page (checked verbatim before anything is written), and
 * the build's checks apply once the editor moves it into place.
 */
import type { Correction, PricingRow } from '../../schema/content.js'
import { findQuote } from '../reread/reread.js'
import { priceAppearsIn } from './price-in-quote.js'
import {
  findPriceStatements,
  findSalesStatements,
  type PriceStatement,
  pageLines,
  pageStatedDate,
  pageTextForQuotes,
  pageTitle,
  type SalesStatement,
} from './price-statements.js'

export interface CollectedPage {
  /** The URL the row will cite (before any origin override). */
  source_url: string
  status: number
  body: string
  contentType?: string | null
}

/** The draft row: PricingRow's fields, with the ones only the editor can fill left null. */
export type DraftRow = Omit<PricingRow, 'category' | 'product' | 'vendor'> & {
  category: PricingRow['category'] | null
  product: string
  vendor: string
}

export interface Draft {
  row: DraftRow
  /** Every price and sales statement found, for the editor's review (written as comments). */
  prices: PriceStatement[]
  sales: SalesStatement[]
  /** What the tool could not decide and the editor must. */
  todo: string[]
}

/** The tool refuses rather than guess: no page, or nothing on it to quote. */
export class CollectRefused extends Error {}

export const EDITOR_TODO = 'TODO (editor)'

export function draftRow(page: CollectedPage, options: { id?: string; today: string }): Draft {
  if (page.status < 200 || page.status >= 300)
    throw new CollectRefused(`the page answered ${page.status}: nothing was read, so nothing is drafted`)
  const lines = pageLines(page.body, page.contentType)
  const prices = findPriceStatements(lines)
  const sales = findSalesStatements(lines)
  const todo: string[] = []
  const listable = prices.filter((p) => p.currency === 'USD' && !p.inRange && p.amount > 0)
  const monthly = listable
    .filter((p) => p.period === 'month' && (p.unit === null || /^(seat|user|member)s?$/i.test(p.unit)))
    .sort((a, b) => a.amount - b.amount)[0]
  const perUnit = listable.find((p) => p.unit !== null && p.period === null)
  const chosen = monthly ?? perUnit ?? null

  let quote: string | null = null
  let entry: number | null = null
  let unitPrice: number | null = null
  let usageUnit: string | null = null
  let nullReason: PricingRow['null_reason'] = null
  if (chosen) {
    quote = chosen.line
    if (chosen === monthly) entry = chosen.amount
    else {
      unitPrice = chosen.amount
      usageUnit = chosen.unit
    }
  } else if (sales[0]) {
    quote = sales[0].line
    nullReason = 'sales-gated'
  } else {
    const aboutPrice = lines.filter((l) => /\b(pric|plan|cost|billing|subscription)/i.test(l))
    quote = aboutPrice.find((l) => l.split(' ').length >= 4) ?? aboutPrice[0] ?? null
    nullReason = 'not-published'
  }
  if (quote === null)
    throw new CollectRefused(
      'no price, no sales wording and no line about pricing on the page: nothing to quote, and the tool never invents one',
    )
  // The one guarantee the draft makes: its quote is on the page, as the re-read will look for it.
  if (findQuote(quote, pageTextForQuotes(page.body, page.contentType)) !== 'exact')
    throw new CollectRefused(`the chosen quote is not verbatim on the page: "${quote}"`)
  for (const price of [entry, unitPrice])
    if (price !== null && !priceAppearsIn(price, quote))
      throw new CollectRefused(`price ${price} is not written in its quote "${quote}"`)

  const gate = sales[0] ?? null
  if (nullReason === 'not-published')
    todo.push(
      'No price on this page. "not-published" holds only if this URL is the vendor pricing page for the product; otherwise set null_reason: pricing-page-not-read and pricing_page_url to the page still to read.',
    )
  if (gate)
    todo.push(
      'Sales wording found: sales_gated is proposed true. Name the tier in gated_tier as the page does, and keep it only if this URL is the vendor pricing page for the product.',
    )
  if (prices.some((p) => p.inRange))
    todo.push('A range is on the page: never publish one end of it (FORMAT.md); put it in note.')
  if (prices.some((p) => p.currency !== 'USD'))
    todo.push('Amounts in another currency are on the page: only USD prices are published.')
  if (chosen === monthly && monthly && listable.some((p) => p !== monthly && p.period === 'month'))
    todo.push(
      'Several monthly plans: entry_usd_month is the lowest paid one; check it gives access to the product.',
    )
  todo.push('Fill product, vendor and category; confirm pricing_model; write newest_because.')
  todo.push(
    'Confirm entry_basis (per seat or per account, monthly or annual billing, seat minimum) and unit_basis (base rate, or overage beyond a plan allowance).',
  )

  const title = pageTitle(page.body)
  const host = new URL(page.source_url).hostname.replace(/^www\./, '')
  const others = prices.filter((p) => p !== chosen).map((p) => p.line)
  const row: DraftRow = {
    id: options.id ?? slug(host.split('.').slice(0, -1).join('-') || host),
    product: title ?? EDITOR_TODO,
    vendor: EDITOR_TODO,
    category: null,
    pricing_model: guessModel(chosen),
    entry_usd_month: entry,
    entry_basis:
      entry === null
        ? null
        : {
            per: guessModel(chosen) === 'per-seat' ? 'seat' : 'account',
            billing: 'monthly',
            seat_minimum: null,
            users: null,
            users_quote: null,
          },
    unit_price_usd: unitPrice,
    usage_unit: usageUnit,
    unit_basis: unitPrice === null ? null : 'base',
    null_reason: nullReason,
    sales_gated: gate !== null,
    // A line that is only the wording ("Contact sales" on a plan card) takes its heading as the tier.
    gated_tier: gate
      ? gate.line.toLowerCase() === gate.wording.toLowerCase()
        ? (gate.context ?? gate.line)
        : gate.line
      : null,
    quote,
    source_url: page.source_url,
    // The tool reads the page it is given as the pricing page; the editor confirms or changes it.
    pricing_page_url: page.source_url,
    read_on: options.today,
    read_from: 'vendor-page',
    copy_captured_on: null,
    page_states_date: pageStatedDate(lines),
    newest_because: EDITOR_TODO,
    copies_compared: [],
    note: others.length ? `Other price lines on the page: ${[...new Set(others)].join(' / ')}` : null,
    models: [],
    models_shortfall: null,
    minute_includes: null,
    entry_includes: null,
    team_tiers: [],
    overage_rates: [],
  }
  return { row, prices, sales, todo }
}

function guessModel(p: PriceStatement | null): PricingRow['pricing_model'] {
  if (!p) return null
  const unit = p.unit ?? ''
  if (/^(seat|user|member)s?$/i.test(unit)) return 'per-seat'
  if (/minute|min\b|hour|hr\b|second/i.test(unit)) return 'per-minute'
  if (/token|MTok/i.test(unit)) return 'per-token'
  if (/resolution|conversation|outcome|ticket/i.test(unit)) return 'per-outcome'
  if (/credit/i.test(unit)) return 'usage-credits'
  if (p.period === 'month' && !p.unit) return 'flat'
  return null
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'draft'
  )
}

/** Fields a collected draft can change on a published row. */
const COMPARED = [
  'entry_usd_month',
  'unit_price_usd',
  'usage_unit',
  'null_reason',
  'sales_gated',
  'quote',
  'source_url',
  'page_states_date',
] as const

/** For a row that exists: one proposed correction per field the page now reads differently. */
export function proposedCorrections(existing: PricingRow, draft: DraftRow, today: string): Correction[] {
  const value = (v: unknown): string | number | null =>
    v === null || v === undefined ? null : typeof v === 'number' ? v : String(v)
  return COMPARED.filter((f) => value(existing[f]) !== value(draft[f])).map((field) => ({
    date: today,
    product: existing.id,
    field,
    from: value(existing[field]),
    to: value(draft[field]),
    why: `${EDITOR_TODO}: proposed by npm run collect from ${draft.source_url}, read ${today}; confirm on the page before adding it to corrections.yaml and editing the row`,
  }))
}

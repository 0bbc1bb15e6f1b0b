/**
 * Two nulls (content/FORMAT.md): "publishes no price" and "sales call" are findings only when the page
 * read is the vendor's pricing page for the product. A row whose pricing page was not read says so
 * (`pricing-page-not-read`, with the page still to read) and is counted apart. Each check returns the
 * problem, or nothing when the row's claim rests on the page it read.
 */
import type { PricingRow } from '../../schema/content.js'

export interface SourceBreak {
  field: 'null_reason' | 'pricing_page_url' | 'sales_gated' | 'note'
  problem: string
  allowed: string
}

/**
 * What a note says when the page read was not the pricing page: the pricing page "was not stored",
 * the page "points to" or "sends readers to" another page for prices, the row was read "from a docs
 * page, not a pricing page". A row with such a note cannot claim an absence.
 */
export const NOT_THE_PRICING_PAGE: readonly RegExp[] = [
  /\b(?:was|were|is|are)\s+not\s+(?:stored|read)\b/i,
  /\bnot\s+(?:a|the|its|their)\s+(?:own\s+)?pricing\s+page\b/i,
  /\bpoints?\s+to\s+[^.]*\bfor\s+(?:the\s+)?prices?\b/i,
  /\bsends?\s+readers\s+to\b/i,
  /\b(?:docs|documentation|FAQ|help|terms)\s+page,\s+not\b/i,
]

/** The phrase in `text` that shows the pricing page was not the page read, or null. */
export function notThePricingPage(text: string | null): string | null {
  if (!text) return null
  for (const pattern of NOT_THE_PRICING_PAGE) {
    const m = pattern.exec(text)
    if (m) return m[0]
  }
  return null
}

const ABSENCE: readonly PricingRow['null_reason'][] = ['not-published', 'sales-gated']

export function sourceBreaks(row: PricingRow): SourceBreak[] {
  const breaks: SourceBreak[] = []
  const readThePricingPage = row.pricing_page_url !== null && row.pricing_page_url === row.source_url
  const notRead: SourceBreak = {
    field: 'null_reason',
    problem: '',
    allowed:
      'null_reason pricing-page-not-read with pricing_page_url naming the page still to read, or read that page and publish what it says',
  }
  if (ABSENCE.includes(row.null_reason)) {
    if (row.pricing_page_url === null)
      breaks.push({
        field: 'pricing_page_url',
        problem: `null_reason ${row.null_reason} needs pricing_page_url: an absence is a finding only on the vendor's pricing page`,
        allowed: 'pricing_page_url equal to source_url (the page read is the pricing page)',
      })
    else if (!readThePricingPage)
      breaks.push({
        ...notRead,
        problem: `null_reason ${row.null_reason}, but the page read (source_url) is not the pricing page (pricing_page_url ${row.pricing_page_url})`,
      })
    const said = notThePricingPage(row.note)
    if (said)
      breaks.push({
        ...notRead,
        field: 'note',
        problem: `null_reason ${row.null_reason}, but the note says the pricing page was not the page read ("${said}")`,
      })
  }
  if (row.sales_gated && !readThePricingPage)
    breaks.push({
      field: 'sales_gated',
      problem:
        row.pricing_page_url === null
          ? 'a sales gate is claimed without pricing_page_url'
          : `a sales gate is claimed from a page that is not the pricing page (pricing_page_url ${row.pricing_page_url})`,
      allowed:
        'sales_gated true only when the page read states the sales route and is the pricing page for the product (pricing_page_url equal to source_url)',
    })
  if (row.null_reason === 'pricing-page-not-read') {
    if (row.pricing_page_url === null)
      breaks.push({
        field: 'pricing_page_url',
        problem: 'pricing-page-not-read needs pricing_page_url: the page the editors read next',
        allowed: 'the URL of the vendor pricing page that was not read',
      })
    else if (row.pricing_page_url === row.source_url)
      breaks.push({
        field: 'pricing_page_url',
        problem: 'pricing-page-not-read, but pricing_page_url is the page read (source_url)',
        allowed:
          'not-published or sales-gated when the pricing page was read; otherwise the URL still to read',
      })
  }
  return breaks
}

/** The words a reader sees for a row with no price. */
export const NULL_REASON_TEXT: Record<NonNullable<PricingRow['null_reason']>, string> = {
  'not-published': 'not published',
  'sales-gated': 'sales call',
  'pricing-page-not-read': 'price not read yet',
}

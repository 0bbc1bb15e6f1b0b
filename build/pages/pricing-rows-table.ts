/**
 * The table of pricing rows for the human page: every field a reader needs to check a row against
 * the vendor's page (price or the reason there is none, the verbatim quote, the URL, the date the price
 * is as of and the read date).
 */
import type { PricingRow } from '../../schema/content.js'
import type { PublishedPricingRow } from '../../schema/datasets.js'
import { bundleLabel } from '../pricing/minute-bundles.js'
import { AS_OF_SOURCE_TEXT } from '../pricing/price-as-of.js'
import { formatUsd, nullReasonText, perUnit } from '../pricing/price-format.js'
import { escapeHtml, safeHref } from './html.js'

const READ_FROM: Record<PricingRow['read_from'], string> = {
  'vendor-page': 'read live from the vendor page',
  'stored-copy-of-vendor-page': 'read from a stored copy of the vendor page',
}

/**
 * Roles are written out because narrow screens restyle the cells as blocks, and some browsers then
 * drop the table semantics that screen readers rely on.
 */
export function rowsTable(caption: string, rows: readonly PublishedPricingRow[]): string {
  return `<table class="rows" role="table">
<caption>${escapeHtml(caption)}</caption>
<thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">Product</th><th scope="col" role="columnheader">Pricing model</th><th scope="col" role="columnheader">Published price</th><th scope="col" role="columnheader">Evidence (verbatim)</th><th scope="col" role="columnheader">Source</th></tr></thead>
<tbody role="rowgroup">
${rows.map(rowLine).join('\n')}
</tbody>
</table>`
}

function rowLine(r: PublishedPricingRow): string {
  const cell = (label: string, html: string) =>
    `<td role="cell" data-label="${escapeHtml(label)}">${html}</td>`
  return `<tr role="row" id="row-${escapeHtml(r.id)}">${[
    `<th scope="row" role="rowheader" data-label="Product"><span class="product">${escapeHtml(r.product)}</span><br><span class="vendor">${escapeHtml(r.vendor)}</span></th>`,
    cell(
      'Pricing model',
      r.pricing_model ? escapeHtml(r.pricing_model) : '<span class="nil">not stated</span>',
    ),
    cell('Published price', `${priceCell(r)}${modelsBlock(r)}`),
    cell('Evidence (verbatim)', evidenceCell(r)),
    cell('Source', sourceCell(r)),
  ].join('')}</tr>`
}

const ROLE_TEXT: Record<PublishedPricingRow['models'][number]['role'], string> = {
  cheapest: 'cheapest current',
  'most-capable': 'most capable, as the page says',
  'highest-priced': 'highest-priced listed',
  listed: 'listed',
}

/** Each model's input and output price per 1M tokens, with the page's own words under it. */
function modelsBlock(r: PublishedPricingRow): string {
  if (r.models.length === 0) return ''
  const items = r.models.map(
    (m) =>
      `<li><span class="product">${escapeHtml(m.model)}</span> (${ROLE_TEXT[m.role]}): <span class="price">${formatUsd(m.input_usd_per_mtok)}</span> in, <span class="price">${formatUsd(m.output_usd_per_mtok)}</span> out per 1M tokens<br><q class="small">${escapeHtml(m.quote)}</q>${m.source_url ? ` <span class="small">(${escapeHtml(m.source_url.replace(/^https?:\/\//, ''))})</span>` : ''}</li>`,
  )
  const short = r.models_shortfall
    ? `<p class="small">Fewer than two models: ${escapeHtml(r.models_shortfall)}</p>`
    : ''
  return `<p class="small">Models, input and output price:</p><ul class="models">${items.join('')}</ul>${short}`
}

/** What a per-minute price's minute includes, and what an entry price includes, in the vendor's words. */
function includesBlock(r: PricingRow): string {
  const parts: string[] = []
  if (r.minute_includes) {
    const words = r.minute_includes.quotes.map((q) => `<q class="small">${escapeHtml(q)}</q>`).join(' ')
    parts.push(
      `<p class="small includes">The minute: ${escapeHtml(bundleLabel(r.minute_includes))}.${words ? ` ${words}` : ''}</p>`,
    )
  }
  const tierQuotes = [
    ...r.team_tiers.map((t) => t.quote),
    ...r.overage_rates.map((o) => o.quote),
    ...(r.entry_basis?.users_quote ? [r.entry_basis.users_quote] : []),
  ]
  if (tierQuotes.length)
    parts.push(
      `<p class="small includes">Tiers and overage, in the page's words: ${tierQuotes.map((q) => `<q class="small">${escapeHtml(q)}</q>`).join(' ')}</p>`,
    )
  if (r.entry_includes) {
    const e = r.entry_includes
    const words = e.quotes.map((q) => `<q class="small">${escapeHtml(q)}</q>`).join(' ')
    parts.push(
      `<p class="small includes">The entry price includes: ${escapeHtml(e.usage)}. Beyond it: ${escapeHtml(e.beyond ?? 'the page read does not say')}. ${words}</p>`,
    )
  }
  return parts.join('')
}

function priceCell(r: PricingRow): string {
  const lines: string[] = []
  if (r.entry_usd_month !== null)
    lines.push(`<span class="price">${formatUsd(r.entry_usd_month)}</span> / month`)
  if (r.unit_price_usd !== null)
    lines.push(
      `<span class="price">${formatUsd(r.unit_price_usd)}</span> ${escapeHtml(perUnit(r.usage_unit))}`,
    )
  if (r.entry_basis?.per === 'seat') lines.push('<span class="small">per seat</span>')
  if (r.entry_basis?.seat_minimum)
    lines.push(`<span class="small">at least ${r.entry_basis.seat_minimum} seats</span>`)
  // Tiers a team buys and overage rates, each as the page writes it (the quote is in the evidence cell).
  for (const t of r.team_tiers)
    lines.push(
      `<span class="small tier">${escapeHtml(t.name)}: <span class="price">${formatUsd(t.usd_per_seat_month)}</span> / seat / month, ${t.billing} billing${t.seat_minimum ? `, at least ${t.seat_minimum} seats` : ''}</span>`,
    )
  for (const o of r.overage_rates)
    lines.push(
      `<span class="small overage">Overage: <span class="price">${formatUsd(o.usd)}</span> per ${escapeHtml(o.unit)}</span>`,
    )
  if (lines.length === 0) lines.push(`<span class="marker">${nullReasonText(r.null_reason)}</span>`)
  if (r.null_reason === 'pricing-page-not-read' && r.pricing_page_url) {
    const href = safeHref(r.pricing_page_url)
    const shown = escapeHtml(r.pricing_page_url.replace(/^https?:\/\//, ''))
    lines.push(
      `<span class="small">Pricing page still to read: ${href ? `<a href="${href}" rel="nofollow noreferrer" class="url">${shown}</a>` : shown}</span>`,
    )
  } else if (r.sales_gated) lines.push('<span class="marker">also sales call for some buyers</span>')
  return lines.join('<br>')
}

function evidenceCell(r: PricingRow): string {
  const href = safeHref(r.source_url)
  const quote = `<blockquote${href ? ` cite="${href}"` : ''}><p>${escapeHtml(r.quote)}</p></blockquote>`
  const dated = r.page_states_date
    ? `<p class="small">The page states: ${escapeHtml(r.page_states_date)}</p>`
    : ''
  const note = r.note ? `<p class="small note">Note: ${escapeHtml(r.note)}</p>` : ''
  return `${quote}${dated}${includesBlock(r)}${note}`
}

function sourceCell(r: PublishedPricingRow): string {
  const href = safeHref(r.source_url)
  const shown = escapeHtml(r.source_url.replace(/^https?:\/\//, ''))
  const link = href ? `<a href="${href}" rel="nofollow noreferrer" class="url">${shown}</a>` : shown
  const age =
    r.as_of_source === 'unknown'
      ? `read ${r.days_since_read} days ago, price date unknown`
      : `price as of ${r.as_of}`
  const due = r.reread_due ? `<br><span class="marker due">due for re-read (${age})</span>` : ''
  const asOf =
    r.as_of_source === 'unknown'
      ? `<span class="small as-of">Price as of: unknown (${AS_OF_SOURCE_TEXT.unknown})</span><br><span class="marker undated">price date unknown: not known to be current</span>`
      : `<span class="small as-of">Price as of <time datetime="${escapeHtml(r.as_of)}">${escapeHtml(r.as_of)}</time> (${AS_OF_SOURCE_TEXT[r.as_of_source]})</span>`
  return `${link}<br>${asOf}<br><span class="small">Read <time datetime="${escapeHtml(r.read_on)}">${escapeHtml(r.read_on)}</time>, ${READ_FROM[r.read_from]}</span>${due}`
}

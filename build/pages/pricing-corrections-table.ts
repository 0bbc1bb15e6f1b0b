/**
 * The corrections log for the human page: newest first, each entry with what changed and why, and a
 * link to the row it changed when that row is still published.
 */
import type { Correction, PricingRow } from '../../schema/content.js'
import { escapeHtml } from './html.js'

export function correctionsTable(corrections: readonly Correction[], rows: readonly PricingRow[]): string {
  if (corrections.length === 0) return '<p>No corrections have been made yet.</p>'
  const byId = new Map(rows.map((r) => [r.id, r]))
  // The bundle is oldest first (date, product); the page reads newest first, same tie order.
  const newestFirst = corrections
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.date.localeCompare(a.c.date) || a.i - b.i)
    .map(({ c }) => c)
  return `<table class="corrections" role="table">
<caption>Corrections, newest first</caption>
<thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">Date</th><th scope="col" role="columnheader">Product</th><th scope="col" role="columnheader">Field</th><th scope="col" role="columnheader">From → to</th><th scope="col" role="columnheader">Why</th></tr></thead>
<tbody role="rowgroup">
${newestFirst
  .map((c) => {
    const row = byId.get(c.product)
    const product = row
      ? `<a href="#row-${escapeHtml(c.product)}">${escapeHtml(row.product)}</a> <span class="small">(${escapeHtml(c.product)})</span>`
      : escapeHtml(c.product)
    return `<tr role="row"><td role="cell" data-label="Date"><time datetime="${escapeHtml(c.date)}">${escapeHtml(c.date)}</time></td><td role="cell" data-label="Product">${product}</td><td role="cell" data-label="Field"><code>${escapeHtml(c.field)}</code></td><td role="cell" data-label="From → to">${value(c.from)} → ${value(c.to)}</td><td role="cell" data-label="Why">${escapeHtml(c.why)}</td></tr>`
  })
  .join('\n')}
</tbody>
</table>`
}

function value(v: Correction['from']): string {
  return v === null ? '<span class="nil">null</span>' : `<span class="was">${escapeHtml(v)}</span>`
}

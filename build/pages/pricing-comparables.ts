/**
 * A category's derived comparables as a definition list: counts, who publishes a price, who sends
 * buyers to sales, and median and range per unit (never across units).
 */
import type { Comparable, PriceSpread } from '../../schema/datasets.js'
import { formatUsd, perUnit } from '../pricing/price-format.js'
import { escapeHtml } from './html.js'

export function comparablesList(c: Comparable): string {
  const items: [string, string][] = [
    ['Products', String(c.products)],
    ['Publish a price', `${c.publish_a_price} of ${c.products}`],
    ['Send some or all buyers to a sales call', `${c.sales_gated} of ${c.products}`],
    ['Publish no price (on the pricing page read)', `${c.no_price} of ${c.products}`],
    ['Price not read yet', `${c.price_not_read} of ${c.products}`],
  ]
  if (c.entry_usd_month) items.push(['Entry price, USD per month', spread(c.entry_usd_month)])
  for (const [unit, s] of Object.entries(c.unit_price_usd_by_unit))
    items.push([`Unit price, USD ${perUnit(unit)}`, spread(s)])
  // Per-minute prices compare only with prices whose minute includes the same things.
  for (const b of c.per_minute_by_bundle)
    items.push([`Per minute, ${b.label}`, `${spread(b.spread)}: ${b.products.join(', ')}`])
  if (c.per_minute_left_out.length)
    items.push([
      'Per-minute prices left out of every comparison',
      c.per_minute_left_out.map((l) => `${l.product}: ${l.why}`).join('; '),
    ])
  const models = Object.entries(c.pricing_models)
  if (models.length) items.push(['Pricing models', models.map(([m, n]) => `${m}: ${n}`).join(', ')])
  return `<dl class="comparables">
${items.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('\n')}
</dl>`
}

/** One price says only itself; a median and range need at least two. */
function spread(s: PriceSpread): string {
  if (s.n === 1) return `${formatUsd(s.median)} (1 product)`
  return `median ${formatUsd(s.median)}, range ${formatUsd(s.min)} to ${formatUsd(s.max)} (${s.n} products)`
}

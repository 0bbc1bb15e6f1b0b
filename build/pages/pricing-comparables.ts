/**
 * A category's derived comparables as a definition list: counts, who publishes a price, who sends
 * buyers to sales, and median and range per unit and basis (never across units or bases), each
 * saying which products it grouped and which it left out; a group of one is a single price.
 */
import type { Comparable, PriceGroup, PriceSpread } from '../../schema/datasets.js'
import { formatUsd } from '../pricing/price-format.js'
import { escapeHtml } from './html.js'

export function comparablesList(c: Comparable): string {
  const items: [string, string][] = [
    ['Products', String(c.products)],
    ['Publish a price', `${c.publish_a_price} of ${c.products}`],
    ['Send some or all buyers to a sales call', `${c.sales_gated} of ${c.products}`],
    ['Publish no price (on the pricing page read)', `${c.no_price} of ${c.products}`],
    ['Price not read yet', `${c.price_not_read} of ${c.products}`],
  ]
  for (const g of c.entry_price_groups) items.push([`Entry price, ${g.label}`, group(g)])
  for (const g of c.unit_price_groups) items.push([`Unit price, ${g.label}`, group(g)])
  // Per-minute prices compare only with prices whose minute includes the same things.
  for (const b of c.per_minute_by_bundle)
    items.push([
      `Per minute, ${b.label}; ${b.basis}`,
      `${b.spread ? spread(b.spread) : single(b.single_price as number)}: ${b.products.join(', ')}`,
    ])
  if (c.per_minute_left_out.length)
    items.push([
      'Per-minute prices left out of every comparison',
      c.per_minute_left_out.map((l) => `${l.product}: ${l.why}`).join('; '),
    ])
  const t = c.team_cost
  if (t.options.length)
    items.push([
      `A team of ${t.seats} pays a month, cheapest first`,
      [
        t.options.map((o) => `${o.product} ${formatUsd(o.usd_month)} (${o.plan}: ${o.how})`).join('; '),
        t.left_out.length ? `left out: ${t.left_out.map((l) => `${l.product} (${l.why})`).join('; ')}` : '',
      ]
        .filter(Boolean)
        .join('. '),
    ])
  const models = Object.entries(c.pricing_models)
  if (models.length) items.push(['Pricing models', models.map(([m, n]) => `${m}: ${n}`).join(', ')])
  return `<dl class="comparables">
${items.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('\n')}
</dl>`
}

/** A group's figure, the products it grouped, their seat minimums and what it left out. */
export function group(g: PriceGroup): string {
  const figure = g.spread ? spread(g.spread) : single(g.single_price as number)
  const minimums = g.seat_minimums.map((m) => `${m.product} at least ${m.seats} seats`)
  const parts = [`${figure}: ${g.products.join(', ')}${minimums.length ? ` (${minimums.join('; ')})` : ''}`]
  if (g.left_out.length)
    parts.push(`left out: ${g.left_out.map((l) => `${l.product} (${l.basis})`).join(', ')}`)
  return parts.join('; ')
}

/** A median and range need at least two prices. */
function spread(s: PriceSpread): string {
  return `median ${formatUsd(s.median)}, range ${formatUsd(s.min)} to ${formatUsd(s.max)} (${s.n} products)`
}

/** One price says only itself: never a median. */
function single(price: number): string {
  return `single price ${formatUsd(price)} (1 product, no median)`
}

/**
 * One category's chart as inline SVG: horizontal bars of each product's published price, grouped by
 * unit, plus a text marker for every product without a price. No script and no external resource,
 * so it renders the same in any browser, in a feed reader and in a screenshot.
 */
import type { PricingRow } from '../../schema/content.js'
import { perMinute } from '../pricing/included-usage.js'
import { bundleLabel } from '../pricing/minute-bundles.js'
import { entryBasisLabel, UNIT_BASIS_TEXT } from '../pricing/price-basis.js'
import { baseUnit, formatUsd, nullReasonText, perUnit, unitQualifier } from '../pricing/price-format.js'
import { escapeHtml } from './html.js'

/** Drawing units; the SVG scales to its container, so these are proportions, not pixels. */
const WIDTH = 420
const BAR_MAX = 250
const BAR_HEIGHT = 14
const LINE = 18
const GROUP_GAP = 14
/** SVG text never wraps by itself, so long labels are broken into lines here (bold runs wider). */
const LABEL_CHARS = 48
const HEADING_CHARS = 40

interface Item {
  label: string
  /** Null draws the marker instead of a bar. */
  value: number | null
  marker: string
  salesGated: boolean
}

interface Group {
  heading: string
  items: Item[]
}

/**
 * Prices in different units are never drawn on one scale: each group (USD per month, or USD per one
 * unit) has its own, starting at zero, so a bar compares only with bars of the same unit.
 */
export function chartGroups(rows: readonly PricingRow[]): Group[] {
  const groups: Group[] = []
  const item = (r: PricingRow, value: number | null, qualifier: string | null = null): Item => ({
    label: `${r.product} · ${r.vendor}${qualifier ? ` (${qualifier})` : ''}`,
    value,
    marker: value === null ? nullReasonText(r.null_reason) : '',
    salesGated: r.sales_gated,
  })
  // Per seat apart from per account, monthly billing apart from annual: one scale per basis.
  const entryBasis = (r: PricingRow) => (r.entry_basis ? entryBasisLabel(r.entry_basis) : '')
  const entry = rows.filter((r) => r.entry_usd_month !== null)
  for (const basis of [...new Set(entry.map(entryBasis))].sort((a, b) => a.localeCompare(b)))
    groups.push({
      heading: `Entry price, USD per month, ${basis}`,
      items: entry
        .filter((r) => entryBasis(r) === basis)
        .map((r) =>
          item(
            r,
            r.entry_usd_month,
            r.entry_basis?.seat_minimum ? `at least ${r.entry_basis.seat_minimum} seats` : null,
          ),
        ),
    })
  // One scale per base unit: "resolution" and "resolution (first tier)" are the same thing counted.
  // A per-minute price that says what its minute includes shares a scale only with the same bundle.
  // Base rates apart from overage rates.
  const base = (r: PricingRow) => {
    const unit = baseUnit(r.usage_unit ?? '')
    const basis = UNIT_BASIS_TEXT[r.unit_basis ?? 'base']
    return r.minute_includes && perMinute(r)
      ? `${unit}: ${bundleLabel(r.minute_includes)}; ${basis}`
      : `${unit}, ${basis}`
  }
  const units = [...new Set(rows.flatMap((r) => (r.unit_price_usd === null ? [] : [base(r)])))]
  for (const unit of units.sort((a, b) => a.localeCompare(b)))
    groups.push({
      heading: `Unit price, USD ${perUnit(unit || null)}`,
      items: rows
        .filter((r) => r.unit_price_usd !== null && base(r) === unit)
        .map((r) => item(r, r.unit_price_usd, unitQualifier(r.usage_unit))),
    })
  // A finding (the pricing page shows no price) and a page not read yet are never one group.
  const unpriced = rows.filter((r) => r.entry_usd_month === null && r.unit_price_usd === null)
  const notRead = unpriced.filter((r) => r.null_reason === 'pricing-page-not-read')
  const none = unpriced.filter((r) => r.null_reason !== 'pricing-page-not-read')
  if (none.length) groups.push({ heading: 'No published price', items: none.map((r) => item(r, null)) })
  if (notRead.length) groups.push({ heading: 'Price not read yet', items: notRead.map((r) => item(r, null)) })
  for (const g of groups)
    g.items.sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || a.label.localeCompare(b.label))
  return groups
}

/** The chart for one category; `key` makes the title and description ids unique on the page. */
export function categoryChart(key: string, title: string, rows: readonly PricingRow[]): string {
  const groups = chartGroups(rows)
  const parts: string[] = []
  let y = 0
  for (const group of groups) {
    const max = Math.max(...group.items.map((i) => i.value ?? 0))
    const heading = wrap(group.heading, HEADING_CHARS)
    parts.push(lines(heading, y, 'h'))
    y += heading.length * LINE + 4
    for (const item of group.items) {
      const drawn = drawItem(item, y, max)
      parts.push(drawn.svg)
      y += drawn.height
    }
    y += GROUP_GAP
  }
  const height = Math.max(Math.ceil(y), LINE * 2)
  const priced = rows.filter((r) => r.entry_usd_month !== null || r.unit_price_usd !== null).length
  const desc = `${rows.length} products; ${priced} publish a price, ${rows.length - priced} do not. Bars compare prices only within the same unit. ${describe(groups)}`
  return [
    `<svg class="chart" role="img" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" aria-labelledby="${key}-title ${key}-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${key}-title">${escapeHtml(title)}</title>`,
    `<desc id="${key}-desc">${escapeHtml(desc)}</desc>`,
    `<style>text{font:14px system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;fill:#1a1a1a}.h{font-weight:700;fill:#333}.v{font-variant-numeric:tabular-nums}.m{fill:#7a4100;font-style:italic}</style>`,
    ...parts,
    '</svg>',
  ].join('\n')
}

/** A product: its name on one or more lines, then its bar (or marker) and value on the next. */
function drawItem(item: Item, top: number, max: number): { svg: string; height: number } {
  const label = wrap(item.label, LABEL_CHARS)
  const barY = top + label.length * LINE + 4
  const height = label.length * LINE + BAR_HEIGHT + 16
  if (item.value === null) {
    // A dashed empty box, never a zero-length bar: "no price" is not "price zero".
    const w = 118
    const svg = [
      lines(label, top),
      `<rect x="0.5" y="${barY - 0.5}" width="${w}" height="${BAR_HEIGHT + 3}" fill="#fff7ed" stroke="#7a4100" stroke-dasharray="4 3"/>`,
      `<text x="${w / 2}" y="${barY + 12}" text-anchor="middle" class="m">${escapeHtml(item.marker)}</text>`,
    ].join('')
    return { svg, height }
  }
  // Zero-based linear scale within the group; a tiny price still gets a visible sliver.
  const w = max > 0 ? Math.max(2, round((item.value / max) * BAR_MAX)) : 2
  const value = `${formatUsd(item.value)}${item.salesGated ? ' · also sales call' : ''}`
  const svg = [
    lines(label, top),
    `<rect x="0" y="${barY}" width="${w}" height="${BAR_HEIGHT}" fill="#1f5f99" rx="2"/>`,
    `<text x="${w + 6}" y="${barY + 12}" class="v${item.salesGated ? ' m' : ''}">${escapeHtml(value)}</text>`,
  ].join('')
  return { svg, height }
}

/** Text lines whose first baseline sits one line below `top`. */
function lines(text: readonly string[], top: number, cls?: string): string {
  const tspans = text
    .map((line, i) => `<tspan x="0" y="${top + (i + 1) * LINE - 4}">${escapeHtml(line)}</tspan>`)
    .join('')
  return `<text${cls ? ` class="${cls}"` : ''}>${tspans}</text>`
}

function describe(groups: readonly Group[]): string {
  return groups
    .map(
      (g) =>
        `${g.heading}: ${g.items
          .map((i) => `${i.label} ${i.value === null ? i.marker : formatUsd(i.value)}`)
          .join('; ')}.`,
    )
    .join(' ')
}

/** Greedy word wrap by character count; a word longer than a line is cut at the line length. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line)
      line = ''
    }
    let rest = word
    while (rest.length > width) {
      if (line) out.push(line)
      out.push(rest.slice(0, width))
      rest = rest.slice(width)
      line = ''
    }
    line = line ? `${line} ${rest}` : rest
  }
  if (line || out.length === 0) out.push(line)
  return out
}

function round(n: number): number {
  return Math.round(n * 10) / 10
}

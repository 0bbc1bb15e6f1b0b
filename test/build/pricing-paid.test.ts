/**
 * What the paid pricing JSON adds over the free page (exact per-unit equivalents, each row's price
 * history, the page's stated date as a date) and freshness: rows read longer ago than the re-read
 * period are counted and marked due, on the build's as-of date. Expected values are derived from
 * the content, the corrections log and REREAD_PERIOD_DAYS, never typed.
 */
import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { escapeHtml } from '../../build/pages/html.js'
import { pageStatesOn } from '../../build/pricing/page-date.js'
import { daysBetween, freshness, rereadDue } from '../../build/pricing/pricing-freshness.js'
import { comparableUnit, exactEquivalents } from '../../build/pricing/unit-conversion.js'
import { loadPricingRows } from '../../build/reread/reread-rows.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { BundleManifest, ChangesBundle, PricingBundle } from '../../schema/datasets.js'
import { PAID_ADDS, REREAD_PERIOD_DAYS } from '../../schema/pricing-index.js'
import { tempDir } from '../support/content-copy.js'

/** A date `days` after a YYYY-MM-DD date. */
function plusDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

async function built(asOf: string) {
  const { files } = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS, asOf })
  const manifest = JSON.parse(files.get('private/manifest.json') as string) as BundleManifest
  return {
    pricing: JSON.parse(files.get(manifest.bundles.pricing.file) as string) as PricingBundle,
    changes: JSON.parse(files.get(manifest.bundles.changes.file) as string) as ChangesBundle,
    html: files.get('public/pricing/index.html') as string,
  }
}

describe('exact unit conversions', () => {
  it('behavior: per minute and per hour convert both ways; a pack of N converts to one', () => {
    expect(exactEquivalents(0.05, 'minute (agent calling)')).toEqual([
      { unit_price_usd: 0.05 * 60, usage_unit: 'hour (agent calling)', conversion: '1 hour = 60 minutes' },
    ])
    expect(exactEquivalents(0.81, 'hour (GPU time)')).toEqual([
      { unit_price_usd: 0.0135, usage_unit: 'minute (GPU time)', conversion: '1 hour = 60 minutes' },
    ])
    expect(exactEquivalents(49, 'pack of 100 sessions (new SKU)')).toEqual([
      {
        unit_price_usd: 0.49,
        usage_unit: 'session (new SKU)',
        conversion: '1 pack of 100 sessions = 100 sessions',
      },
    ])
    expect(exactEquivalents(80, 'top-up of 1,000 Actions')[0]).toMatchObject({
      unit_price_usd: 0.08,
      usage_unit: 'Action',
    })
    expect(comparableUnit(0.81, 'hour (GPU time)')).toEqual({ unit: 'minute', price: 0.0135 })
    expect(comparableUnit(0.05, 'minute')).toEqual({ unit: 'minute', price: 0.05 })
  })

  it('error: a conversion that is not exact to the micro-dollar, or a unit with none, is not published', () => {
    // $0.10 an hour is 0.00166… a minute: no exact figure, so no equivalent.
    expect(exactEquivalents(0.1, 'hour')).toEqual([])
    expect(comparableUnit(0.1, 'hour')).toEqual({ unit: 'hour', price: 0.1 })
    expect(exactEquivalents(0.99, 'resolution')).toEqual([])
    expect(exactEquivalents(1, '1M input tokens')).toEqual([])
  })
})

describe('the page states a date', () => {
  it('behavior: dates as vendors write them become ISO dates; a month alone stays a month', () => {
    expect(pageStatesOn('Jun 16, 2025')).toBe('2025-06-16')
    expect(pageStatesOn('Effective December 5th, 2025')).toBe('2025-12-05')
    expect(pageStatesOn('Last Updated: April 2, 2025')).toBe('2025-04-02')
    expect(pageStatesOn('starting November 13th, 2025')).toBe('2025-11-13')
    expect(pageStatesOn('March 2026')).toBe('2026-03')
  })

  it('error: text with no month and year, or an impossible day, gives null', () => {
    expect(pageStatesOn(null)).toBeNull()
    expect(pageStatesOn('Updated today')).toBeNull()
    expect(pageStatesOn('February 30, 2026')).toBeNull()
  })
})

describe('freshness', () => {
  it('behavior: a row is due only once read_on is more than the re-read period before as_of', () => {
    const readOn = '2026-10-01'
    expect(rereadDue(readOn, plusDays(readOn, REREAD_PERIOD_DAYS))).toBe(false)
    expect(rereadDue(readOn, plusDays(readOn, REREAD_PERIOD_DAYS + 1))).toBe(true)
    const f = freshness(
      [
        { id: 'b', read_on: readOn },
        { id: 'a', read_on: plusDays(readOn, -5) },
        { id: 'c', read_on: plusDays(readOn, 10) },
      ],
      plusDays(readOn, REREAD_PERIOD_DAYS + 1),
    )
    expect(f).toEqual({
      as_of: plusDays(readOn, REREAD_PERIOD_DAYS + 1),
      reread_period_days: REREAD_PERIOD_DAYS,
      due_for_reread: 2,
      due_rows: ['a', 'b'],
    })
  })

  it('behavior: the paid rows, the bundle and the page count and mark the rows due on the build date', async () => {
    const { rows } = await loadPricingRows('content')
    const oldest = rows.map((r) => r.read_on).sort()[0] as string
    const asOf = plusDays(oldest, REREAD_PERIOD_DAYS + 1)
    const expectedDue = rows.filter((r) => daysBetween(r.read_on, asOf) > REREAD_PERIOD_DAYS)
    expect(expectedDue.length).toBeGreaterThan(0)
    const { pricing, html } = await built(asOf)
    expect(pricing.freshness).toMatchObject({
      as_of: asOf,
      reread_period_days: REREAD_PERIOD_DAYS,
      due_for_reread: expectedDue.length,
    })
    expect([...pricing.freshness.due_rows].sort()).toEqual(expectedDue.map((r) => r.id).sort())
    for (const r of pricing.rows) {
      expect(r.days_since_read, r.id).toBe(daysBetween(r.read_on, asOf))
      expect(r.reread_due, r.id).toBe(expectedDue.some((d) => d.id === r.id))
    }
    const facts = html.match(
      /<li id="freshness"><strong>(\d+)<\/strong> due for re-read: read more than (\d+) days before/,
    )
    expect(facts?.slice(1).map(Number)).toEqual([expectedDue.length, REREAD_PERIOD_DAYS])
    expect(html).toContain(`datetime="${asOf}"`)
    expect(html.match(/class="marker due"/g)?.length ?? 0).toBe(expectedDue.length)
    // The same content read on a day within the period has nothing due.
    const fresh = await built(
      rows
        .map((r) => r.read_on)
        .sort()
        .at(-1) as string,
    )
    expect(fresh.pricing.freshness.due_for_reread).toBe(
      rows.filter((r) => rereadDue(r.read_on, fresh.pricing.freshness.as_of)).length,
    )
    expect(fresh.html.match(/class="marker due"/g)?.length ?? 0).toBe(fresh.pricing.freshness.due_for_reread)
  })
})

describe('what the paid JSON adds over the free page', () => {
  it('behavior: each row carries its exact equivalents, its own corrections and its stated date as a date', async () => {
    const { rows } = await loadPricingRows('content')
    const { pricing, changes, html } = await built(
      rows
        .map((r) => r.read_on)
        .sort()
        .at(-1) as string,
    )
    let converted = 0
    let dated = 0
    for (const r of pricing.rows) {
      const expected =
        r.unit_price_usd !== null && r.usage_unit !== null
          ? exactEquivalents(r.unit_price_usd, r.usage_unit)
          : []
      expect(r.per_unit, r.id).toEqual(expected)
      converted += r.per_unit.length
      expect(r.price_history, r.id).toEqual(changes.corrections.filter((c) => c.product === r.id))
      expect(r.page_states_on, r.id).toBe(pageStatesOn(r.page_states_date))
      if (r.page_states_on) dated++
    }
    // The content has convertible units and stated dates, so the paid fields are not all empty.
    expect(converted).toBeGreaterThan(0)
    expect(dated).toBeGreaterThan(0)
    expect(pricing.rows.some((r) => r.price_history.length > 1)).toBe(true)
    // Category medians on converted units: every unit price lands in exactly one converted bucket.
    for (const c of pricing.comparables) {
      const inCategory = pricing.rows.filter((r) => r.category === c.category && r.unit_price_usd !== null)
      const n = Object.values(c.unit_price_usd_by_converted_unit).reduce((sum, s) => sum + s.n, 0)
      expect(n, c.category).toBe(inCategory.length)
    }
    // The page says what the JSON adds, and does not print the paid-only figures.
    expect(html).toContain(escapeHtml(PAID_ADDS))
    for (const r of pricing.rows)
      for (const e of r.per_unit) expect(html, r.id).not.toContain(`per ${e.usage_unit}`)
  })
})

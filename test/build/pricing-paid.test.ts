/**
 * What the paid pricing JSON adds over the free page (exact per-unit equivalents, each row's price
 * history, the page's stated date as a date, the price's as-of date) and freshness: rows whose price
 * is as of longer ago than the re-read period (or, with no known date, read longer ago) are counted
 * and marked due on the build's date. Expected values are derived from the content, the corrections log and REREAD_PERIOD_DAYS, never typed.
 */
import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { escapeHtml } from '../../build/pages/html.js'
import { pageStatesOn } from '../../build/pricing/page-date.js'
import { priceAsOf } from '../../build/pricing/price-as-of.js'
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

/** A dated sample for the freshness functions: read on `read_on`, with an optional page date or capture date. */
function dated(
  id: string,
  read_on: string,
  page_states_date: string | null = null,
  copy_captured_on: string | null = null,
) {
  return { id, read_on, page_states_date, copy_captured_on }
}

/** The as-of date a row should show, worked out here from the row's own fields (FORMAT.md, "As-of date"). */
function expectedAsOf(r: { page_states_date: string | null; copy_captured_on: string | null }): string {
  return pageStatesOn(r.page_states_date) ?? r.copy_captured_on ?? 'unknown'
}

/** The day a row's age counts from: its as-of date (a month from its first day), else read_on. */
function countsFrom(r: {
  read_on: string
  page_states_date: string | null
  copy_captured_on: string | null
}) {
  const asOf = expectedAsOf(r)
  return asOf === 'unknown' ? r.read_on : asOf.length === 7 ? `${asOf}-01` : asOf
}

describe('freshness', () => {
  it('behavior: with no date on the page or the copy, a row is due only once read_on is more than the period old', () => {
    const readOn = '2026-10-01'
    expect(rereadDue(dated('x', readOn), plusDays(readOn, REREAD_PERIOD_DAYS))).toBe(false)
    expect(rereadDue(dated('x', readOn), plusDays(readOn, REREAD_PERIOD_DAYS + 1))).toBe(true)
    const f = freshness(
      [dated('b', readOn), dated('a', plusDays(readOn, -5)), dated('c', plusDays(readOn, 10))],
      plusDays(readOn, REREAD_PERIOD_DAYS + 1),
    )
    expect(f).toEqual({
      as_of: plusDays(readOn, REREAD_PERIOD_DAYS + 1),
      reread_period_days: REREAD_PERIOD_DAYS,
      due_for_reread: 2,
      due_rows: ['a', 'b'],
      // None of the three states a date: all undated, none counted as current.
      dated: 0,
      undated: 3,
      oldest_dated: null,
    })
  })

  it("behavior: a date the page states, or the copy's capture date, ages the row, not the day we read it", () => {
    const today = '2026-11-25'
    // Read today, but the page says its prices took effect a year ago: due.
    const stated = dated('stated', today, 'Effective December 5th, 2025')
    expect(priceAsOf(stated)).toEqual({ as_of: '2025-12-05', as_of_source: 'page-states-date' })
    expect(rereadDue(stated, today)).toBe(true)
    // No page date, but the store gives the copy's capture date: that is the as-of date.
    const captured = dated('captured', today, null, plusDays(today, -(REREAD_PERIOD_DAYS + 1)))
    expect(priceAsOf(captured)).toEqual({
      as_of: captured.copy_captured_on,
      as_of_source: 'copy-captured-on',
    })
    expect(rereadDue(captured, today)).toBe(true)
    expect(rereadDue({ ...captured, copy_captured_on: plusDays(today, -3) }, today)).toBe(false)
    // The page's own date wins over the capture date; a month alone counts from its first day.
    expect(priceAsOf(dated('both', today, 'March 2026', '2026-11-01'))).toEqual({
      as_of: '2026-03',
      as_of_source: 'page-states-date',
    })
    // Neither: unknown, never read_on.
    expect(priceAsOf(dated('none', today))).toEqual({ as_of: 'unknown', as_of_source: 'unknown' })
    const f = freshness([captured, stated, dated('none', today)], today)
    expect(f.due_rows).toEqual(['stated', 'captured'])
  })

  it('behavior: the paid rows, the bundle and the page show the as-of date and count the rows due on the build date', async () => {
    const { rows } = await loadPricingRows('content')
    const latestRead = rows
      .map((r) => r.read_on)
      .sort()
      .at(-1) as string
    const asOf = plusDays(latestRead, REREAD_PERIOD_DAYS + 1)
    const expectedDue = rows.filter((r) => daysBetween(countsFrom(r), asOf) > REREAD_PERIOD_DAYS)
    expect(expectedDue.length).toBeGreaterThan(0)
    const { pricing, html } = await built(asOf)
    expect(pricing.freshness).toMatchObject({
      as_of: asOf,
      reread_period_days: REREAD_PERIOD_DAYS,
      due_for_reread: expectedDue.length,
    })
    expect([...pricing.freshness.due_rows].sort()).toEqual(expectedDue.map((r) => r.id).sort())
    for (const r of pricing.rows) {
      expect(r.as_of, r.id).toBe(expectedAsOf(r))
      expect(r.days_since_read, r.id).toBe(daysBetween(r.read_on, asOf))
      expect(r.reread_due, r.id).toBe(expectedDue.some((d) => d.id === r.id))
      // The page shows the as-of date beside the read date, in the row's own source cell.
      const cell = html.slice(html.indexOf(`id="row-${r.id}"`)).split('</tr>')[0] as string
      expect(cell, r.id).toContain(
        r.as_of === 'unknown' ? 'Price as of: unknown' : `Price as of <time datetime="${r.as_of}">`,
      )
      expect(cell, r.id).toContain(`Read <time datetime="${r.read_on}">`)
    }
    const facts = html.match(
      /<li id="freshness"><strong>(\d+)<\/strong> due for re-read: price as of more than (\d+) days before/,
    )
    expect(facts?.slice(1).map(Number)).toEqual([expectedDue.length, REREAD_PERIOD_DAYS])
    const unknown = html.match(/<li id="as-of-unknown"><strong>(\d+)<\/strong>/)
    expect(Number(unknown?.[1])).toBe(rows.filter((r) => expectedAsOf(r) === 'unknown').length)
    expect(html).toContain(`datetime="${asOf}"`)
    expect(html.match(/class="marker due"/g)?.length ?? 0).toBe(expectedDue.length)
    // Built on the newest read date: a row with an old page date is still due, a row with none is not.
    const fresh = await built(latestRead)
    const dueFresh = rows.filter((r) => daysBetween(countsFrom(r), latestRead) > REREAD_PERIOD_DAYS)
    expect(fresh.pricing.freshness.due_for_reread).toBe(dueFresh.length)
    expect(dueFresh.every((r) => expectedAsOf(r) !== 'unknown')).toBe(true)
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
    // Category medians on converted units: every unit price lands in exactly one converted bucket,
    // except a per-minute price that says what its minute includes: that one is in exactly one
    // bundle, or listed as left out.
    for (const c of pricing.comparables) {
      const inCategory = pricing.rows.filter((r) => r.category === c.category && r.unit_price_usd !== null)
      const n = c.unit_price_converted_groups.reduce((sum, g) => sum + g.products.length, 0)
      const bundled = c.per_minute_by_bundle.reduce((sum, b) => sum + b.products.length, 0)
      expect(n + bundled + c.per_minute_left_out.length, c.category).toBe(inCategory.length)
    }
    // The page says what the JSON adds, and does not print the paid-only figures.
    expect(html).toContain(escapeHtml(PAID_ADDS))
    for (const r of pricing.rows)
      for (const e of r.per_unit) expect(html, r.id).not.toContain(`per ${e.usage_unit}`)
  })
})

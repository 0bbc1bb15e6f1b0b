/**
 * A price never reads fresher than its page (content/FORMAT.md, "As-of date"): a row whose page
 * states no date and whose stored copy's capture date is unknown shows its as-of date as unknown in
 * the JSON, on the human page and in what /v1/pricing and the MCP tool serve (one prepared answer),
 * never as current; the page and /v1/pricing say how many rows are dated and how old the oldest
 * dated price is. Expected values are worked out from the rows, never typed.
 */
import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { PREPARE } from '../../gateway/datasets/answers.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { BundleData, BundleManifest, PricingBundle } from '../../schema/datasets.js'
import { asOfDay, datedSummary, daysBetween } from '../../schema/price-dates.js'
import { tempDir } from '../support/content-copy.js'

const BUILD_DATE = '2026-12-15'

async function built() {
  const { files } = await build({
    contentDir: 'content',
    outDir: await tempDir(),
    urls: LOCAL_URLS,
    asOf: BUILD_DATE,
  })
  const manifest = JSON.parse(files.get('private/manifest.json') as string) as BundleManifest
  return {
    pricing: JSON.parse(files.get(manifest.bundles.pricing.file) as string) as PricingBundle,
    html: files.get('public/pricing/index.html') as string,
  }
}

/** What /v1/pricing (and the pricing_index MCP tool, which serves the same prepared answer) returns. */
function served(pricing: PricingBundle, category?: string): PricingBundle['freshness'] & object {
  const prepared = PREPARE.pricing?.({ pricing } as BundleData, category ? { category } : {}, 0)
  if (!prepared?.ok) throw new Error('the pricing answer was refused')
  return (prepared.payload() as { freshness: PricingBundle['freshness'] }).freshness
}

describe('dated and undated prices', () => {
  it('behavior: the oldest dated price and its age; a month counts from its first day; unknown is undated', () => {
    expect(
      datedSummary(
        [
          { id: 'a', as_of: 'unknown' },
          { id: 'b', as_of: '2026-03' },
          { id: 'c', as_of: '2026-02-10' },
        ],
        '2026-03-12',
      ),
    ).toEqual({ dated: 2, undated: 1, oldest_dated: { product: 'c', as_of: '2026-02-10', age_days: 30 } })
    expect(datedSummary([{ id: 'a', as_of: 'unknown' }], '2026-03-12')).toEqual({
      dated: 0,
      undated: 1,
      oldest_dated: null,
    })
  })

  it('behavior: the bundle, the page and /v1/pricing (whole and per category) say how many rows are dated and how old the oldest is', async () => {
    const { pricing, html } = await built()
    const dated = pricing.rows.filter((r) => r.as_of !== 'unknown')
    expect(dated.length).toBeGreaterThan(0)
    const oldest = [...dated].sort((a, b) =>
      (asOfDay(a.as_of) as string).localeCompare(asOfDay(b.as_of) as string),
    )[0] as (typeof dated)[number]
    const expected = {
      dated: dated.length,
      undated: pricing.rows.length - dated.length,
      oldest_dated: {
        product: oldest.id,
        as_of: oldest.as_of,
        age_days: daysBetween(asOfDay(oldest.as_of) as string, BUILD_DATE),
      },
    }
    expect(pricing.freshness).toMatchObject(expected)
    expect(served(pricing)).toMatchObject(expected)
    expect(html).toContain(
      `<li id="dated"><strong>${expected.dated}</strong> of ${pricing.rows.length} dated; the oldest dated price (${oldest.id}) is as of <time datetime="${oldest.as_of}">${oldest.as_of}</time>, <strong>${expected.oldest_dated.age_days}</strong> days before this page was built</li>`,
    )
    expect(html).toContain(`<li id="as-of-unknown"><strong>${expected.undated}</strong>`)
    // One category: its own rows only.
    for (const category of new Set(pricing.rows.map((r) => r.category))) {
      const inCategory = pricing.rows.filter((r) => r.category === category)
      const f = served(pricing, category)
      expect(f.dated + f.undated, category).toBe(inCategory.length)
      expect(f.dated, category).toBe(inCategory.filter((r) => r.as_of !== 'unknown').length)
    }
  })

  it('error: a row with no page date and no capture date is unknown everywhere, never current', async () => {
    const { pricing, html } = await built()
    const unknown = pricing.rows.filter((r) => r.page_states_date === null && r.copy_captured_on === null)
    expect(unknown.length).toBeGreaterThan(0)
    const payloadRows = (
      (PREPARE.pricing as NonNullable<typeof PREPARE.pricing>)({ pricing } as BundleData, {}, 0) as {
        ok: true
        payload: () => PricingBundle
      }
    ).payload().rows
    for (const r of unknown) {
      expect(r.as_of, r.id).toBe('unknown')
      expect(r.as_of_source, r.id).toBe('unknown')
      expect(r.price_age_days, r.id).toBeNull()
      expect(payloadRows.find((x) => x.id === r.id)?.as_of, r.id).toBe('unknown')
      const cell = html.slice(html.indexOf(`id="row-${r.id}"`)).split('</tr>')[0] as string
      expect(cell, r.id).toContain('Price as of: unknown')
      expect(cell, r.id).toContain('price date unknown: not known to be current')
      expect(cell, r.id).not.toMatch(/Price as of <time/)
    }
    // A dated row carries its age, counted from its as-of date, never from the day it was read.
    for (const r of pricing.rows.filter((x) => x.as_of !== 'unknown'))
      expect(r.price_age_days, r.id).toBe(daysBetween(asOfDay(r.as_of) as string, BUILD_DATE))
  })
})

import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { BundleManifest, PricingBundle } from '../../schema/datasets.js'
import { COVERAGE_GOAL, methodStatement } from '../../schema/pricing-index.js'
import { INDEX_CATEGORIES } from '../../schema/vocabulary.js'
import { buildWithRow, type Row, tempDir } from '../support/content-copy.js'

const isUnitPriced = (r: Row) => r.unit_price_usd !== null && r.pricing_model !== 'per-seat'

describe('pricing footing', () => {
  it('error: a price picked from a range in the quote is refused', async () => {
    const { file, message } = await buildWithRow(isUnitPriced, (r) => {
      r.quote = 'Rates typically fall between $0.15–0.24 per minute.'
      r.unit_price_usd = 0.15
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/unit_price_usd: price 0.15 is one end of a range/)
  })

  it('error: a plan price in the unit field is refused', async () => {
    const { file, message } = await buildWithRow(isUnitPriced, (r) => {
      r.usage_unit = 'Growth plan'
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/usage_unit: "Growth plan" is a plan or a period/)
  })

  it('error: a per-seat price outside the per-seat field is refused', async () => {
    const { file, message } = await buildWithRow(
      (r) => r.pricing_model === 'per-seat' && r.entry_usd_month !== null,
      (r) => {
        r.unit_price_usd = r.entry_usd_month
        r.usage_unit = 'user'
        r.unit_basis = 'base'
        r.entry_usd_month = null
        r.entry_basis = null
      },
    )
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/unit_price_usd: a per-seat price is in unit_price_usd/)
  })

  it('error: a model-API row in another unit than the one rule is refused', async () => {
    const { file, message } = await buildWithRow(
      (r) => r.category === 'model-api' && r.pricing_model === 'per-token',
      (r) => {
        r.usage_unit = '1M output tokens'
      },
    )
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/usage_unit: a per-token model-API row publishes "1M output tokens"/)
  })

  it('error: a sales-gated row must name its gated tier', async () => {
    const { file, message } = await buildWithRow(
      (r) => r.sales_gated === true,
      (r) => {
        r.gated_tier = null
      },
    )
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/gated_tier/)
  })

  it('behavior: the counts are derived from the rows and their three parts add up', async () => {
    const result = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
    const manifest = JSON.parse(result.files.get('private/manifest.json') as string) as BundleManifest
    const pricing = JSON.parse(result.files.get(manifest.bundles.pricing.file) as string) as PricingBundle
    const priced = pricing.rows.filter((r) => r.entry_usd_month !== null || r.unit_price_usd !== null)
    const notRead = pricing.rows.filter((r) => r.null_reason === 'pricing-page-not-read')
    expect(pricing.counts).toEqual({
      rows: pricing.rows.length,
      publish_a_price: priced.length,
      sales_gated: pricing.rows.filter((r) => r.sales_gated).length,
      no_published_price: pricing.rows.length - priced.length - notRead.length,
      price_not_read: notRead.length,
    })
    const { publish_a_price, no_published_price, price_not_read } = pricing.counts
    expect(publish_a_price + no_published_price + price_not_read).toBe(pricing.rows.length)
    // Every row records why its page is the newest version, and every gated row names its tier.
    for (const r of pricing.rows) {
      expect(r.newest_because.length, r.id).toBeGreaterThan(0)
      expect(r.sales_gated, r.id).toBe(r.gated_tier !== null)
    }
  })

  it('behavior: the method text states the coverage shortfall, in total and per category, from the rows', async () => {
    const result = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
    const manifest = JSON.parse(result.files.get('private/manifest.json') as string) as BundleManifest
    const pricing = JSON.parse(result.files.get(manifest.bundles.pricing.file) as string) as PricingBundle
    const text = methodStatement(pricing.counts, pricing.comparables)
    const thin = INDEX_CATEGORIES.filter(
      (c) => pricing.rows.filter((r) => r.category === c).length < COVERAGE_GOAL.per_category,
    )
    if (pricing.rows.length < COVERAGE_GOAL.products)
      expect(text).toContain(
        `holds ${pricing.rows.length} products, fewer than the ${COVERAGE_GOAL.products}`,
      )
    for (const c of thin)
      expect(text).toContain(`${c} ${pricing.rows.filter((r) => r.category === c).length}`)
    if (thin.length) expect(text).toContain(`${thin.length} of the ${INDEX_CATEGORIES.length} categories`)
    expect(result.files.get('public/pricing/index.html')).toContain(text.slice(-60))
  })
})

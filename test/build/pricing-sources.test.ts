import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { sourceBreaks } from '../../build/pricing/pricing-sources.js'
import { LOCAL_URLS } from '../../schema/config.js'
import { PricingRow } from '../../schema/content.js'
import type { BundleManifest, PricingBundle } from '../../schema/datasets.js'
import { methodStatement } from '../../schema/pricing-index.js'
import { buildWithRow, type Row, tempDir } from '../support/content-copy.js'

/** A sample row whose price is null, built here (never read from content/). */
function nullRow(overrides: Row): PricingRow {
  return PricingRow.parse({
    id: 'sample-agent',
    product: 'Sample Agent',
    vendor: 'Vendor Example',
    category: 'support-agent',
    pricing_model: null,
    entry_usd_month: null,
    unit_price_usd: null,
    usage_unit: null,
    null_reason: 'not-published',
    sales_gated: false,
    quote: 'Plans for every team.',
    source_url: 'https://vendor.example/pricing',
    pricing_page_url: 'https://vendor.example/pricing',
    read_on: '2026-11-24',
    read_from: 'vendor-page',
    newest_because: 'The only version of the sample page.',
    ...overrides,
  })
}

const notRead = (r: Row) => r.null_reason === 'pricing-page-not-read'
const priced = (r: Row) => r.entry_usd_month !== null || r.unit_price_usd !== null

describe('two nulls: the build refuses an absence or a gate not read on the pricing page', () => {
  it('error: not-published without pricing_page_url', async () => {
    const { file, message } = await buildWithRow(notRead, (r) => {
      r.null_reason = 'not-published'
      r.pricing_page_url = null
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/pricing_page_url: null_reason not-published needs pricing_page_url/)
  })

  it('error: not-published read on another page than the pricing page', async () => {
    const { file, message } = await buildWithRow(notRead, (r) => {
      r.null_reason = 'not-published'
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(
      /null_reason: null_reason not-published, but the page read \(source_url\) is not the pricing page/,
    )
  })

  it('error: sales-gated read on another page than the pricing page', async () => {
    const { file, message } = await buildWithRow(notRead, (r) => {
      r.null_reason = 'sales-gated'
      r.sales_gated = true
      r.gated_tier = 'Enterprise'
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(
      /null_reason: null_reason sales-gated, but the page read \(source_url\) is not the pricing page/,
    )
    expect(message).toMatch(/sales_gated: a sales gate is claimed from a page that is not the pricing page/)
  })

  it('error: not-published whose note says the pricing page was not read', async () => {
    const { file, message } = await buildWithRow(notRead, (r) => {
      r.null_reason = 'not-published'
      r.pricing_page_url = r.source_url
      r.note = "The plan prices are on the vendor's pricing page, which was not stored."
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(
      /note: null_reason not-published, but the note says the pricing page was not the page read \("was not stored"\)/,
    )
  })

  it('error: a sales gate on a priced row without the pricing page as its source', async () => {
    const { file, message } = await buildWithRow(
      (r) => priced(r) && r.sales_gated === true,
      (r) => {
        r.pricing_page_url = null
      },
    )
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/sales_gated: a sales gate is claimed without pricing_page_url/)
  })

  it('error: a sales gate on a row whose pricing page was not read', async () => {
    const { file, message } = await buildWithRow(notRead, (r) => {
      r.sales_gated = true
      r.gated_tier = 'Enterprise'
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/sales_gated: a sales gate is claimed from a page that is not the pricing page/)
  })

  it('error: pricing-page-not-read without the page still to read, or naming the page read', async () => {
    const missing = await buildWithRow(notRead, (r) => {
      r.pricing_page_url = null
    })
    expect(missing.message).toMatch(/pricing_page_url: pricing-page-not-read needs pricing_page_url/)
    const same = await buildWithRow(notRead, (r) => {
      r.pricing_page_url = r.source_url
    })
    expect(same.message).toMatch(
      /pricing_page_url: pricing-page-not-read, but pricing_page_url is the page read/,
    )
  })

  it('behavior: each wording that shows the pricing page was not the page read is caught', () => {
    for (const note of [
      'That page was not stored.',
      'Read from the vendor FAQ, not a pricing page.',
      'The article now points to plan pages for prices and states none itself.',
      'The docs send readers to the pricing page for the comparison.',
      'Read from a docs page, not the plan list.',
    ])
      expect(
        sourceBreaks(nullRow({ note })).map((b) => b.field),
        note,
      ).toEqual(['note'])
    expect(sourceBreaks(nullRow({ note: 'The page lists plans and no price.' }))).toEqual([])
    expect(
      sourceBreaks(
        nullRow({ null_reason: 'pricing-page-not-read', pricing_page_url: 'https://vendor.example/plans' }),
      ),
    ).toEqual([])
  })
})

describe('the counts on every surface', () => {
  it('behavior: the bundle, the descriptor method, the page and the comparables agree, in three parts', async () => {
    const result = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
    const manifest = JSON.parse(result.files.get('private/manifest.json') as string) as BundleManifest
    const pricing = JSON.parse(result.files.get(manifest.bundles.pricing.file) as string) as PricingBundle
    const c = pricing.counts
    expect(c.publish_a_price + c.no_published_price + c.price_not_read).toBe(c.rows)
    const method = methodStatement(c, pricing.comparables)
    expect(method).toContain(
      `${c.publish_a_price} publish a price, ${c.no_published_price} publish no price on the pricing page we read, and for ${c.price_not_read} the pricing page has not been read yet`,
    )
    expect(method).not.toMatch(/absence is itself the finding/)
    const page = result.files.get('public/pricing/index.html') as string
    expect(page).toContain(`<li><strong>${c.publish_a_price}</strong> publish a price</li>`)
    expect(page).toContain(
      `<li><strong>${c.no_published_price}</strong> publish no price on the pricing page we read</li>`,
    )
    expect(page).toContain(`<li><strong>${c.price_not_read}</strong> price not read yet`)
    expect(page).not.toMatch(/absence is itself the finding/)
    const sum = (k: 'publish_a_price' | 'no_price' | 'price_not_read' | 'sales_gated') =>
      pricing.comparables.reduce((n, x) => n + x[k], 0)
    expect([sum('publish_a_price'), sum('no_price'), sum('price_not_read'), sum('sales_gated')]).toEqual([
      c.publish_a_price,
      c.no_published_price,
      c.price_not_read,
      c.sales_gated,
    ])
    // A row whose pricing page was not read is shown as such, with the page still to read.
    for (const r of pricing.rows.filter((x) => x.null_reason === 'pricing-page-not-read')) {
      const line = page.slice(
        page.indexOf(`id="row-${r.id}"`),
        page.indexOf('</tr>', page.indexOf(`id="row-${r.id}"`)),
      )
      expect(line, r.id).toContain('price not read yet')
      expect(line, r.id).not.toContain('>not published<')
      expect(line, r.id).toContain((r.pricing_page_url as string).replace(/^https?:\/\//, ''))
    }
  })

  it('behavior: no row says not-published or claims a gate unless its source is its pricing page', async () => {
    const result = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
    const manifest = JSON.parse(result.files.get('private/manifest.json') as string) as BundleManifest
    const pricing = JSON.parse(result.files.get(manifest.bundles.pricing.file) as string) as PricingBundle
    for (const r of pricing.rows)
      if (r.null_reason === 'not-published' || r.null_reason === 'sales-gated' || r.sales_gated)
        expect(r.pricing_page_url, r.id).toBe(r.source_url)
  })
})

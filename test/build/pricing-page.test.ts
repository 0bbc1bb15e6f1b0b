/**
 * The human pricing page in a real browser: the real content is built, the page is served from
 * localhost and loaded in Debian's Chromium, and what a reader sees is checked against the build's
 * own data (never against typed counts). Ends with full-page screenshots in test-results/.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { chartGroups } from '../../build/pages/pricing-chart.js'
import { pricingPage } from '../../build/pages/pricing-page.js'
import { bundleLabel } from '../../build/pricing/minute-bundles.js'
import { UNIT_BASIS_TEXT } from '../../build/pricing/price-basis.js'
import { baseUnit } from '../../build/pricing/price-format.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { BundleManifest, ChangesBundle, PricingBundle } from '../../schema/datasets.js'
import { DATASET_NAME } from '../../schema/pricing-index.js'
import { DISCLOSURE_RULE } from '../../schema/submission.js'
import { launchChromium } from '../support/chromium.js'

const SCREENSHOTS = 'test-results'

let outDir = ''
let server: Server | undefined
let browser: Browser | undefined
let pageUrl = ''
let pricing: PricingBundle
let changes: ChangesBundle

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'pricing-page-'))
  const { files } = await build({ contentDir: 'content', outDir, urls: LOCAL_URLS })
  const manifest = JSON.parse(files.get('private/manifest.json') as string) as BundleManifest
  pricing = JSON.parse(files.get(manifest.bundles.pricing.file) as string) as PricingBundle
  changes = JSON.parse(files.get(manifest.bundles.changes.file) as string) as ChangesBundle
  const html = files.get('public/pricing/index.html') as string
  server = createServer((req, res) => {
    if (req.url === '/pricing/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(html)
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found')
    }
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pricing/`
})

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

async function openPage(viewport: { width: number; height: number }) {
  browser ??= await launchChromium()
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  const consoleErrors: string[] = []
  const requests: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text())
  })
  page.on('pageerror', (e) => consoleErrors.push(e.message))
  page.on('request', (r) => requests.push(r.url()))
  const response = await page.goto(pageUrl, { waitUntil: 'load' })
  expect(response?.status()).toBe(200)
  return { context, page, consoleErrors, requests }
}

const isLocal = (url: string) => {
  const u = new URL(url)
  if (u.protocol === 'data:') return true
  return u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]'
}

describe('pricing page in Chromium', () => {
  it('shows every row, quote, chart and correction, with no error and no outside request', async () => {
    const { context, page, consoleErrors, requests } = await openPage({ width: 1280, height: 900 })

    expect(await page.title()).toContain(DATASET_NAME.replace(/^./, (c) => c.toUpperCase()))
    expect(await page.locator('h1').textContent()).toMatch(/pricing index/i)

    // One chart per category that has rows, inside that category's section, and none elsewhere.
    const withRows = [...new Set(pricing.rows.map((r) => r.category))]
    expect(withRows.length).toBeGreaterThan(0)
    for (const category of withRows)
      expect(await page.locator(`section#${category} svg.chart`).count()).toBe(1)
    expect(await page.locator('svg.chart').count()).toBe(withRows.length)
    for (const category of withRows)
      expect(await page.locator(`section#${category} svg.chart title`).textContent()).toBeTruthy()

    // The tables hold exactly the bundle's rows, one table row per pricing row.
    const rowIds = await page.locator('table.rows tbody tr').evaluateAll((trs) => trs.map((tr) => tr.id))
    expect(rowIds.length).toBe(pricing.rows.length)
    expect(rowIds.sort()).toEqual(pricing.rows.map((r) => `row-${r.id}`).sort())

    // Every quote appears verbatim, in a blockquote.
    const quotes = await page
      .locator('table.rows blockquote')
      .evaluateAll((bs) => bs.map((b) => b.textContent))
    for (const row of pricing.rows) expect(quotes, `quote of ${row.id}`).toContain(row.quote)

    // Each correction is listed with its date, product, field and reason.
    const corrections = await page
      .locator('table.corrections tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''))
    expect(corrections.length).toBe(changes.corrections.length)
    for (const c of changes.corrections)
      expect(
        corrections.some(
          (text) =>
            text.includes(c.date) &&
            text.includes(c.product) &&
            text.includes(c.field) &&
            text.includes(c.why),
        ),
        `correction ${c.date} ${c.product} ${c.field}`,
      ).toBe(true)
    if (pricing.latest_correction)
      expect(await page.locator('#corrections').textContent()).toContain(pricing.latest_correction)

    // The crowd section points to the live aggregates instead of embedding numbers.
    expect(await page.locator('#crowd a[href="/v1/pricing/aggregates"]').count()).toBe(1)
    // A submitter reads the same disclosure rule the aggregates are served with.
    expect(await page.locator('#crowd #disclosure-rule').textContent()).toBe(DISCLOSURE_RULE)
    expect(await page.locator('script').count()).toBe(0)

    expect(consoleErrors).toEqual([])
    expect(requests.filter((u) => !isLocal(u))).toEqual([])

    await mkdir(SCREENSHOTS, { recursive: true })
    await page.screenshot({ path: join(SCREENSHOTS, 'pricing-page.png'), fullPage: true })
    await context.close()
  })

  it('compares like with like: one chart per base unit (per-minute prices per bundle), holding every product priced in it', () => {
    for (const category of new Set(pricing.rows.map((r) => r.category))) {
      const rows = pricing.rows.filter((r) => r.category === category)
      const groups = chartGroups(rows)
      const headings = groups.map((g) => g.heading)
      expect(new Set(headings).size, category).toBe(headings.length)
      for (const r of rows.filter((x) => x.unit_price_usd !== null)) {
        const unit = baseUnit(r.usage_unit ?? '')
        const basis = UNIT_BASIS_TEXT[r.unit_basis ?? 'base']
        const scale = r.minute_includes
          ? `${unit}: ${bundleLabel(r.minute_includes)}; ${basis}`
          : `${unit}, ${basis}`
        const group = groups.find((g) => g.heading === `Unit price, USD per ${scale}`)
        expect(
          group?.items.some((i) => i.label.startsWith(`${r.product} · ${r.vendor}`)),
          r.id,
        ).toBe(true)
      }
    }
    // Qualified units ("resolution (first tier, …)") join the plain ones on one scale of their basis;
    // base rates and overage rates are two scales.
    const support = chartGroups(pricing.rows.filter((r) => r.category === 'support-agent'))
    for (const basis of ['base', 'overage'] as const) {
      const resolutions = support.find(
        (g) => g.heading === `Unit price, USD per resolution, ${UNIT_BASIS_TEXT[basis]}`,
      )
      expect(resolutions?.items.length, basis).toBe(
        pricing.rows.filter(
          (r) =>
            r.category === 'support-agent' &&
            baseUnit(r.usage_unit ?? '') === 'resolution' &&
            r.unit_basis === basis,
        ).length,
      )
      expect(resolutions?.items.length, basis).toBeGreaterThanOrEqual(2)
    }
    // Entry prices per seat and per account are two scales.
    const coding = chartGroups(pricing.rows.filter((r) => r.category === 'coding-agent')).map(
      (g) => g.heading,
    )
    expect(coding).toContain('Entry price, USD per month, per seat, monthly billing')
    expect(coding).toContain('Entry price, USD per month, per account, monthly billing')
  })

  it('escapes content and is the same on every build', () => {
    const hostile = {
      ...(pricing.rows[0] as PricingBundle['rows'][number]),
      id: 'hostile-row',
      product: '<img src=x onerror=alert(1)>',
      quote: '"</blockquote><script>alert(1)</script>',
      source_url: 'https://vendor.example/?a=1&b="2"',
    }
    const html = pricingPage({ ...pricing, rows: [hostile] }, changes, LOCAL_URLS)
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('href="https://vendor.example/?a=1&amp;b=&quot;2&quot;"')
    expect(pricingPage(pricing, changes, LOCAL_URLS)).toBe(pricingPage(pricing, changes, LOCAL_URLS))
  })

  it('fits a phone screen without sideways scrolling', async () => {
    const { context, page, consoleErrors } = await openPage({ width: 390, height: 844 })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(consoleErrors).toEqual([])
    await mkdir(SCREENSHOTS, { recursive: true })
    await page.screenshot({ path: join(SCREENSHOTS, 'pricing-page-phone.png'), fullPage: true })
    await context.close()
  })
})

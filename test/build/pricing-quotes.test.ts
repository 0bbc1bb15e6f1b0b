/**
 * Provenance of prices: every quote a pricing row publishes (its price quote, each model's prices,
 * what its minute or its entry price includes) is found verbatim at its URL in the stored page text
 * kept in test/fixtures/stored-pages/pages.yaml. Each page is served from a local stand-in for its
 * vendor's host and read by the monthly re-read's own fetcher and matcher.
 */
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { escapeHtml } from '../../build/pages/html.js'
import { htmlToText } from '../../build/pricing/html-text.js'
import { findQuote, rereadRow, undiciFetcher } from '../../build/reread/reread.js'
import { loadPricingRows } from '../../build/reread/reread-rows.js'
import type { PricingRow } from '../../schema/content.js'
import { startVendorPages, type VendorPages } from '../support/vendor-pages.js'

interface StoredPage {
  url: string
  stored_at?: string
  found: string
  text: string
}

/** The day stored page text began to be kept: every priced row read since then must have its page here. */
const KEPT_SINCE = '2026-11-25'

let pages: StoredPage[] = []
let rows: PricingRow[] = []
/** One stand-in server per vendor host, so two vendors' /pricing pages never collide. */
const servers = new Map<string, VendorPages>()

beforeAll(async () => {
  pages = parse(await readFile('test/fixtures/stored-pages/pages.yaml', 'utf8')) as StoredPage[]
  rows = (await loadPricingRows('content')).rows
  for (const host of new Set(pages.map((p) => new URL(p.url).host))) {
    const onHost = pages.filter((p) => new URL(p.url).host === host)
    servers.set(
      host,
      await startVendorPages((req, res) => {
        const page = onHost.find((p) => {
          const u = new URL(p.url)
          return `${u.pathname}${u.search}` === req.url
        })
        res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
        res.end(
          page ? `<html><body><main><p>${escapeHtml(page.text)}</p></main></body></html>` : 'not stored',
        )
      }),
    )
  }
})

afterAll(() => Promise.all([...servers.values()].map((s) => s.close())))

const priced = (r: PricingRow) => r.entry_usd_month !== null || r.unit_price_usd !== null
const stored = (url: string) => pages.some((p) => p.url === url)

/** The quotes a row publishes, each with the URL it must be on. */
function quotesOf(row: PricingRow): { url: string; quote: string; what: string }[] {
  const own = (quote: string, what: string) => ({ url: row.source_url, quote, what })
  return [
    own(row.quote, 'quote'),
    ...row.models.map((m) => ({
      url: m.source_url ?? row.source_url,
      quote: m.quote,
      what: `model ${m.model}`,
    })),
    ...(row.minute_includes?.quotes ?? []).map((q) => own(q, 'minute_includes')),
    ...(row.entry_includes?.quotes ?? []).map((q) => own(q, 'entry_includes')),
    ...row.team_tiers.map((t) => own(t.quote, `team tier ${t.name}`)),
    ...row.overage_rates.map((o) => own(o.quote, `overage per ${o.unit}`)),
    ...(row.entry_basis?.users_quote ? [own(row.entry_basis.users_quote, 'entry_basis.users_quote')] : []),
  ]
}

async function pageText(url: string): Promise<string> {
  const server = servers.get(new URL(url).host)
  if (!server) throw new Error(`no stored page for ${url}`)
  const fetcher = undiciFetcher({ origin: server.origin })
  try {
    const page = await fetcher(url)
    expect(page.status, url).toBe(200)
    return htmlToText(page.body)
  } finally {
    await fetcher.close()
  }
}

describe('provenance: each quote is on its page', () => {
  it('behavior: the re-read keeps every row whose page text is stored, its quote found verbatim', async () => {
    const checked = rows.filter((r) => stored(r.source_url))
    expect(checked.length).toBeGreaterThanOrEqual(15)
    for (const row of checked) {
      const server = servers.get(new URL(row.source_url).host) as VendorPages
      const fetcher = undiciFetcher({ origin: server.origin })
      const result = await rereadRow(row, fetcher, { today: KEPT_SINCE })
      await fetcher.close()
      expect({ id: row.id, status: result.status, match: result.match }).toEqual({
        id: row.id,
        status: 'kept',
        match: 'exact',
      })
    }
  })

  it('behavior: model prices and what a price includes are quoted verbatim from their pages too', async () => {
    let found = 0
    for (const row of rows)
      for (const q of quotesOf(row).filter((q) => q.what !== 'quote' && stored(q.url))) {
        expect(findQuote(q.quote, await pageText(q.url)), `${row.id} ${q.what}: ${q.quote}`).toBe('exact')
        found++
      }
    expect(found).toBeGreaterThanOrEqual(10)
  })

  it("behavior: every priced row read since stored text is kept has every quote's page stored", () => {
    const since = rows.filter((r) => priced(r) && r.read_on >= KEPT_SINCE)
    expect(since.map((r) => r.id)).toContain('openai-api')
    const missing = since.flatMap((r) =>
      quotesOf(r)
        .filter((q) => !stored(q.url))
        .map((q) => `${r.id}: ${q.url}`),
    )
    expect(missing).toEqual([])
  })

  it('error: a quote that is not on its stored page is reported changed by the re-read', async () => {
    const row = rows.find((r) => r.id === 'lovable') as PricingRow
    const server = servers.get(new URL(row.source_url).host) as VendorPages
    const fetcher = undiciFetcher({ origin: server.origin })
    const result = await rereadRow({ ...row, quote: '| 100 | $20 | $200 ($17/month) |' }, fetcher, {
      today: KEPT_SINCE,
    })
    await fetcher.close()
    expect(result.status).toBe('changed')
    expect(findQuote('Premium: $25/month.', await pageText('https://v0.app/docs/pricing'))).toBeNull()
  })
})

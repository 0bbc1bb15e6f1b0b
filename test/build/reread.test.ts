/**
 * The monthly re-read against a local fixture server: one page keeps its quote (inside tags and
 * extra white space), one changed it, one is gone; and a closed port is unreachable. Sample rows
 * are built here, never read from content/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  htmlToText,
  type RereadResult,
  renderReport,
  rereadRow,
  rewriteOrigin,
  summaryLines,
  undiciFetcher,
  userAgent,
} from '../../build/reread/reread.js'
import { PricingRow } from '../../schema/content.js'
import { startVendorPages, type VendorPages } from '../support/vendor-pages.js'

const TODAY = '2026-12-01'

function row(id: string, path: string, quote: string, product = 'Sample Agent'): PricingRow {
  return PricingRow.parse({
    id,
    product,
    vendor: 'Vendor Example',
    category: 'support-agent',
    pricing_model: 'per-outcome',
    entry_usd_month: null,
    unit_price_usd: 0.99,
    usage_unit: 'resolution',
    unit_basis: 'base',
    null_reason: null,
    sales_gated: false,
    newest_because: 'The only version of the sample page.',
    quote,
    source_url: `https://vendor.example${path}`,
    read_on: '2026-11-22',
    read_from: 'vendor-page',
  })
}

const kept = row(
  'kept-row',
  '/pricing/kept?plan=pro',
  'Sample Agent is priced at $0.99 per resolution (USD).',
)
const changed = row('changed-row', '/pricing/changed', 'Helper Bot costs $2 per conversation.', 'Helper Bot')
const dropped = row('dropped-row', '/pricing/gone', 'Old Agent costs $5 per task.')

const PAGES: Record<string, string> = {
  // The quote split across inline tags, an entity, line breaks and runs of spaces.
  '/pricing/kept?plan=pro': `<!doctype html><html><head><title>Pricing</title><style>p{color:red}</style></head>
<body><main><p>
  <strong>Sample   Agent</strong> is priced at
  <span class="price">$0.99</span>&nbsp;per
     resolution (USD).</p><script>var x = "not text"</script></main></body></html>`,
  '/pricing/changed': `<html><body><h1>Helper Bot pricing</h1>
<table><tr><td>Helper Bot</td><td>$3.50 per conversation</td></tr></table></body></html>`,
}

let pages: VendorPages
let origin = ''

beforeAll(async () => {
  pages = await startVendorPages((req, res) => {
    if (req.url === '/moved') {
      res.writeHead(302, { location: '/pricing/kept?plan=pro' })
      res.end()
      return
    }
    const page = PAGES[req.url ?? '']
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
    res.end(page ?? '<h1>Not found</h1>')
  })
  origin = pages.origin
})

afterAll(() => pages.close())

describe('re-read', () => {
  it('sorts rows into kept, changed and dropped, and reports each', async () => {
    const fetcher = undiciFetcher({ origin, contact: 'editors@example.org' })
    const results: RereadResult[] = []
    for (const r of [kept, changed, dropped]) results.push(await rereadRow(r, fetcher, { today: TODAY }))
    await fetcher.close()

    const byId = Object.fromEntries(results.map((r) => [r.id, r]))
    expect(byId['kept-row']).toMatchObject({
      status: 'kept',
      http_status: 200,
      match: 'exact',
      correction: null,
    })
    expect(byId['kept-row']?.fetched_url).toBe(`${origin}/pricing/kept?plan=pro`)
    expect(byId['changed-row']).toMatchObject({
      status: 'changed',
      http_status: 200,
      correction: {
        date: TODAY,
        product: 'changed-row',
        field: 'quote',
        from: changed.quote,
        to: null,
        why: 'quote no longer on page; re-read needed',
      },
    })
    // The new price is offered as a hint only.
    expect(byId['changed-row']?.hints.join(' ')).toContain('$3.50 per conversation')
    expect(byId['dropped-row']).toMatchObject({ status: 'dropped', http_status: 404 })
    expect(pages.userAgents.every((ua) => ua === userAgent('editors@example.org'))).toBe(true)
    expect(pages.userAgents[0]).toContain('editors@example.org')

    const report = renderReport(results, { date: TODAY, origin })
    expect(report).toContain('3 rows: 1 kept, 1 changed, 1 dropped, 0 unreachable.')
    for (const id of ['kept-row', 'changed-row', 'dropped-row']) expect(report).toContain(id)
    expect(report).toMatch(
      /## Changed[\s\S]*changed-row[\s\S]*## Dropped[\s\S]*dropped-row[\s\S]*## Kept[\s\S]*kept-row/,
    )
    expect(report).toMatch(/why: "?quote no longer on page; re-read needed"?/)
    expect(report).toContain('$3.50 per conversation')
    expect(summaryLines(results).at(-1)).toBe('3 rows: 1 kept, 1 changed, 1 dropped, 0 unreachable')
  })

  it('lists rows whose pricing page was not read first, with the URL to read', async () => {
    const notRead = PricingRow.parse({
      ...kept,
      id: 'not-read-row',
      unit_price_usd: null,
      usage_unit: null,
      unit_basis: null,
      pricing_model: null,
      null_reason: 'pricing-page-not-read',
      pricing_page_url: 'https://vendor.example/pricing',
    })
    const fetcher = undiciFetcher({ origin })
    const results = [
      await rereadRow(notRead, fetcher, { today: TODAY }),
      await rereadRow(changed, fetcher, { today: TODAY }),
    ]
    await fetcher.close()
    expect(results[0]).toMatchObject({ status: 'kept', page_to_read: 'https://vendor.example/pricing' })
    expect(results[1]?.page_to_read).toBeNull()
    const report = renderReport(results, { date: TODAY })
    expect(report).toContain('1 row has a pricing page not read yet: the first work below.')
    expect(report).toMatch(
      /## First work: pricing pages not read yet \(1\)[\s\S]*\| not-read-row \| Sample Agent \(Vendor Example\) \| https:\/\/vendor\.example\/pricing \|[\s\S]*## Changed/,
    )
    const lines = summaryLines(results)
    expect(lines[0]).toMatch(/^to read\s+not-read-row\s+https:\/\/vendor\.example\/pricing$/)
    expect(lines.at(-1)).toBe(
      '2 rows: 1 kept, 1 changed, 0 dropped, 0 unreachable; 1 pricing page to read first',
    )
  })

  it('follows a redirect to the page that keeps the quote', async () => {
    const fetcher = undiciFetcher({ origin })
    const result = await rereadRow({ ...kept, source_url: 'https://vendor.example/moved' }, fetcher)
    await fetcher.close()
    expect(result).toMatchObject({ status: 'kept', http_status: 200 })
  })

  it('calls a closed port unreachable', async () => {
    // A port that was free a moment ago and has nothing listening now.
    const closed = await startVendorPages((_req, res) => res.end())
    await closed.close()
    const fetcher = undiciFetcher({ origin: closed.origin, timeoutMs: 2_000 })
    const result = await rereadRow(kept, fetcher, { today: TODAY })
    await fetcher.close()
    expect(result).toMatchObject({ status: 'unreachable', http_status: null, correction: null })
    expect(result.detail).toMatch(/ECONNREFUSED|request failed/)
    expect(renderReport([result], { date: TODAY })).toContain('## Unreachable')
  })

  it('rewrites only the origin and strips markup to text', () => {
    expect(rewriteOrigin('https://vendor.example/a/b?c=1', 'http://127.0.0.1:9')).toBe(
      'http://127.0.0.1:9/a/b?c=1',
    )
    expect(htmlToText('<p>a&amp;b</p><p>c&#36;1&lt;</p>')).toBe('a&b c$1<')
  })
})

describe('the scheduled re-read', () => {
  it('behavior: runs npm run reread monthly, sends the report to an editor and never changes content', async () => {
    const { readFile } = await import('node:fs/promises')
    const { parse } = await import('yaml')
    const text = await readFile('.github/workflows/reread.yml', 'utf8')
    const workflow = parse(text) as {
      on: { schedule: { cron: string }[] }
      permissions: Record<string, string>
      jobs: Record<string, { steps: { run?: string }[] }>
    }
    expect(workflow.on.schedule[0]?.cron).toMatch(/^\S+ \S+ 1 \* \*$/)
    const runs = Object.values(workflow.jobs).flatMap((job) => job.steps.map((s) => s.run ?? ''))
    expect(runs.some((r) => r.includes('npm run reread'))).toBe(true)
    expect(runs.some((r) => r.includes('gh issue create') && r.includes('reread-report.md'))).toBe(true)
    // Read-only on the repository: the job can open an issue but cannot push a change to content.
    expect(workflow.permissions.contents).toBe('read')
    for (const r of runs) expect(r).not.toMatch(/git (commit|push)|content\//)
  })
})

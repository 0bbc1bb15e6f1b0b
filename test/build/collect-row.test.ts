/**
 * npm run collect against vendor-like pages served locally: a plain HTML page, a docs page in markdown,
 * a page with tiers and a "Contact sales" tier, and a page with no price. Each draft's quote must be
 * verbatim on the page; a page with nothing to quote gets no draft; an existing row gets proposed
 * corrections and is never overwritten. Sample rows are built here, never read from content/.
 */
import { execFile } from 'node:child_process'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { build } from '../../build/index.js'
import { CollectRefused, draftRow, proposedCorrections } from '../../build/pricing/price-draft.js'
import { findPriceStatements, pageLines, pageTextForQuotes } from '../../build/pricing/price-statements.js'
import { findQuote } from '../../build/reread/reread.js'
import { LOCAL_URLS } from '../../schema/config.js'
import { PricingRow } from '../../schema/content.js'
import { copyOfContent, tempDir } from '../support/content-copy.js'
import { startVendorPages, type VendorPages } from '../support/vendor-pages.js'

const run = promisify(execFile)
const TODAY = '2026-11-24'

interface Fixture {
  type: string
  body: string
}

const PAGES: Record<string, Fixture> = {
  '/plain': {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><title>Acme Agent pricing</title><script>var price = "$1"</script></head>
<body><main><h1>Acme Agent pricing</h1>
<p>Acme Agent is priced at <strong>$0.99</strong> per resolution (USD).</p>
<p>Last updated: March 3, 2026</p></main></body></html>`,
  },
  '/docs/plans.md': {
    type: 'text/markdown; charset=utf-8',
    body: `# Plans & Pricing

> Plans for individuals

### Pro -- \\$20/mo

Everything for one developer.

### Max -- \\$200/mo

About 10x the usage of Pro.
`,
  },
  '/tiers': {
    type: 'text/html',
    body: `<html><head><title>Plans | Helpdesk Bot</title></head><body>
<section class="plans">
<div class="card"><h3>Starter</h3><p><span>$29</span> per month</p><p>1,000 conversations</p></div>
<div class="card"><h3>Team</h3><p><span>$99</span> per month</p></div>
<div class="card"><h3>Enterprise</h3><p>Contact sales</p><button>Talk to us</button></div>
</section>
<table><tr><th>Overage</th><td>$0.05 per conversation</td></tr></table>
</body></html>`,
  },
  '/no-price': {
    type: 'text/html',
    body: `<html><head><title>Plans</title></head><body><h1>Plans</h1>
<p>Every plan includes unlimited projects and priority support.</p></body></html>`,
  },
  '/nothing': { type: 'text/html', body: '<html><body><p>Hello.</p></body></html>' },
}

let pages: VendorPages
let origin = ''

beforeAll(async () => {
  pages = await startVendorPages((req, res) => {
    const page = PAGES[req.url ?? '']
    res.writeHead(page ? 200 : 404, { 'content-type': page?.type ?? 'text/html' })
    res.end(page?.body ?? 'Not found')
  })
  origin = pages.origin
})
afterAll(() => pages.close())

function draftOf(path: string, id?: string) {
  const page = PAGES[path] as Fixture
  return draftRow(
    { source_url: `https://vendor.example${path}`, status: 200, body: page.body, contentType: page.type },
    { id, today: TODAY },
  )
}

function expectVerbatim(path: string, quote: string) {
  const page = PAGES[path] as Fixture
  expect(findQuote(quote, pageTextForQuotes(page.body, page.type))).toBe('exact')
}

async function collect(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/editor/collect-row.ts', ...args], {
    env: { ...process.env, ...env },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  )
}

describe('price statements', () => {
  it('behavior: finds amounts with their unit and period, and marks range ends', () => {
    const found = findPriceStatements([
      'Pro is $20/mo',
      '$25 per user per month',
      '$0.99 per resolution',
      'Rates typically fall between $0.15–0.24 per minute.',
      'Only 29 EUR a month',
    ])
    expect(found.map((f) => [f.amount, f.unit, f.period, f.inRange, f.currency])).toEqual([
      [20, null, 'month', false, 'USD'],
      [25, 'user', 'month', false, 'USD'],
      [0.99, 'resolution', null, false, 'USD'],
      [0.15, null, null, true, 'USD'],
      [29, null, 'month', false, 'EUR'],
    ])
  })

  it('behavior: table cells stay on their row line, scripts are not text', () => {
    const lines = pageLines(PAGES['/tiers']?.body as string, 'text/html')
    expect(lines).toContain('Overage $0.05 per conversation')
    expect(pageLines(PAGES['/plain']?.body as string, 'text/html').join(' ')).not.toContain('var price')
  })
})

describe('draft rows from vendor-like pages', () => {
  it('plain HTML: a unit price, its unit, the page date, and a verbatim quote', () => {
    const { row } = draftOf('/plain', 'acme-agent')
    expect(row).toMatchObject({
      id: 'acme-agent',
      product: 'Acme Agent pricing',
      unit_price_usd: 0.99,
      usage_unit: 'resolution',
      entry_usd_month: null,
      pricing_model: 'per-outcome',
      null_reason: null,
      sales_gated: false,
      source_url: 'https://vendor.example/plain',
      pricing_page_url: 'https://vendor.example/plain',
      read_on: TODAY,
      read_from: 'vendor-page',
      page_states_date: 'Last updated: March 3, 2026',
      quote: 'Acme Agent is priced at $0.99 per resolution (USD).',
    })
    expectVerbatim('/plain', row.quote)
  })

  it('docs page in markdown: the lowest monthly plan as the entry price, quoted as stored', () => {
    const { row } = draftOf('/docs/plans.md')
    expect(row.entry_usd_month).toBe(20)
    expect(row.unit_price_usd).toBeNull()
    expect(row.pricing_model).toBe('flat')
    expect(row.quote).toBe('### Pro -- \\$20/mo')
    expect(row.note).toContain('\\$200/mo')
    expectVerbatim('/docs/plans.md', row.quote)
  })

  it('tiers with a "Contact sales" tier: the lowest paid tier, and the gate named by its heading', () => {
    const { row, todo } = draftOf('/tiers', 'helpdesk-bot')
    expect(row.entry_usd_month).toBe(29)
    expect(row.quote).toBe('$29 per month')
    expect(row.sales_gated).toBe(true)
    expect(row.gated_tier).toBe('Enterprise')
    expect(row.null_reason).toBeNull()
    expect(todo.join(' ')).toMatch(/gated_tier/)
    expectVerbatim('/tiers', row.quote)
  })

  it('a page with no price: not-published, quoted from the page, flagged for the editor to confirm', () => {
    const { row, todo } = draftOf('/no-price', 'plans-only')
    expect(row.entry_usd_month).toBeNull()
    expect(row.unit_price_usd).toBeNull()
    expect(row.null_reason).toBe('not-published')
    expect(row.quote).toBe('Every plan includes unlimited projects and priority support.')
    expect(todo.join(' ')).toMatch(/pricing-page-not-read/)
    expectVerbatim('/no-price', row.quote)
  })

  it('refuses: nothing on the page to quote, or no page', () => {
    expect(() => draftOf('/nothing')).toThrow(CollectRefused)
    expect(() =>
      draftRow({ source_url: 'https://vendor.example/gone', status: 404, body: '' }, { today: TODAY }),
    ).toThrow(/answered 404/)
  })

  it('an existing row: one proposed correction per changed field', () => {
    const existing = PricingRow.parse({
      id: 'acme-agent',
      product: 'Acme Agent',
      vendor: 'Acme',
      category: 'support-agent',
      pricing_model: 'per-outcome',
      entry_usd_month: null,
      unit_price_usd: 0.89,
      usage_unit: 'resolution',
      unit_basis: 'base',
      null_reason: null,
      sales_gated: false,
      quote: 'Acme Agent is priced at $0.89 per resolution (USD).',
      source_url: 'https://vendor.example/plain',
      read_on: '2026-10-01',
      read_from: 'vendor-page',
      newest_because: 'The only version.',
    })
    const fixes = proposedCorrections(existing, draftOf('/plain', 'acme-agent').row, TODAY)
    expect(fixes.map((c) => [c.field, c.from, c.to])).toEqual([
      ['unit_price_usd', 0.89, 0.99],
      ['quote', existing.quote, 'Acme Agent is priced at $0.99 per resolution (USD).'],
      ['page_states_date', null, 'Last updated: March 3, 2026'],
    ])
    for (const c of fixes) expect(c.product).toBe('acme-agent')
  })
})

describe('npm run collect (the script)', () => {
  it('writes a draft outside the rows, with the contact in its User-Agent; an existing row is not overwritten', async () => {
    const content = await tempDir()
    await mkdir(join(content, 'pricing', 'rows'), { recursive: true })
    const rowFile = join(content, 'pricing', 'rows', 'helpdesk-bot.yaml')
    const before = `id: helpdesk-bot
product: Helpdesk Bot
vendor: Helpdesk
category: support-agent
pricing_model: flat
entry_usd_month: 19
entry_basis: { per: account, billing: monthly, seat_minimum: null }
unit_price_usd: null
usage_unit: null
null_reason: null
sales_gated: false
quote: "$19 per month"
source_url: https://vendor.example/tiers
read_on: 2026-10-01
read_from: vendor-page
newest_because: The only version.
`
    await writeFile(rowFile, before)
    const out = join(content, 'pricing', 'drafts')
    const result = await collect(
      [
        'https://vendor.example/tiers',
        '--id',
        'helpdesk-bot',
        '--origin',
        origin,
        '--content',
        content,
        '--out',
        out,
        '--date',
        TODAY,
      ],
      { CONTACT: 'editors@vendor-test.invalid' },
    )
    expect(result.stderr).not.toMatch(/no draft/)
    expect(result.code).toBe(0)
    expect(await readFile(rowFile, 'utf8')).toBe(before)
    expect((await readdir(out)).sort()).toEqual(['helpdesk-bot.corrections.yaml', 'helpdesk-bot.yaml'])
    const draft = parse(await readFile(join(out, 'helpdesk-bot.yaml'), 'utf8')) as Record<string, unknown>
    expect(draft).toMatchObject({
      id: 'helpdesk-bot',
      entry_usd_month: 29,
      source_url: 'https://vendor.example/tiers',
    })
    expectVerbatim('/tiers', draft.quote as string)
    const fixes = parse(await readFile(join(out, 'helpdesk-bot.corrections.yaml'), 'utf8')) as {
      field: string
      from: unknown
      to: unknown
    }[]
    expect(fixes.find((c) => c.field === 'entry_usd_month')).toMatchObject({ from: 19, to: 29 })
    expect(fixes.find((c) => c.field === 'sales_gated')).toMatchObject({ from: 'false', to: 'true' })
    const ua = pages.userAgents.at(-1) ?? ''
    expect(ua).toMatch(/^RulesPricingIndex-collect\//)
    expect(ua).toContain('contact editors@vendor-test.invalid')
  })

  it('refuses to write a draft with no quote, and never into content/pricing/rows', async () => {
    const content = await tempDir()
    const nothing = await collect([
      'https://vendor.example/nothing',
      '--origin',
      origin,
      '--content',
      content,
      '--out',
      join(content, 'drafts'),
    ])
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toMatch(/no draft written: .*never invents one/)
    const intoRows = await collect([
      'https://vendor.example/plain',
      '--origin',
      origin,
      '--content',
      content,
      '--out',
      join(content, 'pricing', 'rows'),
    ])
    expect(intoRows.code).toBe(1)
    expect(intoRows.stderr).toMatch(/refusing to write a draft into content\/pricing\/rows/)
  })
})

describe('drafts are not content', () => {
  it('behavior: the build ignores content/pricing/drafts/ and git ignores it too', async () => {
    const dir = await copyOfContent()
    await mkdir(join(dir, 'pricing', 'drafts'), { recursive: true })
    // A draft as the tool leaves it: unfinished fields the build would refuse in pricing/rows/.
    await writeFile(
      join(dir, 'pricing', 'drafts', 'half-done.yaml'),
      'id: half-done\ncategory: null\nquote: "$1"\n',
    )
    const result = await build({ contentDir: dir, outDir: await tempDir(), urls: LOCAL_URLS })
    expect(result.files.size).toBeGreaterThan(0)
    expect(await readFile('.gitignore', 'utf8')).toMatch(/^content\/pricing\/drafts\/$/m)
  })
})

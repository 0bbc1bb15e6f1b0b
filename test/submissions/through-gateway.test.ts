/**
 * Submissions, aggregates and usage counters through the gateway (the shared running service, both
 * Workers, the SUBMISSIONS service binding): nothing submitted ever comes back out of any public
 * route, 1,000 submissions all count, the disclosure threshold both ways, and the counters move for
 * every outcome.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ROUTES, routeByName } from '../../schema/routes.js'
import { type Contributions, DISCLOSURE_THRESHOLD } from '../../schema/submission.js'
import { PRICING_MODELS, SUBMISSION_CATEGORIES } from '../../schema/vocabulary.js'
import { runBounded } from '../support/bounded-concurrency.js'
import { base, get, payOnce, until } from '../support/service.js'

/** The one category no other test of the shared service submits to. */
const THRESHOLD_CATEGORY = 'vertical-ai'
/** Submissions in flight at once in the volume test. */
const IN_FLIGHT = 50

/**
 * POSTs one submission from `client`. The submissions Worker limits each client (CF-Connecting-IP)
 * to SUBMIT_LIMIT_PER_MINUTE attempts a minute; the tests stay within the deployed default of 30
 * per address whatever the global setup raises it to, so they would pass against a deployed limit.
 * Local workerd passes the header through, so every test submits from its own addresses.
 */
function submit(body: unknown, client: string) {
  return fetch(`${base()}/v1/pricing/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': client },
    body: JSON.stringify(body),
  })
}
/** The deployed per-client limit (gateway/submissions/wrangler.jsonc). */
const PER_CLIENT = 30

async function aggregates(): Promise<Contributions> {
  const r = await get('/v1/pricing/aggregates')
  expect(r.status).toBe(200)
  return (await r.json()) as Contributions
}

/** The published aggregates from the first snapshot taken after `since` (ms): waits for it. */
async function aggregatesAfter(since: number): Promise<Contributions> {
  for (;;) {
    const published = await aggregates()
    if (Date.parse(published.as_of ?? '') > since) return published
    await new Promise((r) => setTimeout(r, 100))
  }
}

let clients = 0
/** A client network of its own (a /24 each): medians need distinct submitter networks, not only rows. */
const nextClient = () => `198.19.${clients % 250}.${1 + Math.floor(clients++ / 250)}`

async function indexContributions(): Promise<Contributions> {
  const r = await get('/v1/pricing/index')
  expect(r.status).toBe(200)
  return ((await r.json()) as { contributions: Contributions }).contributions
}

interface Stats {
  totals: { requests: number; by_outcome: Record<string, number> }
  by_endpoint: Record<string, { requests: number; by_outcome: Record<string, number> }>
  by_client_class: Record<string, number>
  submissions: { accepted: number }
}

async function stats(): Promise<Stats> {
  const r = await get('/v1/stats')
  expect(r.status).toBe(200)
  return (await r.json()) as Stats
}

/** The median as the disclosure rule defines it: the middle value, or the mean of the two middle ones. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const m =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
  // The service rounds averaging noise to 12 significant digits.
  return Number(m.toPrecision(12))
}

/** Every GET route of the table: plain, and with its example parameters where it has any. */
function everyGetPath(): { path: string; access: string }[] {
  const out: { path: string; access: string }[] = []
  for (const route of ROUTES) {
    if (route.method !== 'GET') continue
    out.push({ path: route.path, access: route.access })
    if (route.params.length) {
      const query = new URLSearchParams(route.params.map((p) => [p.name, p.example]))
      out.push({ path: `${route.path}?${query}`, access: route.access })
    }
  }
  return out
}

describe('privacy through the gateway', () => {
  it('behavior: no submitted text or unusual price comes back from any public route or error', async () => {
    const r = randomUUID().replaceAll('-', '').slice(0, 12)
    const canaries = {
      product: `canary-product-${r}`,
      note: `canary-note-${r}`,
      email: `canary-${r}@example.com`,
      usage_unit: `canary-unit-${r}`,
      acv_band: `canary-acv-${r}`,
    }
    const unusual = { entry: 1234.5678, unit: 0.00031415926, discount: 17.3579 }
    const secrets = [
      ...Object.values(canaries),
      r,
      String(unusual.entry),
      String(unusual.unit),
      String(unusual.discount),
    ]

    // Canary rows among enough ordinary rows that the category's medians are published (and are
    // not the unusual values), plus one canary row alone in a category below the threshold.
    const rows: Record<string, unknown>[] = [
      ...[10, 20, 30, 40, 50].map((p, i) => ({
        category: 'coding-agent',
        pricing_model: 'per-seat',
        entry_usd_month: p,
        unit_price_usd: (i + 1) / 100,
      })),
      ...['coding-agent', 'coding-agent', 'other'].map((category) => ({
        category,
        pricing_model: 'usage-credits',
        entry_usd_month: unusual.entry,
        unit_price_usd: unusual.unit,
        typical_discount_pct: unusual.discount,
        ...canaries,
      })),
    ]
    const received: string[] = []
    for (const row of rows) {
      const response = await submit(row, nextClient())
      expect(response.status).toBe(202)
      received.push(`202 ${JSON.stringify([...response.headers])} ${await response.text()}`)
    }
    const coding = (await aggregatesAfter(Date.now())).by_category['coding-agent']
    expect(coding?.entry_p50).toBe(median([10, 20, 30, 40, 50, unusual.entry, unusual.entry]))
    expect(coding?.unit_p50).toBe(median([0.01, 0.02, 0.03, 0.04, 0.05, unusual.unit, unusual.unit]))

    // An invalid submission carrying the same values (and a few more) in every field.
    const invalid = await submit(
      {
        category: `canary-category-${r}`,
        pricing_model: `canary-model-${r}`,
        entry_usd_month: -unusual.entry,
        unit_price_usd: String(unusual.unit),
        typical_discount_pct: unusual.entry,
        email: `not-an-email-canary-${r}`,
        product: canaries.product,
        usage_unit: canaries.usage_unit,
        note: `${canaries.note} ${'x'.repeat(2_001)}`,
      },
      '192.0.2.101',
    )
    expect(invalid.status).toBe(400)
    received.push(`400 ${JSON.stringify([...invalid.headers])} ${await invalid.text()}`)

    const paths = [
      ...everyGetPath(),
      { path: '/v1/stats', access: 'free' },
      { path: '/v1/pricing/aggregates', access: 'free' },
      { path: '/v1/pricing/index', access: 'free' },
      { path: '/pricing/', access: 'free' },
    ]
    for (const { path, access } of paths) {
      const response = await get(path)
      // A filter that matches nothing (e.g. an example topic with no item) is a 404 listing the valid values.
      const status = access === 'free' ? 200 : access === 'paid' ? 402 : 410
      const expected = path.includes('?') ? [status, 404] : [status]
      expect(expected, path).toContain(response.status)
      received.push(`${path} ${JSON.stringify([...response.headers])} ${await response.text()}`)
    }
    // The routes the table lists and the discovery documents are all among them.
    for (const doc of [
      '/agents.json',
      '/.well-known/agents.json',
      '/.well-known/mcp.json',
      '/openapi.json',
      '/llms.txt',
    ])
      expect(paths.map((p) => p.path)).toContain(doc)

    for (const text of received) for (const secret of secrets) expect(text, secret).not.toContain(secret)
  })
})

describe('volume through the gateway', () => {
  it('behavior: 1,000 submissions, 50 in flight at a time, all answer 202 and all count, once each', async () => {
    const categories = SUBMISSION_CATEGORIES.filter((c) => c !== THRESHOLD_CATEGORY)
    const rows = Array.from({ length: 1_000 }, (_, i) => {
      const row: Record<string, unknown> = {
        category: categories[i % categories.length],
        pricing_model: PRICING_MODELS[Math.floor(i / categories.length) % PRICING_MODELS.length],
      }
      if (i % 3 !== 1) row.entry_usd_month = ((i * 37) % 5_000) + 0.5
      if (i % 3 !== 0) row.unit_price_usd = ((i * 13) % 1_000) / 10_000
      return row
    })
    // Spread over enough client addresses that none passes the per-client flood limit.
    const CLIENTS = Math.ceil(rows.length / (PER_CLIENT / 2))
    const sent = new Map<string, number>()
    for (const row of rows) sent.set(row.category as string, (sent.get(row.category as string) ?? 0) + 1)

    const before = await aggregates()
    const statsBefore = await stats()
    const codes = await runBounded(rows.length, IN_FLIGHT, (i) =>
      submit(rows[i], `198.18.0.${i % CLIENTS}`).then((r) => r.status),
    )
    expect(codes).toHaveLength(1_000)
    expect(new Set(codes)).toEqual(new Set([202]))

    const after = await aggregatesAfter(Date.now())
    expect(after.submissions - before.submissions).toBe(1_000)
    for (const category of SUBMISSION_CATEGORIES)
      expect((after.by_category[category]?.n ?? 0) - (before.by_category[category]?.n ?? 0), category).toBe(
        sent.get(category) ?? 0,
      )
    // Where the counts are published, they add up to the category's n.
    for (const [category, agg] of Object.entries(after.by_category))
      if (Object.keys(agg.models).length)
        expect(
          Object.values(agg.models).reduce((a, b) => a + b, 0),
          category,
        ).toBe(agg.n)
    expect((await stats()).submissions.accepted - statsBefore.submissions.accepted).toBe(1_000)
  })
})

describe('disclosure threshold through the gateway', () => {
  it(`behavior: ${THRESHOLD_CATEGORY} publishes nothing at 4 submissions and the true medians from 5`, async () => {
    const start = (await aggregates()).by_category[THRESHOLD_CATEGORY]
    expect(start).toEqual({ n: 0, entry_p50: null, unit_p50: null, models: {} })

    const rows = [
      { pricing_model: 'per-seat', entry_usd_month: 120, unit_price_usd: 0.02 },
      { pricing_model: 'per-outcome', entry_usd_month: 80.5, unit_price_usd: 0.5 },
      { pricing_model: 'per-seat', entry_usd_month: 300, unit_price_usd: 0.013 },
      { pricing_model: 'hybrid', entry_usd_month: 95, unit_price_usd: 0.07 },
      { pricing_model: 'per-outcome', entry_usd_month: 210, unit_price_usd: 0.3 },
      { pricing_model: 'flat', entry_usd_month: 99.99, unit_price_usd: 0.045 },
    ].map((row) => ({ category: THRESHOLD_CATEGORY, ...row }))
    const modelsOf = (sent: typeof rows) => {
      const out: Record<string, number> = {}
      for (const row of sent) out[row.pricing_model] = (out[row.pricing_model] ?? 0) + 1
      return out
    }

    for (const row of rows.slice(0, DISCLOSURE_THRESHOLD - 1))
      expect((await submit(row, nextClient())).status).toBe(202)
    let agg = await aggregatesAfter(Date.now())
    expect(agg.by_category[THRESHOLD_CATEGORY]).toEqual({
      n: DISCLOSURE_THRESHOLD - 1,
      entry_p50: null,
      unit_p50: null,
      models: {},
    })
    expect((await indexContributions()).by_category).toEqual(agg.by_category)

    for (let n = DISCLOSURE_THRESHOLD; n <= rows.length; n++) {
      expect((await submit(rows[n - 1], nextClient())).status).toBe(202)
      const sent = rows.slice(0, n)
      agg = await aggregatesAfter(Date.now())
      const entry = median(sent.map((row) => row.entry_usd_month))
      const unit = median(sent.map((row) => row.unit_price_usd))
      expect(agg.by_category[THRESHOLD_CATEGORY], `at ${n}`).toEqual({
        n,
        entry_p50: entry,
        unit_p50: unit,
        models: modelsOf(sent),
      })
      const fromIndex = await indexContributions()
      expect(fromIndex.by_category).toEqual(agg.by_category)
      expect(fromIndex).toEqual(agg)
    }
  })
})

describe('cross-origin submissions', () => {
  it('error: no web page can make its visitors submit: no CORS approval, and simple requests are refused', async () => {
    const origin = 'https://attacker.example'
    const preflight = await get('/v1/pricing/submit', {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    const before = (await aggregatesAfter(Date.now())).submissions
    // The one POST a browser sends cross-site without asking: text/plain (or a form encoding).
    const simple = await get('/v1/pricing/submit', {
      method: 'POST',
      headers: { origin, 'content-type': 'text/plain', 'cf-connecting-ip': nextClient() },
      body: JSON.stringify({ category: 'other', pricing_model: 'flat', entry_usd_month: 1 }),
    })
    expect(simple.status).toBe(415)
    expect(simple.headers.get('access-control-allow-origin')).toBeNull()
    expect((await aggregatesAfter(Date.now())).submissions).toBe(before)
    // Reading stays open to browser agents.
    const read = await get('/v1/pricing/aggregates', { headers: { origin } })
    expect(read.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('published snapshots', () => {
  it('behavior: a new row shows only in a later snapshot, never between two reads of one snapshot', async () => {
    const before = await aggregates()
    const sentAt = Date.now()
    expect(
      (await submit({ category: 'agent-platform', pricing_model: 'flat', entry_usd_month: 77 }, nextClient()))
        .status,
    ).toBe(202)
    const soon = await aggregates()
    // Within one snapshot nothing moves; the row is counted once a later snapshot is taken.
    if (soon.as_of === before.as_of) expect(soon).toEqual(before)
    const later = await aggregatesAfter(sentAt)
    expect(later.by_category['agent-platform']?.n).toBe((before.by_category['agent-platform']?.n ?? 0) + 1)
    expect(later.as_of).not.toBe(before.as_of)
  })
})

describe('usage counters through the gateway', () => {
  it('behavior: /v1/stats counts one request of each outcome against its endpoint', async () => {
    const before = await stats()
    const lessons = routeByName('lessons').name
    const expected: [endpoint: string, outcome: string][] = [
      [routeByName('catalogue').name, 'free'],
      [lessons, 'challenged'],
      [lessons, 'rejected'],
      [routeByName('warn_feed').name, 'retired'],
      [lessons, 'refused'],
      [lessons, 'paid'],
    ]

    expect((await get('/v1/catalogue')).status).toBe(200)
    expect((await get('/v1/fde-lessons')).status).toBe(402)
    expect((await get('/v1/fde-lessons?colour=x')).status).toBe(400)
    expect((await get('/v1/warn-feed')).status).toBe(410)
    const refused = await get('/v1/fde-lessons', { headers: { authorization: 'Payment e30' } })
    expect(refused.status).toBe(402)
    expect(((await refused.json()) as { type: string }).type).toMatch(/malformed-credential$/)
    const { paid } = await payOnce('/v1/fde-lessons')
    expect(paid.status).toBe(200)

    const count = (s: Stats, endpoint: string, outcome: string) =>
      s.by_endpoint[endpoint]?.by_outcome[outcome] ?? 0
    const lagging = (s: Stats) =>
      expected.filter(
        ([endpoint, outcome]) => count(s, endpoint, outcome) < count(before, endpoint, outcome) + 1,
      )
    // Hits leave each isolate in batches (gateway/stats.ts): waited for as a condition, not a
    // deadline on the test's clock (the test's own time limit bounds the wait).
    let now = await stats()
    await until(async () => {
      now = await stats()
      return lagging(now).length === 0
    })
    for (const [endpoint, outcome] of expected)
      expect(count(now, endpoint, outcome), `${endpoint} ${outcome}`).toBeGreaterThanOrEqual(
        count(before, endpoint, outcome) + 1,
      )
    // The totals are the sums of the endpoints.
    const sum = Object.values(now.by_endpoint).reduce((a, e) => a + e.requests, 0)
    expect(now.totals.requests).toBe(sum)
  })
})

/**
 * The submissions Worker over HTTP, alone (workerd through Miniflare, a throwaway D1, a low
 * flood limit): status codes, no echo of submitted values, the disclosure threshold, medians, the
 * flood limit, exact counting under concurrency, and the usage counters.
 * Run: npx vitest run --project node test/submissions/submissions.test.ts
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DISCLOSURE_RULE, DISCLOSURE_THRESHOLD } from '../../schema/submission.js'
import { type SubmissionsWorker, startSubmissionsWorker } from '../support/submissions-worker.js'

const LIMIT = 40
const BATCH = 50

let worker: SubmissionsWorker
let base: URL

beforeAll(async () => {
  worker = await startSubmissionsWorker({
    SUBMIT_LIMIT_PER_MINUTE: String(LIMIT),
    SUBMITTER_SALT: 'a-test-salt-of-at-least-thirty-two-bytes',
    // Every read recomputes: these tests check the arithmetic; the snapshot is tested through the gateway.
    AGGREGATE_SNAPSHOT_SECONDS: '0',
  })
  base = worker.base
})

afterAll(() => worker?.stop())

/** Each test submits from its own client address, so the flood limit of one never touches another. */
const submit = (body: unknown, client: string, headers: Record<string, string> = {}) =>
  worker.submit(body, client, headers)

/** Runs `tasks` `size` at a time (each batch concurrent), in order. */
async function inBatches<T>(tasks: (() => Promise<T>)[], size = BATCH): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < tasks.length; i += size)
    out.push(...(await Promise.all(tasks.slice(i, i + size).map((t) => t()))))
  return out
}

const aggregates = () => worker.aggregates()

describe('POST /v1/pricing/submit', () => {
  it('behavior: accepts a valid row with 202 and echoes none of it', async () => {
    const r = await submit(
      {
        category: 'model-api',
        pricing_model: 'per-token',
        unit_price_usd: 0.000123,
        product: 'Zebra Secret',
        email: 'who@example.com',
        note: 'hidden words',
      },
      '192.0.2.1',
    )
    expect(r.status).toBe(202)
    const text = await r.text()
    for (const value of ['0.000123', 'Zebra', 'who@example.com', 'hidden words'])
      expect(text, value).not.toContain(value)
    expect(JSON.parse(text).status).toBe('accepted')
  })

  it('error: refuses a non-JSON content type with 415, and allows a charset', async () => {
    const body = { category: 'other', pricing_model: 'flat', entry_usd_month: 1 }
    expect((await submit(body, '192.0.2.2', { 'content-type': 'text/plain' })).status).toBe(415)
    expect(
      (await submit(body, '192.0.2.2', { 'content-type': 'application/json; charset=UTF-8' })).status,
    ).toBe(202)
  })

  it('error: refuses a body over 16 KiB with 413, declared or streamed', async () => {
    const big = JSON.stringify({
      category: 'other',
      pricing_model: 'flat',
      entry_usd_month: 1,
      note: 'x'.repeat(17_000),
    })
    expect((await submit(big, '192.0.2.3')).status).toBe(413)
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big))
        c.close()
      },
    })
    const r = await fetch(new URL('/v1/pricing/submit', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '192.0.2.3' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(r.status).toBe(413)
  })

  it('error: answers invalid JSON with 400 without quoting it', async () => {
    const r = await submit('{"category": "quoted@example.com', '192.0.2.4')
    expect(r.status).toBe(400)
    expect(await r.text()).not.toContain('quoted@example.com')
  })

  it('error: lists every problem by field, with what is allowed, and no submitted value', async () => {
    const r = await submit(
      {
        category: 'nope-category',
        pricing_model: 7,
        entry_usd_month: -5,
        typical_discount_pct: '10',
        email: 'bad-email-value',
        extra_field: 1,
      },
      '192.0.2.5',
    )
    expect(r.status).toBe(400)
    const text = await r.text()
    const body = JSON.parse(text) as { errors: { field: string; problem: string; allowed: string[] }[] }
    const fields = body.errors.map((e) => e.field)
    for (const f of [
      'category',
      'pricing_model',
      'entry_usd_month',
      'typical_discount_pct',
      'email',
      'extra_field',
    ])
      expect(fields, f).toContain(f)
    expect(body.errors.find((e) => e.field === 'category')?.allowed.includes('coding-agent')).toBeTruthy()
    for (const value of ['nope-category', 'bad-email-value', '-5']) expect(text, value).not.toContain(value)
  })

  it('error: requires at least one price', async () => {
    const r = await submit({ category: 'other', pricing_model: 'flat' }, '192.0.2.6')
    expect(r.status).toBe(400)
    const body = (await r.json()) as { errors: { field: string; problem: string }[] }
    expect(body.errors.some((e) => e.problem.includes('at least one'))).toBeTruthy()
  })

  // The window opens at this client's first attempt (rate-limit.ts), not on the wall clock's minute,
  // so the 41 attempts are counted in one window wherever they fall; windows on a chosen clock are
  // tested in rate-limit.test.ts.
  it('error: limits a flooding client with 429 and Retry-After', async () => {
    const codes: number[] = []
    for (let i = 0; i < LIMIT; i++) codes.push((await submit({}, '198.51.100.9')).status)
    expect(codes.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(400))
    const last = await submit({}, '198.51.100.9')
    expect(last.status).toBe(429)
    const retryAfter = Number(last.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
  })
})

describe('aggregates', () => {
  it('behavior: publishes medians only from 5 submissions, averaging the two middle values for even counts', async () => {
    // Each row from its own network: medians need 5 distinct submitters as well as 5 rows.
    let clients = 0
    const client = () => `198.19.${10 + clients++}.1`
    for (const p of [10, 40, 20, 30])
      expect(
        (await submit({ category: 'voice-agent', pricing_model: 'per-minute', entry_usd_month: p }, client()))
          .status,
      ).toBe(202)
    let v = (await aggregates()).by_category['voice-agent']
    // Below the threshold the medians are null and the pricing-model counts are withheld.
    expect(v).toEqual({ n: 4, entry_p50: null, unit_p50: null, models: {} })
    expect(
      (await submit({ category: 'voice-agent', pricing_model: 'flat', entry_usd_month: 25 }, client()))
        .status,
    ).toBe(202)
    v = (await aggregates()).by_category['voice-agent']
    expect(v?.n).toBe(5)
    expect(v?.entry_p50).toBe(25)
    expect(v?.unit_p50).toBe(null)
    expect(v?.models).toEqual({ 'per-minute': 4, flat: 1 })
    expect(
      (await submit({ category: 'voice-agent', pricing_model: 'flat', entry_usd_month: 100 }, client()))
        .status,
    ).toBe(202)
    expect((await aggregates()).by_category['voice-agent']?.entry_p50).toBe(27.5)
  })

  it('behavior: publishes a median only once that price itself has 5 values', async () => {
    let clients = 0
    const client = () => `198.19.${30 + clients++}.1`
    // 5 submissions in the category, but only 4 monthly prices and 1 unit price.
    const rows = [
      { category: 'agent-platform', pricing_model: 'per-seat', entry_usd_month: 12 },
      { category: 'agent-platform', pricing_model: 'per-seat', entry_usd_month: 48 },
      { category: 'agent-platform', pricing_model: 'hybrid', entry_usd_month: 30 },
      { category: 'agent-platform', pricing_model: 'hybrid', entry_usd_month: 18 },
      { category: 'agent-platform', pricing_model: 'per-token', unit_price_usd: 0.002 },
    ]
    for (const row of rows) expect((await submit(row, client())).status).toBe(202)
    let v = (await aggregates()).by_category['agent-platform']
    expect(v).toEqual({
      n: DISCLOSURE_THRESHOLD,
      entry_p50: null,
      unit_p50: null,
      models: { 'per-seat': 2, 'per-token': 1, hybrid: 2 },
    })
    expect(
      (await submit({ category: 'agent-platform', pricing_model: 'flat', entry_usd_month: 24 }, client()))
        .status,
    ).toBe(202)
    v = (await aggregates()).by_category['agent-platform']
    expect(v?.n).toBe(6)
    expect(v?.entry_p50).toBe(24) // 12, 18, 24, 30, 48
    expect(v?.unit_p50).toBe(null)
  })

  it('behavior: serves the same Contributions object on /internal/contributions', async () => {
    const r = await fetch(new URL('/internal/contributions', base))
    expect(r.status).toBe(200)
    const c = (await r.json()) as Awaited<ReturnType<typeof aggregates>>
    expect(c.available).toBe(true)
    expect(c.truncated).toBe(false)
    expect(c.disclosure_rule).toBe(DISCLOSURE_RULE)
    expect(c.disclosure_rule).toContain(String(DISCLOSURE_THRESHOLD))
    expect(c.disclosure_rule).toMatch(/pricing-model counts are withheld/)
    const { as_of: _internal, ...internal } = c as typeof c & { as_of?: string }
    const { as_of: _public, ...published } = (await aggregates()) as typeof c & { as_of?: string }
    expect(internal).toEqual(published)
  })

  it('behavior: one client padding a quiet category cannot make the next newcomer row the published median', async () => {
    const attacker = '198.18.12.1'
    for (const entry_usd_month of [0, 0, 10_000_000, 10_000_000])
      expect(
        (await submit({ category: 'support-agent', pricing_model: 'flat', entry_usd_month }, attacker))
          .status,
      ).toBe(202)
    // The honest newcomer: with the padding, the middle value would be exactly its price.
    expect(
      (
        await submit(
          { category: 'support-agent', pricing_model: 'per-outcome', entry_usd_month: 123.45 },
          '198.18.12.2',
        )
      ).status,
    ).toBe(202)
    const v = (await aggregates()).by_category['support-agent']
    expect(v?.n).toBe(5)
    // Two distinct submitters: neither the median nor the model counts are published.
    expect(v).toEqual({ n: 5, entry_p50: null, unit_p50: null, models: {} })
  })

  it('behavior: four hosts of one network padding a quiet category publish nothing, over IPv6 and IPv4', async () => {
    // Four cheap /64s inside one /48 (and four addresses inside one /24) are one submitter network.
    const padding = [
      ['2001:db8:77:1::1', '2001:db8:77:2::1', '2001:db8:77:3::1', '2001:db8:77:4::1'],
      ['198.19.60.1', '198.19.60.2', '198.19.60.3', '198.19.60.4'],
    ]
    for (const [i, hosts] of padding.entries()) {
      const category = i === 0 ? 'coding-agent' : 'vertical-ai'
      for (const [j, host] of hosts.entries())
        expect(
          (await submit({ category, pricing_model: 'flat', entry_usd_month: j % 2 ? 0 : 10_000_000 }, host))
            .status,
        ).toBe(202)
      // The honest newcomer from another network: with the padding, the median would be its price.
      expect(
        (await submit({ category, pricing_model: 'per-seat', entry_usd_month: 77.5 }, `198.19.${70 + i}.9`))
          .status,
      ).toBe(202)
      expect((await aggregates()).by_category[category]).toEqual({
        n: 5,
        entry_p50: null,
        unit_p50: null,
        models: {},
      })
    }
  })

  it('behavior: counts 300 concurrent submissions exactly once each', async () => {
    const start = (await aggregates()).by_category['gtm-agent']?.n ?? 0
    const codes = await inBatches(
      Array.from(
        { length: 300 },
        (_, i) => () =>
          submit(
            { category: 'gtm-agent', pricing_model: 'hybrid', entry_usd_month: i },
            `198.18.${100 + (i % 30)}.1`,
          ).then((r) => r.status),
      ),
    )
    expect(new Set(codes)).toEqual(new Set([202]))
    const gtm = (await aggregates()).by_category['gtm-agent']
    expect(gtm?.n).toBe(start + 300)
    expect(gtm?.entry_p50).toBe(149.5)
    expect(gtm?.models).toEqual({ hybrid: start + 300 })
  })
})

describe('routing and counters', () => {
  it('error: answers unknown paths with 404 and wrong methods with 405 and Allow', async () => {
    expect((await fetch(new URL('/nope', base))).status).toBe(404)
    const r = await fetch(new URL('/v1/pricing/submit', base))
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('POST')
  })

  it('behavior: counts hits and reports them in /v1/stats with the note', async () => {
    const send = (hits: unknown[]) =>
      fetch(new URL('/internal/hits', base), { method: 'POST', body: JSON.stringify({ hits }) })
    // Two batches, as two gateway isolates would send them: the counts add up.
    expect((await send([{ endpoint: 'pricing', outcome: 'paid', client: 'mppx', n: 1 }])).status).toBe(204)
    expect(
      (
        await send([
          { endpoint: 'pricing', outcome: 'paid', client: 'mppx', n: 1 },
          { endpoint: 'pricing', outcome: 'challenged', client: 'mppx', n: 1 },
        ])
      ).status,
    ).toBe(204)
    const bad = await send([{ endpoint: 'pricing', outcome: 'stolen', client: 'x', n: 1 }])
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/hits\.0\.outcome/)
    expect((await send([{ endpoint: 'pricing', outcome: 'paid', client: 'x', n: 0 }])).status).toBe(400)
    const stats = (await (await fetch(new URL('/v1/stats', base))).json()) as {
      note: string
      by_endpoint: Record<string, { by_outcome: Record<string, number> }>
      by_client_class: Record<string, number>
      submissions: { accepted: number }
    }
    expect(stats.by_endpoint.pricing?.by_outcome.paid).toBe(2)
    expect(stats.by_endpoint.pricing?.by_outcome.challenged).toBe(1)
    expect(stats.by_client_class.mppx).toBe(3)
    expect(stats.note).toMatch(/not an accounting record/i)
    expect(stats.submissions.accepted).toBeGreaterThan(0)
    expect(stats.submissions.accepted).toBe((await aggregates()).submissions)
  })
})

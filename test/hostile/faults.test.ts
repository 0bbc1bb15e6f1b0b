/**
 * Hostile: concurrent double-spend over MCP, and a thousand malformed or oversized submissions.
 * Processor faults are in reconcile.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../schema/routes.js'
import { base, get, processorLedger, token } from '../support/service.js'

const mcpCall = (body: unknown) =>
  fetch(`${base()}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  })

describe('double-spend over MCP', () => {
  it('behavior: 20 concurrent tools/call with one credential settle once and deliver once', async () => {
    const unpaid = (await (
      await mcpCall({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'fde_playbook', arguments: {} },
      })
    ).json()) as { result: { _meta: Record<string, { challenges: unknown[] }> } }
    const challenge = unpaid.result._meta['org.paymentauth/payment-required']?.challenges[0]
    const spt = token()
    const before = await processorLedger()
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, id) => {
        const r = await mcpCall({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'fde_playbook',
            arguments: {},
            _meta: { 'org.paymentauth/credential': { challenge, payload: { spt } } },
          },
        })
        return (await r.json()) as {
          result?: { isError?: boolean; _meta?: Record<string, unknown> }
          error?: { code: number }
        }
      }),
    )
    const delivered = answers.filter((a) => a.result?._meta?.['org.paymentauth/receipt'])
    expect(delivered).toHaveLength(1)
    // The other 19 (no Idempotency-Key) are refused in band with the problem and no challenge,
    // which would invite a second payment; none is a JSON-RPC error.
    const refused = answers.filter(
      (a) =>
        a.result?.isError &&
        !a.result._meta?.['org.paymentauth/payment-required'] &&
        a.result._meta?.['org.paymentauth/problem'],
    )
    expect(refused).toHaveLength(19)
    expect(answers.filter((a) => a.error)).toHaveLength(0)
    const after = await processorLedger()
    expect(after.calls - before.calls).toBe(1)
  })
})

describe('submissions under abuse', () => {
  it('behavior: 1,000 malformed or oversized submissions store nothing and never 5xx', async () => {
    const before = ((await (await get('/v1/pricing/aggregates')).json()) as { submissions: number })
      .submissions
    const bad: [string, Record<string, string>][] = [
      ['{"category":"toasters","pricing_model":"flat","entry_usd_month":1}', {}],
      ['{"category":"other","pricing_model":"flat"}', {}],
      ['{"category":"other","pricing_model":"flat","entry_usd_month":-1}', {}],
      ['{"category":"other","pricing_model":"flat","entry_usd_month":"9"}', {}],
      ['{"category":"other","pricing_model":"flat","entry_usd_month":1,"admin":true}', {}],
      ['{"category":"other","pricing_model":"flat","entry_usd_month":1e999}', {}],
      ['[1,2,3]', {}],
      ['not json', {}],
      ['{"category":"other","pricing_model":"flat","entry_usd_month":1}', { 'content-type': 'text/plain' }],
      [`{"category":"other","pricing_model":"flat","entry_usd_month":1,"note":"${'x'.repeat(20_000)}"}`, {}],
    ]
    const statuses = new Map<number, number>()
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const [body, headers] = bad[(batch * 50 + i) % bad.length] as [string, Record<string, string>]
          const r = await fetch(`${base()}/v1/pricing/submit`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'cf-connecting-ip': `10.7.${batch}.${i}`,
              ...headers,
            },
            body,
          })
          await r.body?.cancel()
          return r.status
        }),
      )
      for (const s of answers) statuses.set(s, (statuses.get(s) ?? 0) + 1)
    }
    expect([...statuses.keys()].sort()).toEqual([400, 413, 415])
    const after = ((await (await get('/v1/pricing/aggregates')).json()) as { submissions: number })
      .submissions
    expect(after).toBe(before)
  })
})

describe('documented examples', () => {
  for (const route of ROUTES.filter((r) => r.params.length && r.method === 'GET'))
    it(`behavior: the example query of ${route.path} is answered, not refused`, async () => {
      const query = route.params.map((p) => `${p.name}=${encodeURIComponent(p.example)}`).join('&')
      const r = await get(`${route.path}?${query}`)
      expect(r.status).toBe(route.access === 'paid' ? 402 : 200)
    })
})

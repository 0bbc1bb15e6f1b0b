/**
 * One payment is one (challenge id, token) pair (#36 M1): whatever else the echoed credential
 * carries (the unbound description, extra members, member order), the same token on the same
 * challenge is the same payment, answered as a copy and never with a fresh challenge; a second
 * token on a challenge already being paid is a 409 with no challenge; and the challenge handed back
 * while a card waits for its extra step is byte for byte the one issued, over HTTP and MCP.
 */
import { describe, expect, inject, it } from 'vitest'
import { type Challenge, parseChallenge } from '../../gateway/payment/challenge.js'
import { base, decodeReceipt, get, processorLedger, token, until } from '../support/service.js'

const standinUrl = () => inject('processorUrl')

/** `Authorization: Payment …` of exactly this JSON (no library normalising it on the way). */
const raw = (credential: unknown) =>
  `Payment ${Buffer.from(JSON.stringify(credential)).toString('base64url')}`

async function issued(path: string) {
  const r = await get(path)
  expect(r.status).toBe(402)
  const header = cardChallenge(r.headers.get('www-authenticate'))
  return { header, challenge: parseChallenge(header).challenge }
}

/** The card's challenge among the header's challenges (one per way to pay). */
function cardChallenge(header: string | null): string {
  const card = (header ?? '').split(/,\s*(?=Payment\s)/).find((c) => /method="stripe"/.test(c))
  if (!card) throw new Error('no card challenge')
  return card
}

const withoutDescription = ({ description: _d, ...rest }: Challenge) => rest

async function paid(path: string, auth: string, key?: string) {
  const r = await get(path, { headers: { authorization: auth, ...(key ? { 'idempotency-key': key } : {}) } })
  return { r, text: await r.text() }
}

describe('the same token on the same challenge, encoded differently', () => {
  const path = '/v1/fde-lessons?topic=deploy'
  const variants: [string, (c: Challenge, spt: string) => unknown][] = [
    ['without the description', (c, spt) => ({ challenge: withoutDescription(c), payload: { spt } })],
    ['with an extra challenge member', (c, spt) => ({ challenge: { ...c, extra: 'x' }, payload: { spt } })],
    ['with an extra payload member', (c, spt) => ({ challenge: c, payload: { spt, type: 'spt' } })],
    [
      'with its members in another order',
      (c, spt) => ({ payload: { spt }, challenge: Object.fromEntries(Object.entries(c).reverse()) }),
    ],
  ]
  for (const [name, encode] of variants)
    it(`behavior: ${name}, under the answered key, gets the same answer and no charge`, async () => {
      const { challenge } = await issued(path)
      const spt = token()
      const key = `identity-${Math.random().toString(36).slice(2)}`
      const first = await paid(path, raw({ challenge, payload: { spt } }), key)
      expect(first.r.status).toBe(200)
      const before = await processorLedger()
      const again = await paid(path, raw(encode(challenge, spt)), key)
      expect(again.r.status).toBe(200)
      expect(again.r.headers.get('www-authenticate')).toBeNull()
      expect(again.text).toBe(first.text)
      expect(again.r.headers.get('payment-receipt')).toBe(first.r.headers.get('payment-receipt'))
      expect((await processorLedger()).calls).toBe(before.calls)
    })

  it('behavior: re-encoded while the first try is still in flight, it waits for that try, one charge', async () => {
    const { challenge } = await issued(path)
    const spt = token('stall')
    const key = `identity-flight-${Math.random().toString(36).slice(2)}`
    const first = paid(path, raw({ challenge, payload: { spt } }), key)
    // The copy must reach the ledger while the first is held: wait until the stand-in holds the token.
    await until(async () => (await processorLedger()).stalled.includes(spt))
    const copy = paid(path, raw({ challenge: withoutDescription(challenge), payload: { spt } }), key)
    await fetch(`${standinUrl()}/__standin/release/${spt}`, { method: 'POST' })
    const [a, b] = await Promise.all([first, copy])
    expect(a.r.status).toBe(200)
    expect(b.r.status).toBe(200)
    expect(b.text).toBe(a.text)
    expect((await processorLedger()).succeeded[spt]).toMatch(/^pi_/)
  })
})

describe('a second token on a challenge already being paid', () => {
  it('error: after the first token settled, it is a 409 with no challenge, and is never charged', async () => {
    const path = '/v1/pricing?category=voice-agent'
    const { challenge } = await issued(path)
    expect((await paid(path, raw({ challenge, payload: { spt: token() } }))).r.status).toBe(200)
    const second = token()
    const { r } = await paid(path, raw({ challenge, payload: { spt: second } }))
    expect(r.status).toBe(409)
    expect(r.headers.get('www-authenticate')).toBeNull()
    expect((await processorLedger()).succeeded[second]).toBeUndefined()
  })

  it('error: while the first token waits for its extra step, it is a 409 with no challenge', async () => {
    const path = '/v1/fde-playbooks?topic=rollback'
    const { challenge } = await issued(path)
    const waiting = await paid(path, raw({ challenge, payload: { spt: token('action') } }))
    expect(waiting.r.status).toBe(402)
    const before = await processorLedger()
    const { r } = await paid(path, raw({ challenge, payload: { spt: token() } }))
    expect(r.status).toBe(409)
    expect(r.headers.get('www-authenticate')).toBeNull()
    expect((await processorLedger()).calls).toBe(before.calls)
  })
})

describe('3-D Secure: the challenge handed back', () => {
  it('behavior: over HTTP it is byte for byte the one issued, and paying it with the same token delivers', async () => {
    const path = '/v1/fde-playbooks?topic=deploy'
    const { header, challenge } = await issued(path)
    const spt = token('action')
    const key = `identity-3ds-${Math.random().toString(36).slice(2)}`
    const waiting = await paid(path, raw({ challenge, payload: { spt } }), key)
    expect(waiting.r.status).toBe(402)
    // Exactly one challenge: the one this credential answers, never a fresh one beside it.
    const handedBack = waiting.r.headers.get('www-authenticate') as string
    expect(handedBack).toBe(header)
    const intent = /pi_[A-Za-z0-9_]+/.exec(JSON.parse(waiting.text).detail as string)?.[0]
    expect((await fetch(`${standinUrl()}/__standin/complete/${intent}`, { method: 'POST' })).status).toBe(200)
    // The credential a client builds from what it was last handed, with the same token and key.
    const again = await paid(
      path,
      raw({ challenge: parseChallenge(handedBack).challenge, payload: { spt } }),
      key,
    )
    expect(again.r.status).toBe(200)
    // Delivered on the intent that waited: the one charge, no second intent.
    expect(decodeReceipt(again.r.headers.get('payment-receipt')).reference).toBe(intent)
  })

  it('behavior: over MCP it is the issued challenge, member for member', async () => {
    const call = async (meta?: Record<string, unknown>) => {
      const r = await fetch(`${base()}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'fde_playbook', arguments: {}, ...(meta ? { _meta: meta } : {}) },
        }),
      })
      return (await r.json()) as { result: { _meta: Record<string, { challenges: unknown[] }> } }
    }
    const unpaid = await call()
    const offered = unpaid.result._meta['org.paymentauth/payment-required']?.challenges[0]
    const waiting = await call({
      'org.paymentauth/credential': { challenge: offered, payload: { spt: token('action') } },
    })
    const handedBack = waiting.result._meta['org.paymentauth/payment-required']?.challenges[0]
    expect(JSON.stringify(handedBack)).toBe(JSON.stringify(offered))
  })
})

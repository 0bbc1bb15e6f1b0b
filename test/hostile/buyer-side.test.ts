/**
 * The buyer's side of the promise: nothing settles a payment that cannot deliver its answer
 * (HEAD, a conditional request), every challenge is the buyer's own, and a hostile credential is a
 * clear 402, never a 500 or an engine message.
 */
import { describe, expect, it } from 'vitest'
import { FAILED_PAYMENTS_PER_MINUTE } from '../../gateway/payment/failure-window.js'
import { encodeText } from '../../schema/base64url.js'
import { authorization, challengeFrom, get, processorLedger, token } from '../support/service.js'

const PROBLEMS = 'https://paymentauth.org/problems/'

describe('nothing settles without delivering', () => {
  it('behavior: HEAD with a credential offers no challenge (#36) and leaves the credential unused', async () => {
    const path = '/v1/fde-lessons?topic=config'
    const challenge = challengeFrom(await get(path))
    const spt = token()
    const auth = { authorization: authorization(challenge, { spt }) }
    const before = await processorLedger()
    const head = await get(path, { method: 'HEAD', headers: auth })
    expect(head.status).toBe(405)
    expect(head.headers.get('allow')).toBe('GET')
    expect(head.headers.get('www-authenticate')).toBeNull()
    expect(head.headers.get('payment-receipt')).toBeNull()
    expect((await processorLedger()).calls).toBe(before.calls)
    // The same credential still buys the answer with GET.
    const paid = await get(path, { headers: auth })
    expect(paid.status).toBe(200)
    expect((await paid.text()).length).toBeGreaterThan(0)
  })

  it('behavior: If-None-Match on a paid route never turns a payment into a 304', async () => {
    const path = '/v1/fde-lessons?topic=verify'
    const first = challengeFrom(await get(path))
    const paid = await get(path, { headers: { authorization: authorization(first, { spt: token() }) } })
    expect(paid.status).toBe(200)
    const etag = paid.headers.get('etag') as string
    expect(etag).toBeTruthy()
    const second = challengeFrom(await get(path))
    const again = await get(path, {
      headers: { authorization: authorization(second, { spt: token() }), 'if-none-match': etag },
    })
    expect(again.status).toBe(200)
    expect(await again.text()).toBe(await paid.text())
  })
})

describe('challenges', () => {
  it('behavior: 50 concurrent challenges for one request are 50 distinct ids', async () => {
    const ids = await Promise.all(
      Array.from({ length: 50 }, async () => challengeFrom(await get('/v1/fde-playbooks')).id),
    )
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe('hostile credentials', () => {
  const path = '/v1/fde-playbooks'
  /** A credential for a real challenge of `path`, with `mutate` applied to its JSON text. */
  async function hostile(mutate: (json: string) => string) {
    const challenge = challengeFrom(await get(path))
    const honest = authorization(challenge, { spt: token() }).replace(/^Payment /, '')
    const json = Buffer.from(honest, 'base64url').toString('utf8')
    return `Payment ${encodeText(mutate(json))}`
  }
  const cases: [string, (json: string) => string][] = [
    ['a number JSON cannot hold in the payload', (j) => j.replace(/"payload":\{/, '"payload":{"n":1e400,')],
    [
      'a number JSON cannot hold in the echoed challenge',
      (j) => j.replace(/"challenge":\{/, '"challenge":{"x":-1e400,'),
    ],
    [
      'deep nesting in the payload',
      (j) => j.replace(/"payload":\{/, `"payload":{"n":${'['.repeat(1000)}${']'.repeat(1000)},`),
    ],
    ['the request echoed as an object', (j) => j.replace(/"request":"[^"]*"/, '"request":{"amount":"50"}')],
    // Past the 8 KB cap, yet under the 16 KB header limit of common servers.
    ['a credential of 9 KB', (j) => j.replace(/"payload":\{/, `"payload":{"pad":"${'x'.repeat(9_000)}",`)],
  ]
  for (const [name, mutate] of cases)
    it(`error: ${name} is 402 malformed-credential with a fresh challenge, no processor call`, async () => {
      const before = await processorLedger()
      const r = await get(path, { headers: { authorization: await hostile(mutate) } })
      expect(r.status).toBe(402)
      const body = (await r.json()) as { type: string; detail: string }
      expect(body.type).toBe(`${PROBLEMS}malformed-credential`)
      expect(body.detail).not.toMatch(/JCS|non-finite|stack|TypeError|RangeError/i)
      expect(r.headers.get('www-authenticate')).toMatch(/^Payment /)
      expect((await processorLedger()).calls).toBe(before.calls)
    })
})

describe('failed payment attempts', () => {
  const path = '/v1/fde-playbooks'
  const from = (ip: string, init: RequestInit = {}) =>
    get(path, { ...init, headers: { ...(init.headers as Record<string, string>), 'cf-connecting-ip': ip } })
  async function pay(ip: string, spt: string) {
    const challenge = challengeFrom(await from(ip))
    return from(ip, { headers: { authorization: authorization(challenge, { spt }) } })
  }

  it('error: a client past the failure limit gets 429 before the processor; others are unaffected', async () => {
    const attacker = `198.51.100.${process.pid % 250}`
    for (let i = 0; i < FAILED_PAYMENTS_PER_MINUTE; i++)
      expect((await pay(attacker, token('decline'))).status).toBe(402)
    const before = await processorLedger()
    const limited = await pay(attacker, token())
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    const body = (await limited.json()) as { type: string; detail: string }
    expect(body.type).toMatch(/too-many-failed-attempts$/)
    expect((await processorLedger()).calls).toBe(before.calls)
    expect((await pay('203.0.113.7', token())).status).toBe(200)
  })

  it('behavior: a buyer who pays successfully is never limited, however often it pays', async () => {
    const buyer = '192.0.2.44'
    for (let i = 0; i < FAILED_PAYMENTS_PER_MINUTE * 2; i++)
      expect((await pay(buyer, token())).status).toBe(200)
  })
})

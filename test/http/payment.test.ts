/**
 * The 402 flow over HTTP against the running service: challenge, settlement, receipt, and every
 * refusal of the table in draft-httpauth-payment-01 §4.2, each with no payload and no extra charge.
 */
import { Challenge, Credential } from 'mppx'
import { describe, expect, it } from 'vitest'
import { CHALLENGE_TTL_MS } from '../../schema/config.js'
import { PAYMENT_TOKEN_SUMMARY } from '../../schema/payment-token.js'
import { WALLET_PAYMENT_SUMMARY } from '../../schema/wallet-payment.js'
import {
  authorization,
  base,
  challengeFrom,
  decodeReceipt,
  get,
  hmacSecret,
  PAID_PATHS,
  payOnce,
  processorLedger,
  token,
} from '../support/service.js'

const PROBLEMS = 'https://paymentauth.org/problems/'

async function expectRefusal(response: Response, problem: string) {
  expect(response.status).toBe(402)
  expect(response.headers.get('content-type')).toBe('application/problem+json')
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(response.headers.get('payment-receipt')).toBeNull()
  const body = (await response.json()) as Record<string, unknown>
  expect(body.type).toBe(`${PROBLEMS}${problem}`)
  // A refusal carries a challenge and never any part of the payload.
  expect(response.headers.get('www-authenticate')).toMatch(/^Payment /)
  expect(body.challengeId).toBe(challengeFrom(response).id)
  // A card waiting for its extra step may still pay: send the same credential, never pay again.
  expect(body.retryable).toBe(problem === 'payment-action-required' ? 'same-credential' : 'pay-again')
  // Where the token a credential carries comes from, in every 402.
  expect(body.payment_help).toBe(PAYMENT_TOKEN_SUMMARY)
  for (const key of ['rules', 'playbooks', 'checklist', 'rows', 'corrections'])
    expect(body).not.toHaveProperty(key)
  return body
}

/** How long a Link wallet gives its holder to approve a spend request: an outside fact. */
const LINK_APPROVAL_MS = 30 * 60_000

describe('unpaid calls', () => {
  for (const path of PAID_PATHS)
    it(`behavior: ${path} answers 402 with a Payment challenge`, async () => {
      const asked = Date.now()
      const r = await get(path)
      const answered = Date.now()
      expect(r.status).toBe(402)
      // An RFC 9457 problem, as draft-httpauth-payment-01 §8.1 and its examples serve it.
      expect(r.headers.get('content-type')).toBe('application/problem+json')
      expect(r.headers.get('cache-control')).toBe('no-store')
      const challenge = challengeFrom(r)
      expect(challenge).toMatchObject({ method: 'stripe', intent: 'charge', realm: new URL(base()).host })
      expect(challenge.request).toMatchObject({
        amount: '50',
        currency: 'usd',
        methodDetails: { paymentMethodTypes: ['card'] },
      })
      // Issued while the request was open, with the life the service states (the expiry is kept to
      // the second, hence the 1 s below); bracketed by the request, so a slow machine changes nothing.
      const expires = Date.parse(challenge.expires as string)
      expect(expires).toBeGreaterThanOrEqual(asked + CHALLENGE_TTL_MS - 1000)
      expect(expires).toBeLessThanOrEqual(answered + CHALLENGE_TTL_MS)
      // Long enough for a Link wallet's approval (30 minutes).
      expect(CHALLENGE_TTL_MS).toBeGreaterThanOrEqual(LINK_APPROVAL_MS)
      const body = (await r.json()) as Record<string, unknown>
      expect(body).toEqual({
        type: `${PROBLEMS}payment-required`,
        title: 'Payment Required',
        status: 402,
        detail: expect.any(String),
        retryable: 'pay-again',
        challengeId: challenge.id,
        payment_help: PAYMENT_TOKEN_SUMMARY,
        // The same 402 offers the wallet rail to a buyer with only a key.
        wallet_help: WALLET_PAYMENT_SUMMARY,
        // And its offer in x402 v1's form, which v1 clients read from the body.
        x402Version: 1,
        accepts: [
          expect.objectContaining({ scheme: 'exact', maxAmountRequired: '500000', network: 'base-sepolia' }),
        ],
        error: body.detail,
      })
    })
})

describe('paid calls', () => {
  it('behavior: a paid credential gets the payload, a receipt and Cache-Control private, no-store', async () => {
    const { paid, challenge } = await payOnce('/v1/fde-lessons?topic=retry')
    expect(paid.status).toBe(200)
    // Bound to one credential: no shared cache keeps it, and no cache writes it to disk.
    expect(paid.headers.get('cache-control')).toBe('private, no-store')
    const receipt = decodeReceipt(paid.headers.get('payment-receipt'))
    expect(receipt).toMatchObject({ status: 'success', method: 'stripe', challengeId: challenge.id })
    expect(receipt.reference).toMatch(/^pi_/)
    const body = (await paid.json()) as { rules: { tags: string[] }[]; count: number }
    expect(body.count).toBe(body.rules.length)
    expect(body.rules.length).toBeGreaterThan(0)
    for (const rule of body.rules) expect(rule.tags).toContain('retry')
  })

  it('behavior: the receipt reference is the PaymentIntent the processor created for the token', async () => {
    const { paid, spt } = await payOnce('/v1/fde-playbooks')
    const receipt = decodeReceipt(paid.headers.get('payment-receipt'))
    expect((await processorLedger()).succeeded[spt]).toBe(receipt.reference)
  })
})

/** A settled credential sent again without its key: 409, no challenge (nothing invites a second payment). */
async function expectAlreadyAccepted(response: Response) {
  expect(response.status).toBe(409)
  expect(response.headers.get('www-authenticate')).toBeNull()
  expect(response.headers.get('payment-receipt')).toBeNull()
  const body = (await response.json()) as Record<string, unknown>
  expect(body.type).toMatch(/\/payment-already-accepted$/)
  // Sent first without an Idempotency-Key: the answer cannot be sent again, and the body says so.
  expect(body.retryable).toBe(false)
  expect(body.detail).toMatch(/cannot be sent again/)
  return body
}

describe('refused credentials', () => {
  it('error: a replayed credential is refused without a challenge and not charged again', async () => {
    const { auth, paid } = await payOnce('/v1/fde-preship-checklist?phase=verifying')
    expect(paid.status).toBe(200)
    const before = await processorLedger()
    await expectAlreadyAccepted(
      await get('/v1/fde-preship-checklist?phase=verifying', { headers: { authorization: auth } }),
    )
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('error: a second token on an already paid challenge is refused (409, no challenge) and never charged', async () => {
    const { challenge, paid } = await payOnce('/v1/pricing')
    expect(paid.status).toBe(200)
    const second = token()
    const r = await get('/v1/pricing', {
      headers: { authorization: authorization(challenge, { spt: second }) },
    })
    expect(r.status).toBe(409)
    expect(r.headers.get('www-authenticate')).toBeNull()
    expect(((await r.json()) as { retryable: unknown }).retryable).toBe(false)
    expect((await processorLedger()).succeeded[second]).toBeUndefined()
  })

  it('error: a credential for another query or route is refused before any charge', async () => {
    const challenge = challengeFrom(await get('/v1/fde-lessons?topic=retry'))
    const before = await processorLedger()
    for (const other of ['/v1/fde-lessons?topic=deploy', '/v1/fde-lessons', '/v1/fde-playbooks']) {
      const spt = token()
      await expectRefusal(
        await get(other, { headers: { authorization: authorization(challenge, { spt }) } }),
        'invalid-challenge',
      )
    }
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('behavior: the same query written differently is the same request', async () => {
    const challenge = challengeFrom(await get('/v1/fde-lessons?topic=retry'))
    const r = await get('/v1/fde-lessons?topic=RETRY', {
      headers: { authorization: authorization(challenge, { spt: token() }) },
    })
    expect(r.status).toBe(200)
  })

  it('error: a forged challenge id is refused', async () => {
    const challenge = challengeFrom(await get('/v1/fde-lessons'))
    const forged = { ...challenge, id: `${challenge.id.slice(0, -2)}AA` }
    await expectRefusal(
      await get('/v1/fde-lessons', { headers: { authorization: authorization(forged, { spt: token() }) } }),
      'invalid-challenge',
    )
  })

  it('error: a tampered amount is refused, signed with our secret or not', async () => {
    const challenge = challengeFrom(await get('/v1/fde-lessons'))
    const cheaper = { ...challenge, request: { ...challenge.request, amount: '1' } }
    await expectRefusal(
      await get('/v1/fde-lessons', { headers: { authorization: authorization(cheaper, { spt: token() }) } }),
      'invalid-challenge',
    )
    // Re-signed with the real secret, so only the server's check of the offer itself can refuse it.
    const { id: _oldId, ...cheaperFields } = cheaper
    const resigned = Challenge.from({ ...cheaperFields, secretKey: hmacSecret() } as unknown as Parameters<
      typeof Challenge.from
    >[0])
    expect(resigned.id).not.toBe(challenge.id)
    const before = await processorLedger()
    await expectRefusal(
      await get('/v1/fde-lessons', { headers: { authorization: authorization(resigned, { spt: token() }) } }),
      'invalid-challenge',
    )
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('error: an expired challenge is refused as payment-expired', async () => {
    const challenge = challengeFrom(await get('/v1/fde-lessons'))
    const { id: _id, ...fields } = challenge
    const expired = Challenge.from({
      ...fields,
      expires: new Date(Date.now() - 1000).toISOString(),
      secretKey: hmacSecret(),
    } as unknown as Parameters<typeof Challenge.from>[0])
    await expectRefusal(
      await get('/v1/fde-lessons', { headers: { authorization: authorization(expired, { spt: token() }) } }),
      'payment-expired',
    )
  })

  it('error: a declined card is refused as verification-failed', async () => {
    const { paid } = await payOnce('/v1/fde-lessons', token('decline'))
    await expectRefusal(paid, 'verification-failed')
  })

  it('error: a card needing 3-D Secure is refused as payment-action-required, with its own challenge, not a fresh one', async () => {
    const { paid, challenge } = await payOnce('/v1/fde-lessons', token('action'))
    const body = await expectRefusal(paid.clone(), 'payment-action-required')
    expect(challengeFrom(paid).id).toBe(challenge.id)
    expect(body.challengeId).toBe(challenge.id)
  })

  for (const kind of ['timeout', 'error'])
    it(`error: a processor ${kind} answers 503 with Retry-After and no payload`, async () => {
      const { paid } = await payOnce('/v1/fde-lessons', token(kind))
      expect(paid.status).toBe(503)
      expect(paid.headers.get('retry-after')).toBe('5')
      expect(paid.headers.get('payment-receipt')).toBeNull()
      expect(paid.headers.get('www-authenticate')).toBeNull()
      expect(paid.headers.get('content-type')).toBe('application/problem+json')
      const body = (await paid.json()) as Record<string, unknown>
      expect(body.type).toBe(`${PROBLEMS}internal-payment-error`)
      expect(body.retryable).toBe('same-credential')
      expect(body).not.toHaveProperty('rules')
    })

  it('error: a malformed credential is refused as malformed-credential', async () => {
    for (const header of [
      'Payment !!!not-base64',
      'Payment e30',
      `Payment ${Buffer.from('[1]').toString('base64url')}`,
    ])
      await expectRefusal(
        await get('/v1/fde-lessons', { headers: { authorization: header } }),
        'malformed-credential',
      )
  })

  it('error: a payload without a shared payment token is refused as invalid-payload', async () => {
    const challenge = challengeFrom(await get('/v1/fde-lessons'))
    const header = Credential.serialize(Credential.from({ challenge, payload: { spt: 'pm_card_visa' } }))
    await expectRefusal(
      await get('/v1/fde-lessons', { headers: { authorization: header } }),
      'invalid-payload',
    )
  })

  it('behavior: 50 concurrent copies of one credential settle once and deliver once', async () => {
    const challenge = challengeFrom(await get('/v1/fde-lessons?topic=cache'))
    const spt = token()
    const header = authorization(challenge, { spt })
    const before = await processorLedger()
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        get('/v1/fde-lessons?topic=cache', { headers: { authorization: header } }),
      ),
    )
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    // Copies without a key wait for the one settlement, then are told the answer went elsewhere
    // (409), or, if they could not wait, to come back (503): never a fresh challenge.
    expect(statuses.filter((s) => s === 409 || s === 503)).toHaveLength(49)
    for (const r of responses) expect(r.headers.get('www-authenticate')).toBeNull()
    const after = await processorLedger()
    expect(after.calls - before.calls).toBe(1)
    expect(after.succeeded[spt]).toMatch(/^pi_/)
  })
})

describe('no charge for a request that cannot succeed', () => {
  const cases: [string, number][] = [
    ['/v1/fde-lessons?topic=no-such-topic', 404],
    ['/v1/fde-lessons?topic=bad%20topic', 400],
    ['/v1/fde-lessons?colour=blue', 400],
    ['/v1/fde-lessons?topic=retry&topic=deploy', 400],
    ['/v1/fde-preship-checklist?phase=part-ix', 400],
    ['/v1/pricing?category=toasters', 400],
    ['/v1/pricing/changes?since=2026-13-45', 400],
    ['/v1/pricing/changes?since=yesterday', 400],
    ['/v1/pricing/changes?since=2999-01-01', 400],
  ]
  for (const [path, status] of cases)
    it(`error: ${path} answers ${status} before any challenge`, async () => {
      const r = await get(path)
      expect(r.status).toBe(status)
      expect(r.headers.get('www-authenticate')).toBeNull()
      expect(r.headers.get('content-type')).toBe('application/problem+json')
      const body = (await r.json()) as Record<string, unknown>
      expect(body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) })
      expect(typeof body.type).toBe('string')
    })

  it('error: a topic that matches nothing lists the valid topics', async () => {
    const body = (await (await get('/v1/fde-lessons?topic=no-such-topic')).json()) as { allowed: string[] }
    const catalogue = (await (await get('/v1/catalogue')).json()) as {
      topics: { tag: string; rules: number }[]
    }
    const withPaidRules = new Set(body.allowed)
    expect(withPaidRules.has('retry')).toBe(true)
    for (const tag of body.allowed) expect(catalogue.topics.map((t) => t.tag)).toContain(tag)
  })
})

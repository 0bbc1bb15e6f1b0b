/**
 * The wallet rail keeps the card rail's money guarantees: no paid bytes without a settlement,
 * nothing settled twice, `retryable` on every refusal, and an unknown settlement (a facilitator
 * that stalls, fails or answers nothing) resolved by reading the authorization's state on the
 * chain, never guessed. Every buyer is a freshly generated key; the stand-in chain is the judge.
 */
import { keccak256, toHex } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { decodeReceipt, get, until } from '../support/service.js'
import {
  authorizationFor,
  evmChallenge,
  freshBuyer,
  LOCAL_TOKEN,
  paymentSignature,
  release,
  setBalance,
  setFault,
  settlementsFrom,
  sign,
  walletCredential,
  x402Accepted,
  x402Payment,
} from '../support/wallet.js'

const PATH = '/v1/fde-lessons?topic=retry'
const now = () => Math.floor(Date.now() / 1000)

async function challengeFor(path = PATH) {
  const r = await get(path)
  expect(r.status).toBe(402)
  return { challenge: evmChallenge(r), required: r.headers.get('payment-required') as string }
}

/** A fresh challenge's wallet credential signed by `buyer`, sent under an Idempotency-Key of its own. */
async function keyedCredential(buyer: PrivateKeyAccount, key: string) {
  const { challenge } = await challengeFor()
  return {
    authorization: await walletCredential(buyer, challenge),
    'idempotency-key': `${key}-${buyer.address}`,
  }
}

/** A refusal: a problem with retryable, and none of the paid payload. */
async function expectRefused(r: Response, status: number, problem: string, retryable: string | false) {
  const body = (await r.json()) as Record<string, unknown>
  expect(r.status, JSON.stringify(body)).toBe(status)
  expect(String(body.type)).toMatch(new RegExp(`${problem}$`))
  expect(body.retryable).toBe(retryable)
  expect(r.headers.get('payment-receipt')).toBeNull()
  expect(body).not.toHaveProperty('items')
  return body
}

describe('wallet rail: a credential that cannot pay is refused before any settlement', () => {
  const cases: [string, (c: ReturnType<typeof evmChallenge>) => object, object, string][] = [
    ['a wrong amount', () => ({ value: '400000' }), {}, 'verification-failed'],
    [
      'a wrong recipient',
      () => ({ to: '0x000000000000000000000000000000000000dEaD' }),
      {},
      'verification-failed',
    ],
    [
      'a wrong token',
      () => ({}),
      { verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      'verification-failed',
    ],
    ['a wrong chain', () => ({}), { chainId: 8453 }, 'verification-failed'],
    ['an expired window', () => ({ validBefore: String(now() - 1) }), {}, 'payment-expired'],
    [
      'a window that outlives the challenge',
      () => ({ validBefore: String(now() + 3 * 3600) }),
      {},
      'verification-failed',
    ],
    ['a window not yet open', () => ({ validAfter: String(now() + 600) }), {}, 'verification-failed'],
    [
      "another challenge's nonce",
      () => ({ nonce: keccak256(toHex('another challenge')) }),
      {},
      'verification-failed',
    ],
  ]
  for (const [name, overrides, domain, problem] of cases)
    it(`refusal: ${name} gets 402 ${problem}, pay-again, and nothing is settled`, async () => {
      const buyer = freshBuyer()
      const { challenge } = await challengeFor()
      const auth = await walletCredential(buyer, challenge, overrides(challenge), domain)
      const r = await get(PATH, { headers: { authorization: auth } })
      await expectRefused(r, 402, problem, 'pay-again')
      expect(r.headers.get('www-authenticate')).toMatch(/method="evm"/)
      expect(await settlementsFrom(buyer.address)).toHaveLength(0)
    })

  it('refusal: a credential for another request (another path) is refused and settles nothing', async () => {
    const buyer = freshBuyer()
    const { challenge } = await challengeFor('/v1/fde-playbooks')
    const r = await get(PATH, { headers: { authorization: await walletCredential(buyer, challenge) } })
    await expectRefused(r, 402, 'invalid-challenge', 'pay-again')
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })

  it('refusal: an unfunded buyer gets 402 verification-failed, pay-again, and nothing is settled', async () => {
    const buyer = freshBuyer()
    await setBalance(buyer.address, 0n)
    const { challenge } = await challengeFor()
    const r = await get(PATH, { headers: { authorization: await walletCredential(buyer, challenge) } })
    const body = await expectRefused(r, 402, 'verification-failed', 'pay-again')
    expect(String(body.detail)).toMatch(/unused|nothing was transferred/)
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })

  it('refusal: x402 requirements echoed with another amount are refused and settle nothing', async () => {
    const buyer = freshBuyer()
    const { required } = await challengeFor()
    const accepted = { ...x402Accepted(required), amount: '1' }
    const { header } = await x402Payment(buyer, accepted, `${Math.random()}`)
    const r = await get(PATH, { headers: { 'payment-signature': header } })
    await expectRefused(r, 402, 'invalid-challenge', 'pay-again')
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })
})

describe('wallet rail: one authorization pays one answer', () => {
  it('money: a replayed credential is never settled twice and never invited to pay again', async () => {
    const buyer = freshBuyer()
    const { challenge } = await challengeFor()
    const auth = await walletCredential(buyer, challenge)
    expect((await get(PATH, { headers: { authorization: auth } })).status).toBe(200)
    const again = await get(PATH, { headers: { authorization: auth } })
    await expectRefused(again, 409, 'payment-already-accepted', false)
    expect(again.headers.get('www-authenticate')).toBeNull()
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })

  it('money: an x402 authorization re-wrapped for another challenge is refused, on either wire', async () => {
    const buyer = freshBuyer()
    const first = await challengeFor()
    const payment = await x402Payment(buyer, x402Accepted(first.required), `x402 ${buyer.address}`)
    const paid = await get(PATH, { headers: { 'payment-signature': payment.header } })
    expect(paid.status).toBe(200)
    // The same signed authorization, echoing a fresh challenge's requirements.
    const second = await challengeFor()
    const { authorization, signature } = payment
    const rewrapped = paymentSignature(x402Accepted(second.required), { authorization, signature })
    const r = await get(PATH, { headers: { 'payment-signature': rewrapped } })
    const body = await expectRefused(r, 402, 'invalid-challenge', 'pay-again')
    expect(String(body.detail)).toMatch(/another request/)
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })

  it('money: an MPP-wire authorization sent again on the x402 wire for a new challenge is refused', async () => {
    const buyer = freshBuyer()
    const { challenge } = await challengeFor()
    const a = authorizationFor(buyer, challenge)
    const signature = await sign(buyer, a)
    const auth = await walletCredential(buyer, challenge)
    expect((await get(PATH, { headers: { authorization: auth } })).status).toBe(200)
    const fresh = await challengeFor()
    const payment = paymentSignature(x402Accepted(fresh.required), { authorization: a, signature })
    const r = await get(PATH, { headers: { 'payment-signature': payment } })
    await expectRefused(r, 402, 'invalid-challenge', 'pay-again')
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })

  it('money: the same credential under the same Idempotency-Key gets the same bytes and receipt', async () => {
    const buyer = freshBuyer()
    const headers = await keyedCredential(buyer, 'w')
    const first = await get(PATH, { headers })
    const again = await get(PATH, { headers })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(await again.text()).toBe(await first.text())
    expect(again.headers.get('payment-receipt')).toBe(first.headers.get('payment-receipt'))
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })

  it('money: on the x402 wire the same payment payload and Idempotency-Key get the same bytes and receipt', async () => {
    const buyer = freshBuyer()
    const { required } = await challengeFor()
    const payment = await x402Payment(buyer, x402Accepted(required), `resend ${buyer.address}`)
    const headers = { 'payment-signature': payment.header, 'idempotency-key': `x-${buyer.address}` }
    const first = await get(PATH, { headers })
    const again = await get(PATH, { headers })
    expect(first.status).toBe(200)
    expect(await again.text()).toBe(await first.text())
    expect(again.headers.get('payment-receipt')).toBe(first.headers.get('payment-receipt'))
    expect(again.headers.get('payment-response')).toBe(first.headers.get('payment-response'))
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })

  it("refusal: an x402 payment echoing another resource's requirements is refused and settles nothing", async () => {
    const buyer = freshBuyer()
    const { required } = await challengeFor('/v1/fde-playbooks')
    const payment = await x402Payment(buyer, x402Accepted(required), `elsewhere ${buyer.address}`)
    const r = await get(PATH, { headers: { 'payment-signature': payment.header } })
    await expectRefused(r, 402, 'invalid-challenge', 'pay-again')
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })

  it('refusal: both Authorization: Payment and PAYMENT-SIGNATURE is a 400 naming the field, nothing settled', async () => {
    const buyer = freshBuyer()
    const { challenge, required } = await challengeFor()
    const auth = await walletCredential(buyer, challenge)
    const r = await get(PATH, {
      headers: { authorization: auth, 'payment-signature': paymentSignature(x402Accepted(required), {}) },
    })
    expect(r.status).toBe(400)
    expect(await r.json()).toMatchObject({ field: 'PAYMENT-SIGNATURE', retryable: 'same-credential' })
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })

  it('refusal: a PAYMENT-SIGNATURE that is not an x402 payload is 402 malformed-credential, never a 500', async () => {
    for (const value of [
      'not base64 json',
      Buffer.from('{"x402Version":1}').toString('base64'),
      Buffer.from('[]').toString('base64'),
    ]) {
      const r = await get(PATH, { headers: { 'payment-signature': value } })
      await expectRefused(r, 402, 'malformed-credential', 'pay-again')
    }
  })

  it('money: concurrent copies of one credential settle once and all get the same answer', async () => {
    const buyer = freshBuyer()
    const headers = await keyedCredential(buyer, 'c')
    const send = async () => {
      let r = await get(PATH, { headers })
      // A copy that could not wait is told to come back (503, same credential), never to pay.
      while (r.status === 503) {
        expect(r.headers.get('www-authenticate')).toBeNull()
        await new Promise((done) => setTimeout(done, 200))
        r = await get(PATH, { headers })
      }
      return { status: r.status, body: await r.text(), receipt: r.headers.get('payment-receipt') }
    }
    const answers = await Promise.all(Array.from({ length: 6 }, send))
    for (const a of answers) expect(a).toEqual(answers[0])
    expect(answers[0]?.status).toBe(200)
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })
})

describe('wallet rail: a facilitator that stalls, fails or answers nothing', () => {
  async function pending(fault: 'stall' | 'fail' | 'lost' | 'silent') {
    const buyer = freshBuyer()
    await setFault(buyer.address, fault)
    const headers = await keyedCredential(buyer, 'f')
    const first = await get(PATH, { headers })
    const body = await expectRefused(first, 503, 'internal-payment-error', 'same-credential')
    expect(first.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(first.headers.get('www-authenticate')).toBeNull()
    expect(String(body.detail)).toMatch(/cannot be charged twice/)
    return { buyer, headers }
  }

  /** The same credential again: delivered, its receipt naming the one settlement the chain holds. */
  async function deliveredOnce(buyer: { address: string }, headers: Record<string, string>) {
    const paid = await get(PATH, { headers })
    expect(paid.status).toBe(200)
    const settled = await settlementsFrom(buyer.address)
    expect(settled).toHaveLength(1)
    expect(decodeReceipt(paid.headers.get('payment-receipt')).reference).toBe(settled[0]?.transaction)
  }

  it('money: a failing facilitator (503) settles nothing; the same credential pays once it is back', async () => {
    const { buyer, headers } = await pending('fail')
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
    await setFault(buyer.address, null)
    await deliveredOnce(buyer, headers)
  })

  it('money: a stalled settlement that lands later is found on the chain and delivered, settled once', async () => {
    const { buyer, headers } = await pending('stall')
    await release(buyer.address)
    await until(async () => (await settlementsFrom(buyer.address)).length === 1)
    await setFault(buyer.address, null)
    await deliveredOnce(buyer, headers)
  })

  it('money: a settlement whose answer is lost is read from the chain (used) and delivered, never settled again', async () => {
    const { buyer, headers } = await pending('lost')
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
    await deliveredOnce(buyer, headers)
  })

  it('money: a facilitator that answers nothing and settles nothing leaves the authorization unused; the retry pays once', async () => {
    const { buyer, headers } = await pending('silent')
    // Still silent: the chain says unused and the window is open, so the outcome stays unknown.
    const still = await get(PATH, { headers })
    await expectRefused(still, 503, 'internal-payment-error', 'same-credential')
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
    await setFault(buyer.address, null)
    expect((await get(PATH, { headers })).status).toBe(200)
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })
})

describe('wallet rail configuration on the stand-in', () => {
  it('behavior: the challenge names the stand-in token, chain and decimals', async () => {
    const { challenge } = await challengeFor()
    expect(challenge.request).toMatchObject({
      amount: '500000',
      currency: LOCAL_TOKEN.address,
      methodDetails: { chainId: LOCAL_TOKEN.chainId, decimals: 6, credentialTypes: ['authorization'] },
    })
  })
})

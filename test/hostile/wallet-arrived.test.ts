/**
 * A wallet payment counts only when the price arrived (#42, red team 6 H1, M1, L2): the transaction
 * that used the authorization must move the price from the payer to the recipient. A nonce the
 * payer used some other way (cancelAuthorization, a 0-value transfer to himself, gas only, from a
 * wallet holding nothing) pays nothing and gets nothing; a facilitator's "settled" is believed only
 * when the chain bears it out; "broadcast, not mined yet" is pending, never a refusal.
 */
import { Credential } from 'mppx'
import { describe, expect, it } from 'vitest'
import { get } from '../support/service.js'
import {
  authorizationFor,
  burnNonce,
  evmChallenge,
  freshBuyer,
  mine,
  setBalance,
  setFault,
  settlementsFrom,
  sign,
  walletCredential,
  x402Accepted,
  x402Payment,
} from '../support/wallet.js'

const PATH = '/v1/fde-lessons?topic=retry'

/** No answer and no receipt: a problem with the given status, type and retry advice. */
async function expectNothingDelivered(r: Response, status: number, problem: string, retryable: string) {
  const body = (await r.json()) as Record<string, unknown>
  expect(r.status, JSON.stringify(body)).toBe(status)
  expect(String(body.type)).toMatch(new RegExp(`${problem}$`))
  expect(body.retryable).toBe(retryable)
  expect(r.headers.get('payment-receipt')).toBeNull()
  expect(r.headers.get('payment-response')).toBeNull()
  expect(body).not.toHaveProperty('items')
  return body
}

/** An empty wallet and an MPP credential for a fresh challenge, with the nonce that challenge fixes. */
async function emptyWalletCredential() {
  const buyer = freshBuyer()
  await setBalance(buyer.address, 0n)
  const challenge = evmChallenge(await get(PATH))
  const { nonce } = authorizationFor(buyer, challenge)
  const headers = {
    authorization: await walletCredential(buyer, challenge),
    'idempotency-key': `burn-${nonce}`,
  }
  return { buyer, nonce, headers }
}

describe('wallet rail: a nonce used without paying buys nothing (H1)', () => {
  for (const how of ['cancel', 'self'] as const)
    it(`money: MPP wire, the nonce burned first by ${how}, gets 402 and no answer; nothing reached the recipient`, async () => {
      const { buyer, nonce, headers } = await emptyWalletCredential()
      await burnNonce(buyer.address, nonce, how)
      const r = await get(PATH, { headers })
      const body = await expectNothingDelivered(r, 402, 'verification-failed', 'pay-again')
      expect(String(body.detail)).toMatch(/can never pay/)
      // Sent again: the same refusal, never an answer.
      await expectNothingDelivered(await get(PATH, { headers }), 402, 'verification-failed', 'pay-again')
      expect(await settlementsFrom(buyer.address)).toHaveLength(0)
    })

  it('money: x402 wire, the nonce burned first, gets 402 and no PAYMENT-RESPONSE', async () => {
    const buyer = freshBuyer()
    await setBalance(buyer.address, 0n)
    const accepted = x402Accepted((await get(PATH)).headers.get('payment-required') as string)
    const payment = await x402Payment(buyer, accepted, `burn-x402-${buyer.address}`)
    await burnNonce(buyer.address, payment.authorization.nonce, 'self')
    const r = await get(PATH, { headers: { 'payment-signature': payment.header } })
    await expectNothingDelivered(r, 402, 'verification-failed', 'pay-again')
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })

  it('money: the retry path, a pending payment whose nonce is burned before the retry, gets no answer', async () => {
    const { buyer, nonce, headers } = await emptyWalletCredential()
    await setBalance(buyer.address, 10n ** 8n)
    await setFault(buyer.address, 'silent')
    await expectNothingDelivered(
      await get(PATH, { headers }),
      503,
      'internal-payment-error',
      'same-credential',
    )
    await burnNonce(buyer.address, nonce, 'cancel')
    await setFault(buyer.address, null)
    await expectNothingDelivered(await get(PATH, { headers }), 402, 'verification-failed', 'pay-again')
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })
})

describe("wallet rail: the facilitator's word is read against the chain (M1, L2)", () => {
  it('money: "broadcast, not mined yet" is pending (503 same-credential), then one payment, one answer', async () => {
    const buyer = freshBuyer()
    await setFault(buyer.address, 'pending')
    const challenge = evmChallenge(await get(PATH))
    const headers = {
      authorization: await walletCredential(buyer, challenge),
      'idempotency-key': `p-${buyer.address}`,
    }
    const first = await get(PATH, { headers })
    await expectNothingDelivered(first, 503, 'internal-payment-error', 'same-credential')
    expect(first.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(first.headers.get('www-authenticate')).toBeNull()
    // Still in flight: still pending, never "pay again".
    await expectNothingDelivered(
      await get(PATH, { headers }),
      503,
      'internal-payment-error',
      'same-credential',
    )
    await mine(buyer.address)
    const paid = await get(PATH, { headers })
    expect(paid.status).toBe(200)
    const settled = await settlementsFrom(buyer.address)
    expect(settled).toHaveLength(1)
    expect(paid.headers.get('payment-receipt')).toBeTruthy()
  })

  it('money: a facilitator claiming a settlement the chain does not show delivers nothing', async () => {
    const buyer = freshBuyer()
    await setFault(buyer.address, 'fake')
    const challenge = evmChallenge(await get(PATH))
    const headers = {
      authorization: await walletCredential(buyer, challenge),
      'idempotency-key': `f-${buyer.address}`,
    }
    await expectNothingDelivered(
      await get(PATH, { headers }),
      503,
      'internal-payment-error',
      'same-credential',
    )
    await expectNothingDelivered(
      await get(PATH, { headers }),
      503,
      'internal-payment-error',
      'same-credential',
    )
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })
})

describe('wallet rail: a signature whose v is 0 or 1', () => {
  it('behavior: is sent to the token as 27 or 28 (all its ECRecover takes) and pays once', async () => {
    const buyer = freshBuyer()
    const challenge = evmChallenge(await get(PATH))
    const a = authorizationFor(buyer, challenge)
    const signature = await sign(buyer, a)
    const v = Number.parseInt(signature.slice(-2), 16) - 27
    const low = `${signature.slice(0, -2)}${v.toString(16).padStart(2, '0')}`
    const credential = Credential.serialize(
      Credential.from({ challenge, payload: { type: 'authorization', ...a, signature: low } }),
    )
    const r = await get(PATH, { headers: { authorization: credential } })
    expect(r.status, await r.clone().text()).toBe(200)
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })
})

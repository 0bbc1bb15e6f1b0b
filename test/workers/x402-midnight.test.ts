/**
 * M3 on the wallet wires (#36): `/v1/pricing/changes` without `since` resolves its default date
 * once, against the challenge's issue time (on x402 the expiry echoed in `accepted.extra`), so a
 * PAYMENT-SIGNATURE (or an MPP `evm` credential) paid before 00:00 UTC and re-sent after it binds
 * the same request and gets its kept answer, also once the authorization itself has lapsed. The
 * clock is injected: the request pieces the gateway composes (gateway/index.ts,
 * gateway/payment/http.ts) run at chosen times against the real ledger.
 */
import { env, runInDurableObject } from 'cloudflare:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { PREPARE } from '../../gateway/datasets/answers.js'
import type { Env } from '../../gateway/env.js'
import { normaliseQuery } from '../../gateway/payment/binding.js'
import { issueChallenge } from '../../gateway/payment/challenge.js'
import { formatAuthorization, parseAuthorization } from '../../gateway/payment/credential.js'
import { authorizationIdentity, challengeNonce } from '../../gateway/payment/evm/check.js'
import { challengeFromAccepted, evmOffer } from '../../gateway/payment/evm/offer.js'
import { x402Requirements } from '../../gateway/payment/evm/request.js'
import { type WalletPayment, walletPayment } from '../../gateway/payment/evm/verify.js'
import { decodePaymentSignature } from '../../gateway/payment/evm/x402-wire.js'
import { echoedExpires, ledgerOf } from '../../gateway/payment/http.js'
import type { PaymentConfig } from '../../gateway/payment/methods.js'
import { pay } from '../../gateway/payment/pay.js'
import { paymentIdentity } from '../../gateway/payment/payment-identity.js'
import { defaultsClock } from '../../gateway/payment/request-clock.js'
import type { LedgerRecord } from '../../gateway/payment/retention.js'
import { CHALLENGE_TTL_MS } from '../../schema/config.js'
import { TRANSFER_TYPES } from '../../schema/eip3009.js'
import { testClient, testEvm, testPayment } from '../support/payment-config.js'

const DAY = 24 * 60 * 60 * 1000
const gateway = env as unknown as Env
const evm = testEvm
const config = testPayment satisfies PaymentConfig

// A midnight two days ahead of the real clock, so every alarm the ledger sets lies ahead of it.
const midnight = Math.ceil(Date.now() / DAY) * DAY + 2 * DAY
const paidAt = midnight - 20_000
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
// One correction inside the 30-day window on both sides of midnight.
const data = {
  changes: { corrections: [{ date: day(paidAt - 10 * DAY) }] },
  pricing: { latest_correction: day(paidAt - 10 * DAY) },
} as never

/** The binding GET /v1/pricing/changes (no `since`) gets when its default resolves at `clock`. */
function bindingAt(clock: number) {
  const prepared = PREPARE.changes?.(data, {}, clock)
  if (!prepared?.ok) throw new Error('the changes window is empty')
  return { via: 'http' as const, target: 'GET /v1/pricing/changes', query: normaliseQuery(prepared.filters) }
}

type Wire = WalletPayment['wire']
const randomNonce = () =>
  `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')}`

/**
 * A wallet buyer's payment for a challenge issued at `issuedAt`: on the x402 wire its
 * PAYMENT-SIGNATURE as @x402/fetch signs it (a random nonce), on the MPP wire its
 * `Authorization: Payment` credential (the challenge's nonce).
 */
async function paymentAt(issuedAt: number, wire: Wire) {
  const challenge = await issueChallenge(config, evmOffer(evm), bindingAt(issuedAt), 'Changes', issuedAt)
  const accepted = x402Requirements(evm, challenge)
  const buyer = privateKeyToAccount(generatePrivateKey())
  const authorization = {
    from: buyer.address as string,
    to: evm.recipient,
    value: accepted.amount,
    validAfter: '0',
    validBefore: String(Math.floor(issuedAt / 1000) + evm.maxTimeoutSeconds),
    nonce: wire === 'mpp' ? challengeNonce(challenge.id, challenge.realm) : randomNonce(),
  }
  const signature = await buyer.signTypedData({
    domain: {
      name: evm.tokenName,
      version: evm.tokenVersion,
      chainId: evm.chainId,
      verifyingContract: evm.token as `0x${string}`,
    },
    types: TRANSFER_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: authorization.from as `0x${string}`,
      to: authorization.to as `0x${string}`,
      value: BigInt(authorization.value),
      validAfter: 0n,
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce as `0x${string}`,
    },
  })
  const headers: Record<string, string> =
    wire === 'x402'
      ? {
          'payment-signature': btoa(
            JSON.stringify({ x402Version: 2, accepted, payload: { authorization, signature } }),
          ),
        }
      : {
          authorization: formatAuthorization({
            challenge,
            payload: { type: 'authorization', ...authorization, signature },
          }),
        }
  return { challenge, authorization, token: authorizationIdentity(evm, authorization), headers }
}

/** The wallet payment a request carries, as gateway/payment/http.ts reads it on either wire. */
function paymentOf(request: Request): WalletPayment {
  const x402 = request.headers.get('payment-signature')
  if (!x402) return walletPayment(parseAuthorization(request.headers.get('authorization') ?? ''))
  const decoded = decodePaymentSignature(x402)
  const echoed = challengeFromAccepted(config, evm, decoded.accepted)
  if (typeof echoed === 'string') throw new Error(echoed)
  const { authorization, signature, accepted } = decoded
  return { echoed, authorization, signature, wire: 'x402', accepted }
}

/** The request as the gateway reads it at `now`: its default's clock, its binding, its payment. */
async function sendAt(headers: Record<string, string>, now: number) {
  const request = new Request('https://service.example/v1/pricing/changes', {
    headers: { ...headers, 'idempotency-key': 'lost-answer' },
  })
  const clock = defaultsClock(echoedExpires(request), CHALLENGE_TTL_MS, now)
  const payment = paymentOf(request)
  const binding = bindingAt(clock)
  const settled = await pay(config, ledgerOf(gateway), payment, binding, testClient, 'lost-answer', now)
  return { binding, settled }
}

const ledgerObject = (challengeId: string) => gateway.LEDGER.get(gateway.LEDGER.idFromName(challengeId))

describe('the changes window on the wallet wires, across 00:00 UTC', () => {
  for (const wire of ['x402', 'mpp'] as const)
    it(`money: ${wire}: a payment settled at 23:59:50 and re-sent after midnight, then after its authorization lapsed, gets its kept answer`, async () => {
      const { challenge, authorization, token, headers } = await paymentAt(paidAt, wire)
      // The day changes the default: asked fresh after midnight, it would be another request.
      expect(bindingAt(midnight + 10_000).query).not.toBe(bindingAt(paidAt).query)
      // What the first call left: the authorization claimed, the payment settled, its answer kept.
      const settledAt = paidAt + 10_000
      await gateway.LEDGER.get(gateway.LEDGER.idFromName(`token:${token}`)).claimToken(
        challenge.id,
        Number(authorization.validBefore) * 1000,
      )
      const receipt = {
        status: 'success' as const,
        method: 'evm',
        timestamp: new Date(settledAt).toISOString(),
        reference: '0xsettled',
        challengeId: challenge.id,
        amount: '500000',
        currency: evm.token,
      }
      const record: LedgerRecord = {
        payment: paymentIdentity(challenge.id, token),
        state: 'settled',
        firstAttemptAt: settledAt,
        expiresAt: Date.parse(challenge.expires as string),
        intentId: receipt.reference,
        receipt,
        settledAt,
        idempotencyKey: 'lost-answer',
      }
      await runInDurableObject(ledgerObject(challenge.id), (_, state) => state.storage.put('record', record))
      const kept = { body: '{"since":"the bytes sold"}', headers: { 'payment-receipt': 'r' } }
      await ledgerObject(challenge.id).keepAnswer('lost-answer', kept)

      // 00:00:10, the authorization still valid; 00:20, long after its validBefore (00:04:40).
      for (const at of [midnight + 10_000, midnight + 20 * 60_000]) {
        const { binding, settled } = await sendAt(headers, at)
        expect(binding, new Date(at).toISOString()).toEqual(bindingAt(paidAt))
        expect(settled, new Date(at).toISOString()).toEqual({ ok: true, receipt, repeat: { answer: kept } })
      }
    })

  for (const wire of ['x402', 'mpp'] as const)
    it(`refusal: ${wire}: a lapsed authorization that paid nothing is payment-expired, and nothing is claimed for it`, async () => {
      const { challenge, token, headers } = await paymentAt(paidAt, wire)
      const { settled } = await sendAt(headers, midnight + 20 * 60_000)
      expect(settled.ok).toBe(false)
      if (!settled.ok)
        expect(settled.refusal).toMatchObject({ problem: 'payment-expired', retryable: 'pay-again' })
      const stored = (name: string, key: string) =>
        runInDurableObject(gateway.LEDGER.get(gateway.LEDGER.idFromName(name)), (_, state) =>
          state.storage.get(key),
        )
      expect(await stored(challenge.id, 'record')).toBeUndefined()
      expect(await stored(`token:${token}`, 'token-claim')).toBeUndefined()
    })
})

/**
 * The wallet method's check of a payment, on any wire: the MPP `evm` credential
 * (`Authorization: Payment`) or the x402 payment payload (`PAYMENT-SIGNATURE`, or v1's `X-PAYMENT`).
 * Its challenge is the core's to verify first (pay.ts: HMAC, offer, request binding); then the
 * authorization is checked here, in the Worker, and names the one payment the ledger claims, which
 * for a new claim claims the authorization for this challenge (durably, across every wire) beside
 * the client's budget places, then the challenge, and only then settles through the facilitator.
 */
import { canonicalize } from '../../../schema/jcs.js'
import type { Challenge } from '../challenge.js'
import { type Credential, MalformedCredential } from '../credential.js'
import type { MethodWords } from '../method.js'
import { type Refusal, refusal } from '../problems.js'
import type { TransferAuthorization } from './authorization.js'
import { type CheckedAuthorization, challengeNonce, checkAuthorization } from './check.js'
import type { EvmConfig } from './config.js'
import { atomicAmount, EVM_METHOD, x402Requirements } from './request.js'

/** How the wallet's refusals name its settlement. */
export const WALLET_WORDS: MethodWords = { settlement: 'transaction' }

export interface WalletPayment {
  /** The challenge the payment answers, with its request as issued (a string). */
  echoed: Challenge
  authorization: TransferAuthorization
  signature: unknown
  /**
   * `mpp`: the nonce must be the challenge's hash. `x402`: `accepted` must be this challenge's offer.
   * `x402-v1`: the challenge was derived from the payment and this request (x402-v1.ts).
   */
  wire: 'mpp' | 'x402' | 'x402-v1'
  /** x402 only: the requirements the client echoed. */
  accepted?: Record<string, unknown>
}

/**
 * The payment an authorization makes, once its challenge is verified (its expiry `expiresAt`), or
 * why it makes none: the authorization must pay this offer (exactly, on the x402 wire), carry the
 * challenge's nonce (on the MPP wire), be signed by its payer and end soon after the challenge.
 */
export function walletClaim(evm: EvmConfig, payment: WalletPayment, expiresAt: number, now: number) {
  const { echoed } = payment
  const requirements = x402Requirements(evm, echoed)
  if (payment.wire === 'x402' && !sameOffer(payment.accepted, requirements))
    return refusal(
      'invalid-challenge',
      'accepted must be the payment requirements offered for this request, unchanged (amount, asset, payTo, network, extra)',
    )
  const checked = checkAuthorization(
    evm,
    payment.authorization,
    payment.signature,
    now,
    payment.wire === 'mpp' ? challengeNonce(echoed.id, echoed.realm) : undefined,
  )
  if (!checked.ok && !checked.lapsed) return refusal(checked.problem, checked.detail)
  // A lapsed authorization can pay nothing new, but the payment it made may have lost its answer:
  // the ledger re-sends that, and refuses anything else as expired. Nothing new is claimed for it.
  const lapsed = checked.ok ? undefined : checked.detail
  const { authorization, signature, token } = checked.ok
    ? checked.checked
    : (checked.lapsed as CheckedAuthorization)
  // An authorization outliving its challenge by more than the x402 timeout could be settled long
  // after anyone could tell whether its answer was delivered: refused before it is claimed.
  const latest = Math.floor(expiresAt / 1000) + evm.maxTimeoutSeconds
  if (BigInt(authorization.validBefore) > BigInt(latest))
    return refusal(
      'verification-failed',
      `validBefore must be at most ${latest} (the challenge's expiry plus ${evm.maxTimeoutSeconds} s)`,
    )

  const amount = atomicAmount(evm.decimals)
  const wallet = {
    evm,
    paymentPayload: { x402Version: 2, accepted: requirements, payload: { authorization, signature } },
    paymentRequirements: requirements,
    from: authorization.from,
    nonce: authorization.nonce,
    amount,
    validBefore: authorization.validBefore,
  }
  // One authorization pays one challenge, whichever wire carries it: the ledger claims it for a new
  // claim, beside its places and before any settlement. A lapsed one claims nothing new.
  const claimable =
    lapsed === undefined
      ? { tokenClaim: { token, keepUntil: Number(authorization.validBefore) * 1000 } }
      : { unclaimable: lapsed }
  // The payment is the challenge and the authorization (its token), nothing else of the credential.
  return { token, method: EVM_METHOD, amount, currency: evm.token, expiresAt, ...claimable, wallet }
}

export type WalletClaim = Exclude<ReturnType<typeof walletClaim>, Refusal>

/** An MPP credential for the wallet rail (method "evm"), its challenge's request as issued (a string). */
export function walletPayment(credential: Credential): WalletPayment {
  const p = credential.payload
  if (p.type !== 'authorization')
    throw new MalformedCredential(
      'payload.type must be "authorization" (an EIP-3009 transferWithAuthorization)',
    )
  return {
    echoed: credential.challenge,
    authorization: {
      from: String(p.from),
      to: String(p.to),
      value: String(p.value),
      validAfter: String(p.validAfter),
      validBefore: String(p.validBefore),
      nonce: String(p.nonce),
    },
    signature: p.signature,
    wire: 'mpp',
  }
}

/** Whether echoed requirements are the offer, member for member (JCS compares them whatever the order). */
function sameOffer(accepted: unknown, offered: unknown): boolean {
  try {
    return canonicalize(accepted) === canonicalize(JSON.parse(JSON.stringify(offered)))
  } catch {
    // Numbers JSON cannot round-trip: not what was offered.
    return false
  }
}

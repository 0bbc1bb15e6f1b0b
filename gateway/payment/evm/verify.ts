/**
 * Pays a request with an EIP-3009 authorization, on any wire: the MPP `evm` credential
 * (`Authorization: Payment`) or the x402 payment payload (`PAYMENT-SIGNATURE`, or v1's `X-PAYMENT`). Order, as for the
 * card: the challenge (HMAC, offer, request binding) → the authorization (Worker check) → the
 * ledger, which for a new claim claims the authorization for this challenge (durably, across both
 * wires) beside the client's budget places, then claims the challenge and only then settles
 * through the facilitator.
 */
import { canonicalize } from '../../../schema/jcs.js'
import type { Binding } from '../binding.js'
import { type Challenge, verifyEchoedChallenge } from '../challenge.js'
import { type Ledger, type PaymentConfig, refused, type Settlement, settlePayment } from '../pay.js'
import type { TransferAuthorization } from './authorization.js'
import { evmOffer } from './offer.js'
import { type CheckedAuthorization, challengeNonce, checkAuthorization } from './check.js'
import type { EvmConfig } from './config.js'
import { atomicAmount, EVM_METHOD, x402Requirements } from './request.js'

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

export async function payWithAuthorization(
  config: PaymentConfig,
  evm: EvmConfig,
  ledger: Ledger,
  payment: WalletPayment,
  binding: Binding,
  /** The paying client's key (client-key.ts). */
  client: string,
  idempotencyKey?: string,
  now = Date.now(),
): Promise<Settlement> {
  const { echoed } = payment
  const challenge = await verifyEchoedChallenge(config, evmOffer(evm), echoed, binding)
  if (!challenge.ok) return challenge
  const { expiresAt } = challenge
  const requirements = x402Requirements(evm, echoed)
  if (payment.wire === 'x402' && !sameOffer(payment.accepted, requirements))
    return refused(
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
  if (!checked.ok && !checked.lapsed) return refused(checked.problem, checked.detail)
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
    return refused(
      'verification-failed',
      `validBefore must be at most ${latest} (the challenge's expiry plus ${evm.maxTimeoutSeconds} s)`,
    )

  const wallet = {
    evm,
    paymentPayload: { x402Version: 2, accepted: requirements, payload: { authorization, signature } },
    paymentRequirements: requirements,
    from: authorization.from,
    nonce: authorization.nonce,
    amount: atomicAmount(evm.decimals),
    validBefore: authorization.validBefore,
  }
  // The payment is the challenge and the authorization (its token), nothing else of the credential.
  const claim = { token, method: EVM_METHOD, amount: atomicAmount(evm.decimals), currency: evm.token }
  // One authorization pays one challenge, whichever wire carries it: the ledger claims it for a new
  // claim, beside its places and before any settlement. A lapsed one claims nothing new.
  const unclaimable =
    lapsed === undefined
      ? { tokenClaim: { token, keepUntil: Number(authorization.validBefore) * 1000 } }
      : { unclaimable: lapsed }
  return settlePayment(
    config,
    ledger,
    client,
    echoed,
    { ...claim, expiresAt, ...unclaimable, wallet },
    idempotencyKey,
    now,
  )
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

/**
 * The wallet rail's offer (method "evm", its charge request), which every challenge of the rail
 * carries, and the challenge rebuilt from what an x402 client echoes in its accepted requirements.
 */
import { encodeText } from '../../../schema/base64url.js'
import { canonicalize } from '../../../schema/jcs.js'
import { type Challenge, INTENT, type Offer } from '../challenge.js'
import type { EvmConfig } from './config.js'
import { EVM_METHOD, evmChargeRequest } from './request.js'

/** Each configuration's offer, encoded once: every paid call and every 402 names it. */
const offers = new WeakMap<EvmConfig, Offer>()

export function evmOffer(evm: EvmConfig): Offer {
  let offer = offers.get(evm)
  if (!offer) {
    offer = { method: EVM_METHOD, request: encodeText(canonicalize(evmChargeRequest(evm))) }
    offers.set(evm, offer)
  }
  return offer
}

/** The challenge an x402 payment names in `accepted.extra`, or why it names none. */
export function challengeFromAccepted(
  config: { realm: string },
  evm: EvmConfig,
  accepted: Record<string, unknown>,
): Challenge | string {
  const extra = accepted.extra as Record<string, unknown> | undefined
  const { challengeId: id, expires, opaque } = extra ?? {}
  if (typeof id !== 'string' || typeof expires !== 'string' || typeof opaque !== 'string')
    return 'accepted.extra must echo the challengeId, expires and opaque of the PAYMENT-REQUIRED offer'
  const { method, request } = evmOffer(evm)
  return { id, realm: config.realm, method, intent: INTENT, request, expires, opaque }
}

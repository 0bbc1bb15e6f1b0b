/**
 * The wallet rail's challenge: method "evm", intent "charge", bound to the request exactly as the
 * card's is (opaque, HMAC id, expiry), and the same challenge rebuilt from what an x402 client
 * echoes in its accepted requirements.
 */
import { encodeText } from '../../../schema/base64url.js'
import { canonicalize } from '../../../schema/jcs.js'
import { type Binding, opaqueFor } from '../binding.js'
import type { Challenge } from '../challenge.js'
import { challengeId } from '../challenge-id.js'
import type { PaymentConfig } from '../charge.js'
import type { EvmConfig } from './config.js'
import { EVM_METHOD, evmChargeRequest } from './request.js'

export const encodedEvmRequest = (evm: EvmConfig) => encodeText(canonicalize(evmChargeRequest(evm)))

export async function issueEvmChallenge(
  config: PaymentConfig,
  evm: EvmConfig,
  binding: Binding,
  description: string,
  now = Date.now(),
): Promise<Challenge> {
  const fields = {
    realm: config.realm,
    method: EVM_METHOD,
    intent: 'charge',
    request: encodedEvmRequest(evm),
    expires: new Date(now + config.challengeTtlMs).toISOString(),
    opaque: opaqueFor(binding),
  }
  return { id: await challengeId(config.hmacSecret, fields), ...fields, description }
}

/** The challenge an x402 payment names in `accepted.extra`, or why it names none. */
export function challengeFromAccepted(
  config: PaymentConfig,
  evm: EvmConfig,
  accepted: Record<string, unknown>,
): Challenge | string {
  const extra = accepted.extra as Record<string, unknown> | undefined
  const { challengeId: id, expires, opaque } = extra ?? {}
  if (typeof id !== 'string' || typeof expires !== 'string' || typeof opaque !== 'string')
    return 'accepted.extra must echo the challengeId, expires and opaque of the PAYMENT-REQUIRED offer'
  return {
    id,
    realm: config.realm,
    method: EVM_METHOD,
    intent: 'charge',
    request: encodedEvmRequest(evm),
    expires,
    opaque,
  }
}

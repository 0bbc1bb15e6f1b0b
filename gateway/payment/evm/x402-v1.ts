/**
 * The x402 v1 wire, still used by the legacy `x402` client packages: the offer is the 402 body's
 * `{x402Version: 1, accepts, error}`, the payment comes back in `X-PAYMENT` (base64 JSON
 * `{x402Version: 1, scheme, network, payload: {signature, authorization}}`), and the settlement goes
 * out in `X-PAYMENT-RESPONSE`. v1 names networks by name, not CAIP-2.
 *
 * A v1 payment echoes nothing of the offer it answers, so it cannot name a challenge. It is paid
 * through the same path as the v2 wire (evm/verify.ts) by translation: its challenge is derived from
 * the payment itself, bound to this request (`opaque`, with the authorization's nonce as its nonce)
 * and expiring with the authorization. The same X-PAYMENT sent again derives the same challenge, so
 * a re-send is judged by the ledger like any other (its answer again under its Idempotency-Key, or
 * 409), and an authorization sent to another request derives another challenge, which the
 * authorization's claim refuses.
 */
import { encodeText } from '../../../schema/base64url.js'
import { canonicalize } from '../../../schema/jcs.js'
import type { Binding } from '../binding.js'
import { type Challenge, type ChallengeConfig, INTENT } from '../challenge.js'
import { challengeId } from '../challenge-id.js'
import { MalformedCredential } from '../credential.js'
import type { TransferAuthorization } from './authorization.js'
import type { EvmConfig } from './config.js'
import { evmOffer } from './offer.js'
import { atomicAmount } from './request.js'
import { authorizationFields, isObject, x402HeaderObject } from './x402-wire.js'

export const X_PAYMENT_HEADER = 'x-payment'
export const X_PAYMENT_RESPONSE_HEADER = 'x-payment-response'

/** Far above an honest payment payload (about 1 KB), as for the other wires. */
const MAX_X_PAYMENT_BYTES = 8 * 1024

/** The EVM networks x402 v1 names (x402 1.2.0's list), by chain id. */
const V1_NETWORKS: Record<number, string> = {
  8453: 'base',
  84532: 'base-sepolia',
  43114: 'avalanche',
  43113: 'avalanche-fuji',
  137: 'polygon',
  80002: 'polygon-amoy',
  1329: 'sei',
  1328: 'sei-testnet',
  4689: 'iotex',
  2741: 'abstract',
  11124: 'abstract-testnet',
  3338: 'peaq',
  1514: 'story',
  41923: 'educhain',
}

/** The v1 name of the configured chain, or undefined where v1 has none (no v1 offer then). */
export const v1Network = (evm: Pick<EvmConfig, 'chainId'>): string | undefined => V1_NETWORKS[evm.chainId]

/** What a v1 offer describes of the route: its URL, what it sells, and (optional) how to call it. */
export interface V1Resource {
  url: string
  description: string
  /** x402 v1's discovery field: how to call the route and what it answers. */
  outputSchema?: Record<string, unknown>
}

/** The v1 payment requirements for the wallet offer, or undefined where v1 names no such chain. */
export function v1Requirements(evm: EvmConfig, resource: V1Resource) {
  const network = v1Network(evm)
  if (!network) return undefined
  return {
    scheme: 'exact',
    network,
    maxAmountRequired: atomicAmount(evm.decimals),
    resource: resource.url,
    description: resource.description,
    mimeType: 'application/json',
    ...(resource.outputSchema ? { outputSchema: resource.outputSchema } : {}),
    payTo: evm.recipient,
    maxTimeoutSeconds: evm.maxTimeoutSeconds,
    asset: evm.token,
    extra: { name: evm.tokenName, version: evm.tokenVersion },
  }
}

export interface V1Payment {
  network: string
  authorization: TransferAuthorization
  signature: unknown
}

/** Parses `X-PAYMENT`; anything but an x402 v1 `exact` EIP-3009 payload is malformed. */
export function decodeXPayment(header: string): V1Payment {
  const value = x402HeaderObject('X-PAYMENT', header, MAX_X_PAYMENT_BYTES)
  if (value.x402Version !== 1) throw new MalformedCredential('X-PAYMENT: x402Version must be 1')
  if (value.scheme !== 'exact') throw new MalformedCredential('X-PAYMENT: scheme must be "exact"')
  const { payload, network } = value
  if (typeof network !== 'string') throw new MalformedCredential('X-PAYMENT: network must be a network name')
  if (!isObject(payload) || !isObject(payload.authorization))
    throw new MalformedCredential('X-PAYMENT: payload.authorization must be an EIP-3009 authorization')
  return {
    network,
    authorization: authorizationFields(payload.authorization),
    signature: payload.signature,
  }
}

/** When a v1 payment's derived challenge expires: with its authorization (validBefore), if that is a time. */
export function v1Expires(authorization: TransferAuthorization): string | undefined {
  const seconds = Number(authorization.validBefore)
  if (!Number.isSafeInteger(seconds) || seconds <= 0) return undefined
  return new Date(seconds * 1000).toISOString()
}

/**
 * The challenge a v1 payment answers, derived from the payment and this request; or why it answers
 * none. An authorization may not outlive the most a challenge's could (its life and the x402
 * timeout): it could otherwise be settled long after anyone could tell whether its answer was sent.
 */
export async function v1Challenge(
  config: ChallengeConfig,
  evm: EvmConfig,
  payment: V1Payment,
  binding: Binding,
  now = Date.now(),
): Promise<Challenge | string> {
  if (payment.network !== v1Network(evm))
    return `X-PAYMENT: network must be ${v1Network(evm) ?? 'a network this service offers on x402 v1'}`
  const expires = v1Expires(payment.authorization)
  if (!expires) return 'X-PAYMENT: payload.authorization.validBefore must be a time in seconds'
  const longest = Math.floor((now + config.challengeTtlMs) / 1000) + evm.maxTimeoutSeconds
  if (Number(payment.authorization.validBefore) > longest)
    return `X-PAYMENT: validBefore must be at most ${longest} (a challenge's life and the offer's maxTimeoutSeconds from now)`
  const { method, request } = evmOffer(evm)
  const opaque = encodeText(
    canonicalize({
      nonce: payment.authorization.nonce,
      query: binding.query,
      target: binding.target,
      via: binding.via,
    }),
  )
  const fields = { realm: config.realm, method, intent: INTENT, request, expires, opaque }
  return { id: await challengeId(config.hmacSecret, fields), ...fields }
}

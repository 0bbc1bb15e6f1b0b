/**
 * The x402 v2 HTTP wire beside the Payment scheme: `PAYMENT-REQUIRED` out on a 402 (base64 JSON
 * `{x402Version: 2, resource, accepts, error}`), `PAYMENT-SIGNATURE` in (the payment payload that
 * echoes the requirements it accepted), `PAYMENT-RESPONSE` out with the settlement. x402 encodes
 * its headers in standard base64 (RFC 4648 §4), not base64url.
 */
import { MalformedCredential } from '../credential.js'
import type { TransferAuthorization } from './authorization.js'

export const PAYMENT_REQUIRED_HEADER = 'payment-required'
export const PAYMENT_SIGNATURE_HEADER = 'payment-signature'
export const PAYMENT_RESPONSE_HEADER = 'payment-response'

/**
 * Far above an honest payment payload: about 1.5 KB, plus the bazaar extension x402 clients echo
 * from PAYMENT-REQUIRED (at most X402_DECLARATION_MAX_BYTES, build/stages/x402-discovery.ts).
 */
const MAX_PAYMENT_HEADER_BYTES = 16 * 1024

export interface X402Payment {
  /** The requirements the client accepted, echoed as it received them. */
  accepted: Record<string, unknown>
  authorization: TransferAuthorization
  signature: unknown
  resource?: { url?: unknown }
  /** The payload as sent, for the facilitator. */
  raw: Record<string, unknown>
}

function toBase64(text: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** Standard base64 of UTF-8 text, as both x402 wires write their headers. */
export function fromBase64(value: string): string {
  const binary = atob(value)
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
    Uint8Array.from(binary, (c) => c.charCodeAt(0)),
  )
}

/** The x402 v2 PaymentRequired object, without its version. */
export interface PaymentRequired {
  /** serviceName and tags: the bazaar's service metadata (x402 reads them from the resource). */
  resource: { url: string; description: string; mimeType: string; serviceName?: string; tags?: string[] }
  accepts: unknown[]
  error: string
  /** By extension key: `bazaar` tells a crawler how to call the route and what it answers. */
  extensions?: Record<string, unknown>
}

export function encodePaymentRequired(body: PaymentRequired): string {
  return toBase64(JSON.stringify({ x402Version: 2, ...body }))
}

export function encodePaymentResponse(body: {
  success: true
  transaction: string
  network: string
  payer: string
}): string {
  return toBase64(JSON.stringify(body))
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v)

/** The EIP-3009 authorization's fields as the checks read them, from either wire's payload. */
export const authorizationFields = (a: Record<string, unknown>): TransferAuthorization => ({
  from: String(a.from),
  to: String(a.to),
  value: String(a.value),
  validAfter: String(a.validAfter),
  validBefore: String(a.validBefore),
  nonce: String(a.nonce),
})

/**
 * An x402 payment header (either version) read as its JSON object: within `maxBytes`, base64 of a
 * JSON object, or MalformedCredential naming the header.
 */
export function x402HeaderObject(name: string, header: string, maxBytes: number): Record<string, unknown> {
  if (header.length > maxBytes) throw new MalformedCredential(`${name} is longer than ${maxBytes} bytes`)
  let value: unknown
  try {
    value = JSON.parse(fromBase64(header.trim()))
  } catch {
    throw new MalformedCredential(`${name} must be base64 of a JSON x402 payment payload`)
  }
  if (!isObject(value)) throw new MalformedCredential(`${name} must hold a JSON object`)
  return value
}

/** Parses `PAYMENT-SIGNATURE`; anything but an x402 v2 `exact` EIP-3009 payload is malformed. */
export function decodePaymentSignature(header: string): X402Payment {
  const value = x402HeaderObject('PAYMENT-SIGNATURE', header, MAX_PAYMENT_HEADER_BYTES)
  if (value.x402Version !== 2) throw new MalformedCredential('PAYMENT-SIGNATURE: x402Version must be 2')
  const { accepted, payload, resource } = value
  if (!isObject(accepted))
    throw new MalformedCredential('PAYMENT-SIGNATURE: accepted must be the requirements object')
  if (!isObject(payload) || !isObject(payload.authorization))
    throw new MalformedCredential(
      'PAYMENT-SIGNATURE: payload.authorization must be an EIP-3009 authorization (the exact scheme)',
    )
  return {
    accepted,
    authorization: authorizationFields(payload.authorization),
    signature: payload.signature,
    ...(isObject(resource) ? { resource } : {}),
    raw: value,
  }
}

/**
 * Signed receipts: a compact JWS (EdDSA over Ed25519, `kid` in the protected header) of the
 * receipt claims, and the digest of the bytes delivered (RFC 9530 `sha-256=:<base64>:`). WebCrypto
 * only, so it runs the same in workerd and Node; keys come in as JWKs.
 */

import { encodeBytes, encodeText } from '../../schema/base64url.js'
import type { ReceiptClaims } from '../../schema/receipt-claims.js'

export interface SigningKey {
  kid: string
  key: CryptoKey
}

/** An Ed25519 public JWK as published (no private member). */
export interface PublicJwk {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
  kid: string
  alg: 'EdDSA'
  use: 'sig'
}

/** Imports a private Ed25519 JWK (its shape is checked with the configuration, gateway/config.ts). */
export async function importSigningKey(jwk: { d: string; x: string; kid: string }): Promise<SigningKey> {
  const key = await crypto.subtle.importKey(
    'jwk',
    { kty: 'OKP', crv: 'Ed25519', d: jwk.d, x: jwk.x },
    { name: 'Ed25519' },
    false,
    ['sign'],
  )
  return { kid: jwk.kid, key }
}

/** The public half of a private JWK, as the key set publishes it. */
export function publicJwk(jwk: { x: string; kid: string }): PublicJwk {
  return { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: jwk.kid, alg: 'EdDSA', use: 'sig' }
}

/** RFC 9530 `sha-256=:<base64>:` of the UTF-8 bytes of `text` (the body exactly as sent). */
export async function contentDigest(text: string): Promise<string> {
  const data = new TextEncoder().encode(text)
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', data))
  let binary = ''
  for (const b of hash) binary += String.fromCharCode(b)
  return `sha-256=:${btoa(binary)}:`
}

export async function signReceipt(signing: SigningKey, claims: ReceiptClaims): Promise<string> {
  const header = encodeText(JSON.stringify({ alg: 'EdDSA', kid: signing.kid, typ: 'JWT' }))
  const payload = encodeText(JSON.stringify(claims))
  const input = new TextEncoder().encode(`${header}.${payload}`)
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, signing.key, input)
  return `${header}.${payload}.${encodeBytes(new Uint8Array(signature))}`
}

/**
 * The challenge id: HMAC-SHA256 over the bound parameters, so the server needs no store to
 * recognise its own challenges. Slot order follows mppx and the conformance vectors:
 * realm|method|intent|request|expires|digest[|header]|opaque (absent values are empty).
 * draft-httpauth-payment-01 §5.1.2.1.1 appends `header` after `opaque` instead; the two agree on
 * every challenge without `header`, and this service issues none (only the issuer checks an id).
 */
import { encodeBytes } from '../../schema/base64url.js'

export interface BoundFields {
  realm: string
  method: string
  intent: string
  /** The request as sent: base64url of its JCS form. */
  request: string
  expires?: string | undefined
  digest?: string | undefined
  opaque?: string | undefined
  header?: string | undefined
}

export const MIN_SECRET_BYTES = 32

const keys = new Map<string, Promise<CryptoKey>>()

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    )
    keys.set(secret, key)
  }
  return key
}

export function bindingInput(f: BoundFields): string {
  const slots = [f.realm, f.method, f.intent, f.request, f.expires ?? '', f.digest ?? '']
  // `Authorization` is the default field, so naming it explicitly binds nothing extra.
  if (f.header && f.header.toLowerCase() !== 'authorization') slots.push(f.header)
  slots.push(f.opaque ?? '')
  return slots.join('|')
}

export async function challengeId(secret: string, fields: BoundFields): Promise<string> {
  if (new TextEncoder().encode(secret).length < MIN_SECRET_BYTES)
    throw new RangeError(`the HMAC secret must be at least ${MIN_SECRET_BYTES} bytes`)
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret),
    new TextEncoder().encode(bindingInput(fields)),
  )
  return encodeBytes(new Uint8Array(mac))
}

/** Constant-time comparison of two ids, so a forger learns nothing from timing. */
export function sameId(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

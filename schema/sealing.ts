/**
 * Sealed bundles: the paid bundles ride with the Worker as static assets encrypted with
 * AES-256-GCM, so the Worker's own code stays small however much content there is, and no path or
 * encoding mistake in front of the asset store can hand out a readable paid byte.
 *
 * The key is derived from the paid content itself: it is exactly as secret as what it protects
 * (the content lives in the same private repository), equal content gives equal bytes (the build
 * stays reproducible), and any content change gives a new key. The key is compiled into the Worker
 * and never written to the public folder. Each bundle has its own nonce (from its name) under one
 * key, and its name is the authenticated data, so a sealed file cannot be swapped for another.
 * WebCrypto only: the build (Node) and the Worker (workerd) run the same code.
 */

import { decodeBytes, encodeBytes } from './base64url.js'

/** The asset folder of sealed bundles; the Worker runs first there and answers 404 (wrangler.jsonc). */
export const SEALED_ASSET_DIR = '/sealed/'

const KEY_LABEL = 'rules-pricing-index sealed bundles v1'
const NONCE_LABEL = 'rules-pricing-index sealed nonce v1'
const NONCE_BYTES = 12

const utf8 = new TextEncoder()

const digest = async (text: string) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(text)))

/** The sealing key (base64url) for one set of paid bundles. */
export async function sealingKeyFor(bundles: readonly { name: string; text: string }[]): Promise<string> {
  const ordered = [...bundles].sort((a, b) => a.name.localeCompare(b.name)).map((b) => [b.name, b.text])
  return encodeBytes(await digest(JSON.stringify([KEY_LABEL, ordered])))
}

const aesKey = (key: string, use: 'encrypt' | 'decrypt') =>
  crypto.subtle.importKey('raw', decodeBytes(key), 'AES-GCM', false, [use])

/** The sealed form of one bundle's text: base64url of nonce then ciphertext with its tag. */
export async function seal(key: string, name: string, text: string): Promise<string> {
  const iv = (await digest(`${NONCE_LABEL}\n${name}`)).slice(0, NONCE_BYTES)
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: utf8.encode(name) },
    await aesKey(key, 'encrypt'),
    utf8.encode(text),
  )
  const out = new Uint8Array(NONCE_BYTES + sealed.byteLength)
  out.set(iv)
  out.set(new Uint8Array(sealed), NONCE_BYTES)
  return encodeBytes(out)
}

/** The text of a sealed bundle; rejects a wrong key, a wrong name or any changed byte. */
export async function unseal(key: string, name: string, sealed: string): Promise<string> {
  const bytes = decodeBytes(sealed.trim())
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.slice(0, NONCE_BYTES), additionalData: utf8.encode(name) },
    await aesKey(key, 'decrypt'),
    bytes.slice(NONCE_BYTES),
  )
  return new TextDecoder().decode(plain)
}

/**
 * base64url without padding (RFC 4648 §5), strict: any character outside the alphabet is an error.
 */

const ALPHABET = /^[A-Za-z0-9_-]*$/

export class EncodingError extends Error {
  override name = 'EncodingError'
}

export function encodeBytes(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function encodeText(text: string): string {
  return encodeBytes(new TextEncoder().encode(text))
}

export function decodeBytes(encoded: string): Uint8Array<ArrayBuffer> {
  if (!ALPHABET.test(encoded) || encoded.length % 4 === 1) throw new EncodingError('not base64url')
  const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'))
  // A plain loop: Uint8Array.from with a mapping function is about 15× slower on a sealed bundle.
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** One strict decoder for every call: a whole-buffer decode keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/** Decodes to text, rejecting bytes that are not valid UTF-8 instead of replacing them. */
export function decodeText(encoded: string): string {
  try {
    return UTF8.decode(decodeBytes(encoded))
  } catch (error) {
    if (error instanceof EncodingError) throw error
    throw new EncodingError('not UTF-8')
  }
}

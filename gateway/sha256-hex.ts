/**
 * SHA-256 of a UTF-8 string as lowercase hex (WebCrypto): credential digests, salted submitter
 * hashes and the names of per-client objects in both Workers.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

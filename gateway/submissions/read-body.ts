/**
 * Reads a request body up to a byte limit. Content-Length is checked first (cheap refusal) but not
 * trusted: the stream is counted as it arrives and kept only up to `limit`, so a missing or false
 * header cannot make the Worker buffer more than `limit` + one chunk.
 *
 * A refused body is still read to its end (discarded, up to DRAIN_LIMIT) rather than cancelled
 * mid-stream: a sender still writing into a cancelled stream is what took the local proxy down
 * (a 2 MB body refused with 413, then nothing answered), and a drained body leaves the connection
 * clean for the next request.
 */

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'too-large' }

/** How much of a refused body is read and thrown away before giving up on the connection. */
const DRAIN_LIMIT = 8 * 1024 * 1024

export async function readBody(request: Request, limit: number): Promise<BodyRead> {
  const declared = request.headers.get('content-length')
  const declaredTooLarge = declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit
  if (!request.body)
    return declaredTooLarge ? { ok: false, reason: 'too-large' } : { ok: true, bytes: new Uint8Array() }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let tooLarge = declaredTooLarge
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) tooLarge = true
    if (tooLarge) {
      if (size > DRAIN_LIMIT) {
        await reader.cancel().catch(() => undefined)
        break
      }
      continue
    }
    chunks.push(value)
  }
  if (tooLarge) return { ok: false, reason: 'too-large' }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return { ok: true, bytes }
}

/**
 * Reads a request body up to a byte limit. Content-Length is checked first (cheap refusal) but not
 * trusted: the stream is counted as it arrives and abandoned as soon as it passes the limit, so a
 * missing or false header cannot make the Worker buffer more than `limit` + one chunk.
 */

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'too-large' }

export async function readBody(request: Request, limit: number): Promise<BodyRead> {
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit)
    return { ok: false, reason: 'too-large' }
  if (!request.body) return { ok: true, bytes: new Uint8Array() }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => undefined)
      return { ok: false, reason: 'too-large' }
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return { ok: true, bytes }
}

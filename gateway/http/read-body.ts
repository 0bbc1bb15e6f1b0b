/**
 * Reads a request body up to a byte cap, counting the bytes actually read: a Content-Length over
 * the cap is refused before reading, and a body with no length (chunked, or HTTP/2 without one) or
 * a false one is refused as soon as the bytes read pass the cap, the rest left unread (the stream
 * is cancelled). So no body, however sent, makes a Worker hold more than the cap plus one chunk.
 * A client that hangs up before its body has arrived is told apart (hang-up.ts).
 */
import { isHangUp } from './hang-up.js'

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'too-large' | 'hung-up' }

export async function readBody(request: Request, cap: number): Promise<BodyRead> {
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > cap) {
    await discardBody(request)
    return { ok: false, reason: 'too-large' }
  }
  if (!request.body) return { ok: true, bytes: new Uint8Array() }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await reader.read()
    } catch (error) {
      if (isHangUp(error)) return { ok: false, reason: 'hung-up' }
      throw error
    }
    const { done, value } = chunk
    if (done) break
    size += value.byteLength
    if (size > cap) {
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

/** Leaves a body unread: a refused request's body is cancelled, never buffered. */
export async function discardBody(request: Request): Promise<void> {
  await request.body?.cancel().catch(() => undefined)
}

/**
 * Body caps hold on the bytes actually read: a body with no length is refused as soon as what was
 * read passes the cap, and the rest is never pulled from the sender.
 */
import { describe, expect, it } from 'vitest'
import { readBody } from '../../gateway/http/read-body.js'

const CHUNK = 4096

/** A 1 MB body sent as chunks with no Content-Length, counting how much the reader pulled. */
function streamedRequest(totalBytes: number, headers: Record<string, string> = {}) {
  let pulled = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close()
      pulled += CHUNK
      controller.enqueue(new Uint8Array(CHUNK).fill(120))
    },
  })
  const request = new Request('http://service.test/mcp', {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  } as RequestInit)
  return { request, pulled: () => pulled }
}

describe('readBody', () => {
  it('error: a 1 MB body without a length is refused having read at most the cap and one chunk', async () => {
    const cap = 64 * 1024
    const { request, pulled } = streamedRequest(1024 * 1024)
    expect(request.headers.get('content-length')).toBeNull()
    expect(await readBody(request, cap)).toEqual({ ok: false, reason: 'too-large' })
    // The stream may have one chunk queued ahead of the reader, never more.
    expect(pulled()).toBeLessThanOrEqual(cap + 2 * CHUNK)
  })

  it('error: a declared length over the cap is refused without reading anything', async () => {
    const { request, pulled } = streamedRequest(1024 * 1024, { 'content-length': String(1024 * 1024) })
    expect(await readBody(request, 1024)).toEqual({ ok: false, reason: 'too-large' })
    expect(pulled()).toBeLessThanOrEqual(CHUNK)
  })

  it('behavior: a body within the cap is read whole', async () => {
    const { request } = streamedRequest(3 * CHUNK)
    const read = await readBody(request, 64 * 1024)
    expect(read.ok && read.bytes.byteLength).toBe(3 * CHUNK)
  })
})

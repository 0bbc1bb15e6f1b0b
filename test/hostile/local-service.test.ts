/**
 * The local service stays up under what clients do to it: a body cut short mid-request, and an
 * oversized refused body followed by a thousand valid submissions, 50 in flight at a time.
 *
 * A refused body is never read (gateway/http/read-body.ts): the service answers 413 from the
 * declared length and closes, as HTTP allows (RFC 9110, 15.5.14), so a refusal costs it nothing
 * however much a client sends. A client that wants to read that refusal before sending a large
 * body asks first with `Expect: 100-continue` (curl does above 1 MiB), and then reads the 413 on
 * any machine; a client that sends the whole body regardless may find the connection closed
 * before it reads the answer, the more likely the busier the machine.
 */
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { runBounded } from '../support/bounded-concurrency.js'
import { hangUpMidBody } from '../support/hang-up.js'
import { base, get } from '../support/service.js'

const TWO_MB = `{"note":"${'x'.repeat(2 * 1024 * 1024)}"}`

/**
 * POSTs `body` as a client that asks before sending a large body (`Expect: 100-continue`): the
 * body goes only if the service says 100 Continue. Resolves with the final status and whether the
 * body was asked for.
 */
function askFirst(path: string, body: string, client: string) {
  return new Promise<{ status: number; bodyAskedFor: boolean }>((resolve, reject) => {
    let bodyAskedFor = false
    const req = request(new URL(path, base()), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
        'cf-connecting-ip': client,
      },
    })
    req.on('continue', () => {
      bodyAskedFor = true
      req.end(body)
    })
    req.on('response', (res) => {
      // The status is the answer; the unsent body is never sent, and the connection is done with.
      resolve({ status: res.statusCode ?? 0, bodyAskedFor })
      req.destroy()
    })
    // An error after the answer (the closed connection) changes nothing: the promise has settled.
    req.on('error', reject)
    req.flushHeaders()
  })
}

/** Waits until the service answers again (it may have been restarted), however long that takes. */
async function answering(): Promise<number> {
  for (;;) {
    try {
      return (await get('/v1/catalogue')).status
    } catch {
      await new Promise((r) => setTimeout(r, 200))
    }
  }
}

describe('the local service', () => {
  it('behavior: a client that hangs up mid-body does not leave the service down', async () => {
    await hangUpMidBody(
      base(),
      '/v1/pricing/submit',
      { 'content-type': 'application/json', 'cf-connecting-ip': '198.20.0.2' },
      '{"category":',
    )
    expect(await answering()).toBe(200)
    // And it still takes a submission.
    const r = await get('/v1/pricing/submit', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.20.0.1' },
      body: JSON.stringify({ category: 'other', pricing_model: 'flat', entry_usd_month: 5 }),
    })
    expect(r.status).toBe(202)
  })

  it('behavior: a refused 2 MB body, then 1,000 valid submissions 50 at a time, all answered 202', async () => {
    // Asked first, the 2 MB body is refused from its declared length without being asked for.
    expect(await askFirst('/v1/pricing/submit', TWO_MB, '198.20.1.1')).toEqual({
      status: 413,
      bodyAskedFor: false,
    })
    // Sent whole without asking, it is refused too: the client reads the 413, or finds the
    // connection closed under it; never another answer.
    const pushed = await get('/v1/pricing/submit', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.20.1.2' },
      body: TWO_MB,
    }).then(
      async (r) => {
        await r.body?.cancel()
        return r.status
      },
      (error: Error) => `closed: ${String(error.cause ?? error)}`,
    )
    expect(String(pushed)).toMatch(/^(413|closed: .*(EPIPE|ECONNRESET|other side closed|socket))/)
    // What this measures: the service, after those, takes every one of 1,000 valid submissions.
    const statuses = await runBounded(1_000, 50, async (i) => {
      const r = await get('/v1/pricing/submit', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'cf-connecting-ip': `198.20.${2 + Math.floor(i / 100)}.${i % 100}`,
        },
        body: JSON.stringify({ category: 'other', pricing_model: 'flat', entry_usd_month: i % 100 }),
      })
      await r.body?.cancel()
      return r.status
    })
    expect(statuses.filter((s) => s !== 202)).toEqual([])
    expect(statuses).toHaveLength(1_000)
  })
})

/**
 * The local service stays up under what clients do to it: a body cut short mid-request, and an
 * oversized refused body followed by a thousand concurrent valid submissions.
 */
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { base, get } from '../support/service.js'

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
    const { hostname, port } = new URL(base())
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          'POST /v1/pricing/submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"category":',
        )
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 200)
      })
      socket.on('error', () => resolve())
    })
    expect(await answering()).toBe(200)
    // And it still takes a submission.
    const r = await get('/v1/pricing/submit', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.20.0.1' },
      body: JSON.stringify({ category: 'other', pricing_model: 'flat', entry_usd_month: 5 }),
    })
    expect(r.status).toBe(202)
  })

  it('behavior: a refused 2 MB body, then 1,000 concurrent valid submissions, all answered 202', async () => {
    const big = await get('/v1/pricing/submit', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.20.1.1' },
      body: `{"note":"${'x'.repeat(2 * 1024 * 1024)}"}`,
    })
    expect(big.status).toBe(413)
    const statuses: number[] = []
    for (let batch = 0; batch < 10; batch++)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, async (_, i) => {
            const r = await get('/v1/pricing/submit', {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.20.${2 + batch}.${i}` },
              body: JSON.stringify({ category: 'other', pricing_model: 'flat', entry_usd_month: i }),
            })
            await r.body?.cancel()
            return r.status
          }),
        )),
      )
    expect(statuses.filter((s) => s !== 202)).toEqual([])
    expect(statuses).toHaveLength(1_000)
  })
})

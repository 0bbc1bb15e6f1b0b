/**
 * A record says "refunded" only once the refund exists (#36 M2, L3): a charge never delivered whose
 * refund call failed is owed a refund, and its credential says so (503, the same credential later,
 * no challenge: the charge is still on the card, so "pay again, nothing was charged" would be
 * false); the next reconciler run makes the refund, once, and the credential then names it.
 */
import { describe, expect, it } from 'vitest'
import { authorization, challengeFrom, get, processorLedger, standin, token } from '../support/service.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const reconcile = async (time: number) =>
  expect((await get(`/cdn-cgi/local/scheduled?time=${time}`)).status).toBe(200)

describe('a refund owed whose first call failed', () => {
  it('behavior: the credential says it is owed, not made, until the next run makes it; then it names it', async () => {
    const path = '/v1/fde-lessons?topic=rollback'
    const challenge = challengeFrom(await get(path))
    const spt = token('lost')
    const auth = { headers: { authorization: authorization(challenge, { spt }) } }
    // Charged, and the answer lost; the buyer does not come back inside its delivery window.
    expect((await get(path, auth)).status).toBe(503)
    const intent = (await processorLedger()).succeeded[spt] as string
    expect(intent).toMatch(/^pi_/)
    // A run of the cron once the delivery window has closed and the band (which trails it by the
    // clock skew allowed) holds the charge; the refund call fails.
    const start = Date.parse(challenge.expires as string) + 24 * HOUR + 3 * MINUTE
    expect((await standin('/__standin/config?fail_refunds=1')).status).toBe(200)
    try {
      await reconcile(start)
    } finally {
      await standin('/__standin/config?fail_refunds=0')
    }
    expect((await processorLedger()).refunds[intent] ?? []).toEqual([])
    const owed = await get(path, auth)
    expect(owed.status).toBe(503)
    expect(owed.headers.get('www-authenticate')).toBeNull()
    expect(Number(owed.headers.get('retry-after'))).toBeGreaterThan(0)
    const problem = (await owed.json()) as { type: string; retryable: unknown; detail: string }
    expect(problem.type).toMatch(/payment-refunded$/)
    expect(problem.retryable).toBe('same-credential')
    expect(problem.detail).toContain(intent)
    expect(problem.detail).not.toMatch(/under way/)

    await reconcile(start + 15 * MINUTE)
    const refunds = (await processorLedger()).refunds[intent] ?? []
    expect(refunds).toHaveLength(1)
    const refunded = await get(path, auth)
    expect(refunded.status).toBe(402)
    const body = (await refunded.json()) as { retryable: unknown; detail: string }
    expect(body.retryable).toBe('pay-again')
    expect(body.detail).toContain(refunds[0])
    // Later runs make no second refund.
    await reconcile(start + 30 * MINUTE)
    expect((await processorLedger()).refunds[intent]).toHaveLength(1)
  })
})

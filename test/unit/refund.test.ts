/**
 * A refund the reconciler owes is made, and recognised when it exists (#36 M2, I2): a refund made
 * outside the ledger's key (the dashboard, or after the processor forgot the key) is read as done
 * and named, never as a failure; a refund call answered 500, which the processor stores under its
 * key, is retried under a new key rather than replayed for a day. Against the stand-in in this process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refundPaymentIntent } from '../../gateway/payment/stripe/processor.js'
import { STANDIN_SECRET } from '../../schema/config.js'
import { type ProcessorStandin, startProcessorStandin } from '../../scripts/local/processor-standin.js'

let standin: ProcessorStandin
beforeAll(async () => {
  standin = await startProcessorStandin()
})
afterAll(() => standin.close())

const processor = () => ({ url: standin.url, secret: STANDIN_SECRET, timeoutMs: 5000 })
const api = (path: string, body: Record<string, string>, key: string) =>
  fetch(`${standin.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${STANDIN_SECRET}`,
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': key,
    },
    body: new URLSearchParams(body),
  })

/** A succeeded intent of its own. */
async function charged(): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const r = await fetch(
    `${standin.url}/__standin/seed?count=1&created_gte=${now}&created_lte=${now}&realm=x`,
    {
      method: 'POST',
    },
  )
  return ((await r.json()) as { first: string }).first
}

describe('a refund the reconciler owes', () => {
  it('behavior: a refund made outside the ledger key is read as done, and named', async () => {
    const intent = await charged()
    const elsewhere = (await (
      await api('/v1/refunds', { payment_intent: intent }, 'dashboard-1')
    ).json()) as {
      id: string
    }
    const outcome = await refundPaymentIntent(processor(), intent, 'challenge')
    expect(outcome).toEqual({ ok: true, id: elsewhere.id })
    expect(standin.ledger.refunds.get(intent)).toEqual([elsewhere.id])
  })

  it('behavior: after a refund call answered 500, the next attempt makes the refund, once', async () => {
    const intent = await charged()
    await fetch(`${standin.url}/__standin/config?fail_refunds=1`, { method: 'POST' })
    expect((await refundPaymentIntent(processor(), intent, 'challenge', 0)).ok).toBe(false)
    const second = await refundPaymentIntent(processor(), intent, 'challenge', 1)
    expect(second.ok).toBe(true)
    // And any later attempt names the same refund, never a second one.
    expect(await refundPaymentIntent(processor(), intent, 'challenge', 2)).toEqual(second)
    expect(standin.ledger.refunds.get(intent)).toHaveLength(1)
  })
})

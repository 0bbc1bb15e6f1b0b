/**
 * Re-sends that cost what they should (#36 L4), on the real Durable Object inside workerd. Copies of
 * a credential that waited on its first try take the answer that try kept, rather than each
 * rebuilding and signing it; re-sends of one payment's answer go one at a time, at most
 * RESENDS_PER_MINUTE a minute, and one beyond that is refused without a charge, with a Retry-After
 * inside the answer's re-send window (or, at its end, told the answer cannot be had again).
 *
 * The processor is a stand-in inside the test: its first create call is held until the test
 * releases it, so the copies' waiting depends on no timing.
 */
import { runInDurableObject } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import type { PaymentLedger, SettleInput } from '../../gateway/payment/ledger.js'
import { ANSWER_REPLAY_MS } from '../../gateway/payment/retention.js'
import { RESENDS_PER_MINUTE } from '../../schema/config.js'
import { cardSettle, freshLedger, settledRecord } from './ledger-fixtures.js'

const ledger = freshLedger

const input = (idempotencyKey = 'k'): SettleInput =>
  cardSettle(
    Date.now() + 60_000,
    { url: 'https://processor.test', secret: 's', timeoutMs: 60_000 },
    { idempotencyKey },
  )

/** Larger than one stored part, as a real answer is. */
const answer = { body: JSON.stringify({ rules: 'y'.repeat(100_000) }), headers: { etag: '"e"' } }
/** Whether a result carries that answer (compared whole, reported in one word). */
const carriesAnswer = (r: Awaited<ReturnType<PaymentLedger['settle']>>) =>
  r.ok && JSON.stringify(r.repeat?.answer) === JSON.stringify(answer)

/** A processor whose create calls wait for `release()`, then succeed; counts the calls. */
function heldProcessor() {
  const real = globalThis.fetch
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const held = { calls: 0, release, restore: () => (globalThis.fetch = real) }
  globalThis.fetch = (async () => {
    held.calls++
    await released
    return Response.json({ id: 'pi_1', status: 'succeeded' })
  }) as typeof fetch
  return held
}

let restore = () => {}
afterEach(() => restore())

/** A record settled `agoMs` ago under the key `k`, with its answer kept. */
async function settledWithAnswer(stub: ReturnType<typeof ledger>, agoMs = 0) {
  const record = settledRecord(Date.now() - agoMs, { payment: 'p' })
  await runInDurableObject(stub, (_, state) => state.storage.put('record', record))
  await stub.keepAnswer('k', answer)
}

describe('copies waiting on one settlement', () => {
  it('behavior: take the answer the first try kept, with its receipt, and nothing is charged twice', async () => {
    const processor = heldProcessor()
    restore = processor.restore
    const stub = ledger()
    const first = stub.settle(input())
    // The first try is at the processor, held there.
    while (processor.calls === 0) await new Promise((r) => setTimeout(r, 1))
    const copies = Array.from({ length: 3 }, () => stub.settle(input()))
    // Calls through one stub arrive in order: once this has run, every copy is waiting.
    await runInDurableObject(stub, () => undefined)
    processor.release()
    const settled = await first
    expect(settled.ok).toBe(true)
    // The first try's face builds the answer and keeps it; the copies are still waiting for it.
    await stub.keepAnswer('k', answer)
    for (const copy of await Promise.all(copies)) {
      expect(copy).toMatchObject({ ok: true, receipt: settled.ok ? settled.receipt : {} })
      expect(carriesAnswer(copy), JSON.stringify(copy).slice(0, 300)).toBe(true)
    }
    expect(processor.calls).toBe(1)
  })
})

describe('re-sends of one payment', () => {
  it(`behavior: sent all at once, served one at a time: ${RESENDS_PER_MINUTE} answered, the rest refused with a Retry-After inside the answer's window, none charged`, async () => {
    const processor = heldProcessor()
    restore = processor.restore
    const stub = ledger()
    await settledWithAnswer(stub)
    const results = await Promise.all(
      Array.from({ length: RESENDS_PER_MINUTE + 4 }, () => stub.settle(input())),
    )
    const answered = results.filter((r) => r.ok)
    expect(answered).toHaveLength(RESENDS_PER_MINUTE)
    for (const r of answered) expect(carriesAnswer(r)).toBe(true)
    const refused = results.filter((r) => !r.ok)
    expect(refused).toHaveLength(4)
    for (const r of refused) {
      expect(r).toMatchObject({ ok: false, reason: 'resend-limited', resendable: true })
      const wait = r.ok ? 0 : (r.retryAfterS ?? 0)
      expect(wait).toBeGreaterThanOrEqual(1)
      expect(wait).toBeLessThanOrEqual(60)
    }
    // A later one is refused the same way: the minute has not passed.
    expect(await stub.settle(input())).toMatchObject({ ok: false, reason: 'resend-limited' })
    // Nothing reached the processor: a re-send never charges.
    expect(processor.calls).toBe(0)
  })

  it('behavior: when the minute would end after the answer can no longer be had, no Retry-After and never resendable', async () => {
    const stub = ledger()
    // Answered 23 h 59 min 30 s ago: its re-send window closes in 30 s, before the minute is over.
    await settledWithAnswer(stub, ANSWER_REPLAY_MS - 30_000)
    for (let i = 0; i < RESENDS_PER_MINUTE; i++) expect((await stub.settle(input())).ok).toBe(true)
    const refused = await stub.settle(input())
    expect(refused).toMatchObject({ ok: false, reason: 'resend-limited', resendable: false })
    expect(refused.ok ? 0 : refused.retryAfterS).toBeUndefined()
  })

  it('behavior: a settled credential under another key is refused as before, and counts no re-send', async () => {
    const stub = ledger()
    await settledWithAnswer(stub)
    for (let i = 0; i < 3; i++)
      expect(await stub.settle(input('other'))).toMatchObject({ ok: false, reason: 'accepted' })
    for (let i = 0; i < RESENDS_PER_MINUTE; i++) expect((await stub.settle(input())).ok).toBe(true)
  })
})

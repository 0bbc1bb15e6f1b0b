/**
 * How long the ledger keeps what (#30 I8): the answer kept for a repeat under its Idempotency-Key
 * goes when that repeat can no longer be asked for (24 h after the answer), not with the record
 * (72 h after the challenge expired), which the reconciler still needs. Inside workerd, on the real
 * Durable Object's storage and alarm.
 *
 * Alarms are driven, never raced: every alarm a test schedules lies in the future, so workerd never
 * fires it by itself and runDurableObjectAlarm is what runs it. Time passing is the stored record
 * growing older (its timestamps moved back), which is all the alarm reads of the clock.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { ANSWER_REPLAY_MS, type LedgerRecord, RECORD_RETENTION_MS } from '../../gateway/payment/retention.js'
import { freshLedger, settledRecord } from './ledger-fixtures.js'

const HOUR = 60 * 60 * 1000
const ledger = freshLedger

/** A settled record, answered `answeredAgoMs` ago under the key `k`. */
function settled(answeredAgoMs: number): LedgerRecord {
  return settledRecord(Date.now() - answeredAgoMs, { credentialDigest: 'digest' })
}

/** The clock moves on by `ms` for this record: its timestamps move back, its alarm stays scheduled. */
function aged(record: LedgerRecord, ms: number): LedgerRecord {
  return {
    ...record,
    firstAttemptAt: record.firstAttemptAt - ms,
    expiresAt: record.expiresAt - ms,
    ...(record.settledAt === undefined ? {} : { settledAt: record.settledAt - ms }),
  }
}

const answer = { body: 'x'.repeat(130_000), headers: { 'content-type': 'application/json' } }

describe('the kept answer', () => {
  it('behavior: is kept until its re-send window closes, then dropped while the record stays', async () => {
    const stub = ledger()
    const record = settled(2 * HOUR)
    await runInDurableObject(stub, (_, state) => state.storage.put('record', record))
    await stub.keepAnswer('k', answer)
    const alarm = await runInDurableObject(stub, (_, state) => state.storage.getAlarm())
    expect(alarm).toBe((record.settledAt as number) + ANSWER_REPLAY_MS)
    // Inside the window the alarm leaves it alone (an alarm may fire early; it only reschedules).
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    expect(await runInDurableObject(stub, (_, state) => state.storage.get('answer:parts'))).toBe(3)
  })

  it('behavior: past the re-send window the alarm drops the answer, keeps the record and waits for the record', async () => {
    const stub = ledger()
    // Answered an hour ago: the alarm keepAnswer schedules is 23 h ahead and cannot fire by itself.
    const fresh = settled(HOUR)
    await runInDurableObject(stub, (_, state) => state.storage.put('record', fresh))
    await stub.keepAnswer('k', answer)
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(
      (fresh.settledAt as number) + ANSWER_REPLAY_MS,
    )
    // A day passes: the re-send window has closed, the record's own time has not come.
    const record = aged(fresh, ANSWER_REPLAY_MS)
    await runInDurableObject(stub, (_, state) => state.storage.put('record', record))
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    const after = await runInDurableObject(stub, async (_, state) => ({
      keys: [...(await state.storage.list()).keys()],
      alarm: await state.storage.getAlarm(),
    }))
    expect(after.keys).toEqual(['record'])
    expect(after.alarm).toBe(record.expiresAt + RECORD_RETENTION_MS)
  })

  it('behavior: past the record retention the alarm deletes everything', async () => {
    const stub = ledger()
    const record = settled(RECORD_RETENTION_MS + 2 * HOUR)
    await runInDurableObject(stub, async (_, state) => {
      await state.storage.put('record', record)
      // Scheduled ahead so that only runDurableObjectAlarm runs it; the alarm reads the record's age.
      await state.storage.setAlarm(Date.now() + HOUR)
    })
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    expect(await runInDurableObject(stub, async (_, state) => (await state.storage.list()).size)).toBe(0)
  })
})

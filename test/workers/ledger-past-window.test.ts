/**
 * A pending payment sent again after its delivery window closed (#36 L3): it may have been charged,
 * so it is never told "pay again, nothing was charged" unless the processor says nothing was. With
 * the processor unreachable, whether money moved is unknown: come back later (same credential), no
 * new charge attempted. Inside workerd, on the real Durable Object.
 */
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { DELIVERY_WINDOW_MS, type LedgerRecord } from '../../gateway/payment/retention.js'
import { cardSettle, freshLedger } from './ledger-fixtures.js'

const HOUR = 60 * 60 * 1000
const ledger = freshLedger

describe('a pending payment past its delivery window', () => {
  it('error: with its outcome unknown it is told to come back, never that nothing was charged', async () => {
    const stub = ledger()
    const expiresAt = Date.now() - DELIVERY_WINDOW_MS - HOUR
    const record: LedgerRecord = {
      payment: 'p',
      state: 'pending',
      firstAttemptAt: expiresAt - 60_000,
      expiresAt,
      intentId: 'pi_unknown',
    }
    await runInDurableObject(stub, (_, state) => state.storage.put('record', record))
    // Nothing listens at the processor's address: it cannot be asked.
    const result = await stub.settle(
      cardSettle(expiresAt, { url: 'http://127.0.0.1:9', secret: 's', timeoutMs: 1000 }),
    )
    expect(result.ok).toBe(false)
    expect(result.ok ? undefined : result.reason).toBe('unavailable')
    // Nothing stored: the record is as it was.
    expect(await runInDurableObject(stub, (_, state) => state.storage.get('record'))).toEqual(record)
  })
})

/**
 * The promise about money is stated once (schema/money-back.ts): the Cron Trigger that runs the
 * reconciler is the schedule it names, and the ledger's windows are the hours it names.
 */
import { describe, expect, it } from 'vitest'
import { unstable_readConfig } from 'wrangler'
import {
  ANSWER_REPLAY_MS,
  DELIVERY_WINDOW_MS,
  RECONCILE_LOOKBACK_MS,
  RECORD_RETENTION_MS,
} from '../../gateway/payment/retention.js'
import {
  ANSWER_REPLAY_HOURS,
  DELIVERY_WINDOW_HOURS,
  MONEY_BACK_POLICY,
  RECONCILE_EVERY_MINUTES,
} from '../../schema/money-back.js'

const HOUR = 60 * 60 * 1000

describe('the money-back promise', () => {
  it('behavior: the gateway runs the reconciler on the schedule the policy states', () => {
    const crons = unstable_readConfig({ config: 'gateway/wrangler.jsonc' }).triggers?.crons ?? []
    expect(crons).toEqual([`*/${RECONCILE_EVERY_MINUTES} * * * *`])
    expect(MONEY_BACK_POLICY).toContain(`every ${RECONCILE_EVERY_MINUTES} minutes`)
  })

  it('behavior: every charge the reconciler may refund still has its ledger record when it looks', () => {
    expect(DELIVERY_WINDOW_MS).toBe(DELIVERY_WINDOW_HOURS * HOUR)
    expect(ANSWER_REPLAY_MS).toBe(ANSWER_REPLAY_HOURS * HOUR)
    // A charge becomes refundable when its window closes; the reconciler must still list it a full
    // run later, and the record must outlive the look-back.
    expect(RECONCILE_LOOKBACK_MS).toBeGreaterThan(DELIVERY_WINDOW_MS + RECONCILE_EVERY_MINUTES * 60_000)
    expect(RECORD_RETENTION_MS).toBeGreaterThan(RECONCILE_LOOKBACK_MS)
    expect(RECORD_RETENTION_MS).toBeGreaterThan(DELIVERY_WINDOW_MS + ANSWER_REPLAY_MS)
  })
})

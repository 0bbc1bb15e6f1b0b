/**
 * Which charges the reconciler refunds: exactly those never delivered that can no longer be.
 */
import { describe, expect, it } from 'vitest'
import { DELIVERY_WINDOW_MS, type LedgerRecord } from '../../gateway/payment/retention.js'
import { orphanVerdict } from '../../gateway/payment/stripe/orphans.js'

const expiresAt = Date.parse('2026-11-24T12:00:00Z')
const record = (state: LedgerRecord['state'], extra: Partial<LedgerRecord> = {}): LedgerRecord => ({
  credentialDigest: 'd',
  state,
  firstAttemptAt: expiresAt - 60_000,
  expiresAt,
  intentId: 'pi_1',
  ...extra,
})
const insideWindow = expiresAt + DELIVERY_WINDOW_MS - 1
const pastWindow = expiresAt + DELIVERY_WINDOW_MS + 1

describe('orphanVerdict', () => {
  it('behavior: a delivered charge is never refunded, whenever the reconciler looks', () => {
    expect(orphanVerdict(record('settled'), 'pi_1', pastWindow)).toBe('delivered')
  })

  it('behavior: a pending charge waits for its buyer inside the window and is refunded after it', () => {
    expect(orphanVerdict(record('pending'), 'pi_1', insideWindow)).toBe('deliverable')
    expect(orphanVerdict(record('pending', { intentId: undefined }), 'pi_1', pastWindow)).toBe('refund')
  })

  it('behavior: a charge behind a stored refusal, a charge no record claims, and a second charge for one challenge are refunded', () => {
    expect(orphanVerdict(record('refused'), 'pi_1', insideWindow)).toBe('refund')
    expect(orphanVerdict(undefined, 'pi_9', insideWindow)).toBe('refund')
    expect(orphanVerdict(record('settled'), 'pi_2', insideWindow)).toBe('refund')
  })

  it('behavior: a refund is made once; one whose call went unanswered is tried again', () => {
    expect(orphanVerdict(record('refunded', { refund: { id: 're_1', at: '' } }), 'pi_1', pastWindow)).toBe(
      'refunded',
    )
    expect(orphanVerdict(record('refunded', { refund: { at: '' } }), 'pi_1', pastWindow)).toBe('refund')
  })
})

/**
 * The bounds of every read of the processor's list: a retry's window holds every moment its intent
 * can have been created, and the reconciler's band holds only intents whose delivery window has
 * closed, whenever their challenge was issued.
 */
import { describe, expect, it } from 'vitest'
import { DELIVERY_WINDOW_MS, RECONCILE_LOOKBACK_MS } from '../../gateway/payment/retention.js'
import {
  creationWindow,
  orphanBand,
  PROCESSOR_CLOCK_SKEW_S,
} from '../../gateway/payment/stripe/creation-window.js'

const TTL_MS = 5 * 60_000
const TIMEOUT_MS = 10_000

describe('the creation window of a retry', () => {
  it('behavior: holds an intent stamped anywhere from the first call to the latest answer deadline, give or take the skew', () => {
    const first = Date.parse('2026-11-24T10:00:00.500Z')
    const last = first + 90_000
    const w = creationWindow(first, last, TIMEOUT_MS)
    const skewMs = PROCESSOR_CLOCK_SKEW_S * 1000
    for (const stampedMs of [first - skewMs, first, last, last + TIMEOUT_MS, last + TIMEOUT_MS + skewMs]) {
      const created = Math.floor(stampedMs / 1000)
      expect(created).toBeGreaterThanOrEqual(w.gte)
      expect(created).toBeLessThanOrEqual(w.lte)
    }
    // A few minutes of the account, not everything since.
    expect(w.lte - w.gte).toBeLessThan(10 * 60)
  })
})

describe("the reconciler's band", () => {
  it('behavior: every intent in it belongs to a payment whose delivery window has closed, however late in its challenge it was made', () => {
    const now = Date.parse('2026-11-24T12:00:00Z')
    const band = orphanBand(now, TTL_MS)
    // The youngest intent in the band, stamped by a processor clock running the full skew behind ours,
    // for a challenge issued the moment before (so it expires a whole TTL later).
    const madeAt = (band.lte + PROCESSOR_CLOCK_SKEW_S) * 1000
    const expiresAt = madeAt + TTL_MS
    expect(now).toBeGreaterThanOrEqual(expiresAt + DELIVERY_WINDOW_MS)
    expect(band.gte * 1000).toBeGreaterThanOrEqual(now - RECONCILE_LOOKBACK_MS)
    expect(band.gte).toBeLessThan(band.lte)
  })
})

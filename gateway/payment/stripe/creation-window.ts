/**
 * When, in the processor's clock, an intent can have been created: the bounds of every read of
 * the processor's list, so that no read grows with the account's other traffic.
 */

import { DELIVERY_WINDOW_MS, RECONCILE_LOOKBACK_MS } from '../retention.js'
import type { CreatedWindow } from './processor.js'

/**
 * How far our clock and the processor's may disagree, in seconds. Both keep NTP time (well under a
 * second apart); the processor states `created` in whole seconds, and a Worker's clock reads the
 * time of its last I/O rather than of the instruction. Two minutes covers all of that with room to
 * spare, while keeping a retry's window to a few minutes of the account's traffic.
 */
export const PROCESSOR_CLOCK_SKEW_S = 120

/**
 * The window in which a payment's intent was created: from its first create call to the answer
 * deadline of its latest (a retry repeats the call under the same key, which Stripe may be first to
 * receive), widened by the clock skew on both sides. Times in ms since the epoch.
 */
export function creationWindow(
  firstAttemptAt: number,
  lastAttemptAt: number,
  timeoutMs: number,
  /** The skew the processor's own `Date` showed (seconds, either sign): the window widens by it. */
  observedSkewS = 0,
): CreatedWindow {
  const skew = PROCESSOR_CLOCK_SKEW_S + Math.abs(observedSkewS)
  return {
    gte: Math.floor(firstAttemptAt / 1000) - skew,
    lte: Math.ceil((lastAttemptAt + timeoutMs) / 1000) + skew,
  }
}

/**
 * The intents the scheduled reconciler judges at `now`: old enough that their payment's delivery
 * window has closed whenever their challenge was issued (an intent is created at most `challengeTtlMs`
 * before its challenge expires, give or take the skew), and not yet past the look-back.
 */
export function orphanBand(now: number, challengeTtlMs: number): CreatedWindow {
  return {
    gte: Math.ceil((now - RECONCILE_LOOKBACK_MS) / 1000),
    lte: Math.floor((now - DELIVERY_WINDOW_MS - challengeTtlMs) / 1000) - PROCESSOR_CLOCK_SKEW_S,
  }
}

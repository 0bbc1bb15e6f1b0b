/**
 * The window arithmetic the limiter keeps in storage (#36 L1): the wait is until a place frees,
 * never longer than the window; only the newest `limit` times are kept, and that loses nothing;
 * a shared address past its bound has room for one more claim per `roomMs`, never sooner.
 */
import { describe, expect, it } from 'vitest'
import { type Budget, type Kept, spent, waitMs } from '../../gateway/payment/failure-window.js'

const HOUR = 60 * 60_000
const t0 = Date.parse('2026-11-25T12:00:00Z')

/** Failures at the given offsets (ms after t0), spent one by one under `b`. */
function keptAfter(offsets: number[], b: Budget): Kept | undefined {
  let kept: Kept | undefined
  for (const at of offsets) kept = spent(kept, b, t0 + at)
  return kept
}

describe('a failure window', () => {
  it('behavior: under the limit a claim goes at once; at it, the wait is until the oldest leaves', () => {
    const b: Budget = { limit: 3, windowMs: HOUR }
    const kept = keptAfter([0, 1000, 2000], b)
    expect(waitMs(keptAfter([0, 1000], b), b, t0 + 2000)).toBe(0)
    expect(waitMs(kept, b, t0 + 3000)).toBe(HOUR - 3000)
    // The wait never outlives the window, and ends exactly when a place frees.
    expect(waitMs(kept, b, t0 + HOUR - 1)).toBe(1)
    expect(waitMs(kept, b, t0 + HOUR)).toBe(0)
  })

  it('behavior: keeping only the newest `limit` times gives the same waits as keeping them all', () => {
    const b: Budget = { limit: 3, windowMs: HOUR }
    // Five failures (two more than the limit, as concurrent claims can leave).
    const kept = keptAfter([0, 10, 20, 30, 40], b)
    expect(kept?.times).toHaveLength(3)
    // Kept whole, a place frees once only two remain in the window: when the third newest (20) leaves.
    expect(waitMs(kept, b, t0 + 50)).toBe(HOUR + 20 - 50)
    expect(waitMs(kept, b, t0 + HOUR + 21)).toBe(0)
  })

  it('behavior: a shared address past its bound has room for one more claim, then waits for the room', () => {
    const shared: Budget = { limit: 3, windowMs: HOUR, roomMs: 5 * 60_000 }
    const full = keptAfter([0, 1000, 2000], shared)
    // At its bound, the room is free: one more claim now.
    expect(waitMs(full, shared, t0 + 3000)).toBe(0)
    // That claim took the room: the next waits for the room (5 minutes), not the hour.
    const roomTaken = spent(full, shared, t0 + 3000)
    expect(roomTaken.room).toBe(t0 + 3000)
    expect(waitMs(roomTaken, shared, t0 + 4000)).toBe(5 * 60_000 - 1000)
    expect(waitMs(roomTaken, shared, t0 + 3000 + 5 * 60_000)).toBe(0)
    // A claim under the bound leaves the room as it was.
    expect(spent(undefined, shared, t0).room).toBeUndefined()
  })
})

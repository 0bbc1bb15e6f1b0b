/**
 * The submit flood limit on a clock the test chooses (gateway/submissions/rate-limit.ts): the
 * window opens at a client's first attempt, so a burst across a wall-clock minute is one window;
 * Retry-After is what is left of it; a closed window starts afresh; clients are counted apart.
 * The limiter runs on the submissions Worker's own D1 (workerd through Miniflare).
 * Run: npx vitest run --project node test/submissions/rate-limit.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { takeSubmitSlot, WINDOW_SECONDS } from '../../gateway/submissions/rate-limit.js'
import { type SubmissionsWorker, startSubmissionsWorker } from '../support/submissions-worker.js'

const LIMIT = 3
const MINUTE = WINDOW_SECONDS * 1000
/** One second before a wall-clock minute turns (a fixed minute would split a burst here). */
const BEFORE_THE_MINUTE = Date.parse('2027-03-01T12:00:59Z')

let worker: SubmissionsWorker
let db: Awaited<ReturnType<SubmissionsWorker['database']>>

beforeAll(async () => {
  worker = await startSubmissionsWorker({ SUBMITTER_SALT: 'a-test-salt-of-at-least-thirty-two-bytes' })
  db = await worker.database()
})

afterAll(() => worker?.stop())

/** `count` attempts by `client` one after another, the i-th at `at(i)`; the outcomes in order. */
async function attempts(client: string, count: number, at: (i: number) => number) {
  const out = []
  for (let i = 0; i < count; i++) out.push(await takeSubmitSlot(db, client, LIMIT, at(i)))
  return out
}

describe('the submit flood limit, on a chosen clock', () => {
  it('error: a burst across a wall-clock minute is one window, and the attempt past the limit is told the seconds left', async () => {
    // First attempt at 12:00:59, the rest at 12:01:00.5: all in the window the first one opened.
    const outcomes = await attempts(
      '198.51.100.1',
      LIMIT + 1,
      (i) => BEFORE_THE_MINUTE + (i === 0 ? 0 : 1_500),
    )
    expect(outcomes.slice(0, LIMIT)).toEqual(Array(LIMIT).fill({ ok: true }))
    // 60 s from 12:00:59 less 1.5 s gone: 58.5 s left, told as 59.
    expect(outcomes[LIMIT]).toEqual({ ok: false, retryAfter: 59 })
  })

  it('behavior: once the window has closed, the client starts a new one', async () => {
    const client = '198.51.100.2'
    const t0 = BEFORE_THE_MINUTE + 3 * MINUTE
    await attempts(client, LIMIT, () => t0)
    expect(await takeSubmitSlot(db, client, LIMIT, t0 + MINUTE - 1)).toEqual({ ok: false, retryAfter: 1 })
    expect(await takeSubmitSlot(db, client, LIMIT, t0 + MINUTE)).toEqual({ ok: true })
    // The new window opened at t0 + MINUTE and counts from there.
    const rest = await attempts(client, LIMIT, () => t0 + MINUTE + 10_000)
    expect(rest.slice(0, LIMIT - 1)).toEqual(Array(LIMIT - 1).fill({ ok: true }))
    expect(rest[LIMIT - 1]).toEqual({ ok: false, retryAfter: 50 })
  })

  it('behavior: one client at its limit leaves another untouched', async () => {
    const t0 = BEFORE_THE_MINUTE + 10 * MINUTE
    const flooding = await attempts('198.51.100.3', LIMIT + 1, () => t0)
    expect(flooding[LIMIT]?.ok).toBe(false)
    expect(await takeSubmitSlot(db, '198.51.100.4', LIMIT, t0)).toEqual({ ok: true })
  })

  it('behavior: attempts made at once each count once', async () => {
    const t0 = BEFORE_THE_MINUTE + 20 * MINUTE
    const outcomes = await Promise.all(
      Array.from({ length: 2 * LIMIT }, () => takeSubmitSlot(db, '198.51.100.5', LIMIT, t0)),
    )
    expect(outcomes.filter((o) => o.ok)).toHaveLength(LIMIT)
  })
})

/**
 * Retry advice that is always right (#36 L3): a client over its limit is told to send the same
 * credential again only when the challenge outlives the wait; otherwise, nothing having been
 * claimed or charged, to pay a fresh challenge after the wait. Retry-After is the wait, never more.
 */
import { describe, expect, it } from 'vitest'
import { limitedRefusal } from '../../gateway/payment/limited-refusal.js'

const now = Date.parse('2026-11-25T12:00:00Z')

describe('a client over its limit', () => {
  it('behavior: a wait the challenge outlives keeps the credential', () => {
    expect(limitedRefusal('x', 40, now + 10 * 60_000, now)).toMatchObject({
      status: 429,
      retryable: 'same-credential',
      retryAfterS: 40,
    })
  })

  it('behavior: a wait the challenge does not outlive asks for a new payment after it', () => {
    expect(limitedRefusal('x', 3599, now + 30 * 60_000, now)).toMatchObject({
      status: 429,
      retryable: 'pay-again',
      retryAfterS: 3599,
    })
    // A wait ending exactly when the challenge does leaves no time to use it.
    expect(limitedRefusal('x', 600, now + 600_000, now).retryable).toBe('pay-again')
  })
})

describe('the whole account at its bound of unfinished payments (#36 L1)', () => {
  it('behavior: 503 payments-busy, Retry-After the wait, and the same advice rule as a client over its limit', () => {
    expect(limitedRefusal('x', 40, now + 10 * 60_000, now, true)).toMatchObject({
      status: 503,
      problem: 'payments-busy',
      retryable: 'same-credential',
      retryAfterS: 40,
    })
    expect(limitedRefusal('x', 3000, now + 30 * 60_000, now, true)).toMatchObject({
      status: 503,
      problem: 'payments-busy',
      retryable: 'pay-again',
      retryAfterS: 3000,
    })
  })
})

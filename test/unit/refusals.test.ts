/**
 * Every payment refusal says what the client may do next (#30 item 4), and only a refusal that asks
 * for a new payment may come with a fresh challenge.
 */
import { describe, expect, it } from 'vitest'
import {
  PAYMENT_PROBLEMS,
  type PaymentProblem,
  problemBody,
  refusal,
} from '../../gateway/payment/problems.js'
import { RETRYABLE_MEANING } from '../../schema/retryable.js'

const problems = Object.keys(PAYMENT_PROBLEMS) as PaymentProblem[]

describe('refusal', () => {
  it('behavior: every problem carries a retryable value the documents define', () => {
    for (const problem of problems) {
      const body = problemBody(refusal(problem, 'x'))
      expect(Object.keys(RETRYABLE_MEANING), problem).toContain(String(body.retryable))
    }
  })

  it('behavior: "pay-again" only where the answer is a 402 (the status that carries a challenge)', () => {
    for (const problem of problems) {
      const r = refusal(problem, 'x')
      if (r.retryable === 'pay-again') expect(r.status, problem).toBe(402)
      if (r.status !== 402) expect(r.retryable, problem).not.toBe('pay-again')
    }
  })

  it('behavior: a pending payment is a 503 that says when to come back; a settled credential is a 409', () => {
    expect(refusal('internal-payment-error', 'x')).toMatchObject({
      status: 503,
      retryable: 'same-credential',
      retryAfterS: expect.any(Number),
    })
    expect(refusal('payment-already-accepted', 'x')).toMatchObject({ status: 409, retryable: false })
    expect(refusal('payment-already-accepted', 'x', { retryable: 'same-credential' }).retryable).toBe(
      'same-credential',
    )
  })
})

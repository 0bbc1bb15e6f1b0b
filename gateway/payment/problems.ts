/**
 * The payment problem types of draft-httpauth-payment (RFC 9457 `type` URIs) and their titles.
 */
import { PROBLEM_TYPES } from '../http/problem.js'

export const PROBLEM_BASE = 'https://paymentauth.org/problems/'

export const PAYMENT_PROBLEMS = {
  'payment-required': 'Payment Required',
  'malformed-credential': 'Malformed Credential',
  'invalid-challenge': 'Invalid Challenge',
  'payment-expired': 'Payment Expired',
  'verification-failed': 'Verification Failed',
  'invalid-payload': 'Invalid Payload',
  'payment-action-required': 'Payment Action Required',
  'internal-payment-error': 'Payment Processor Unavailable',
  'too-many-failed-attempts': 'Too Many Failed Payment Attempts',
  'payment-refunded': 'Payment Refunded',
} as const
/** Problems of this service's own, outside the draft's table. */
const OWN_PROBLEMS = new Set<PaymentProblem>(['too-many-failed-attempts', 'payment-refunded'])

export type PaymentProblem = keyof typeof PAYMENT_PROBLEMS

/** Why a credential was not accepted; every refusal but a processor outage comes with a fresh challenge. */
export interface Refusal {
  status: 402 | 429 | 503
  /** For 429 and 503: when to try again. */
  retryAfterS?: number
  problem: PaymentProblem
  detail: string
}

/** The RFC 9457 body of a payment problem, as the 402 body and the MCP `problem` member. */
export function problemBody(r: Refusal, challengeId?: string) {
  return {
    type: `${OWN_PROBLEMS.has(r.problem) ? PROBLEM_TYPES : PROBLEM_BASE}${r.problem}`,
    title: PAYMENT_PROBLEMS[r.problem],
    status: r.status,
    detail: r.detail,
    ...(challengeId ? { challengeId } : {}),
  }
}

export function refusal(problem: PaymentProblem, detail: string): Refusal {
  const status =
    problem === 'internal-payment-error' ? 503 : problem === 'too-many-failed-attempts' ? 429 : 402
  return { status, problem, detail }
}

/**
 * The payment problem types of draft-httpauth-payment-01 §8.2 (RFC 9457 `type` URIs) and their
 * titles, beside this service's own.
 */
import { PAYMENT_TOKEN_SUMMARY } from '../../schema/payment-token.js'
import type { Retryable } from '../../schema/retryable.js'
import { WALLET_PAYMENT_SUMMARY } from '../../schema/wallet-payment.js'
import { PROBLEM_TYPES } from '../http/problem.js'
import type { Challenge } from './challenge.js'

export type { Retryable }

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
  'payment-already-accepted': 'Payment Already Accepted',
  'payments-busy': 'Payments Busy',
  'too-many-resends': 'Too Many Re-sends',
} as const
/** Problems of this service's own, outside the draft's table. */
const OWN_PROBLEMS = new Set<PaymentProblem>([
  'too-many-failed-attempts',
  'payment-refunded',
  'payment-already-accepted',
  'payments-busy',
  'too-many-resends',
])

export type PaymentProblem = keyof typeof PAYMENT_PROBLEMS

/** What each problem lets the client do (schema/retryable.ts), unless the refusal says otherwise. */
const RETRYABLE: Record<PaymentProblem, Retryable> = {
  'payment-required': 'pay-again',
  'malformed-credential': 'pay-again',
  'invalid-challenge': 'pay-again',
  'payment-expired': 'pay-again',
  'verification-failed': 'pay-again',
  'invalid-payload': 'pay-again',
  'payment-refunded': 'pay-again',
  'payment-action-required': 'same-credential',
  'internal-payment-error': 'same-credential',
  'too-many-failed-attempts': 'same-credential',
  'payments-busy': 'same-credential',
  'payment-already-accepted': false,
  'too-many-resends': 'same-credential',
}

/** A processor outage or a payment still settling: the same credential comes back this soon. */
export const PENDING_RETRY_AFTER_S = 5

/**
 * Why a credential was not accepted. Only a refusal that asks to pay again comes with a fresh
 * challenge: a credential whose payment is settled (409) or may still settle (503, or a 402 waiting
 * for the card's extra step) gets none, and neither does a client over its limit (429).
 */
export interface Refusal {
  status: 402 | 409 | 429 | 503
  /** For 429 and 503: when to try again (Retry-After). */
  retryAfterS?: number
  problem: PaymentProblem
  detail: string
  retryable: Retryable
  /** A 402 whose payment may still complete: the challenge this credential answers, sent back instead of a fresh one. */
  challenge?: Challenge
}

/** The RFC 9457 body of a payment problem, as the 402 body and the MCP `problem` member. */
export function problemBody(r: Refusal, challengeId?: string, walletOffered = false) {
  return {
    type: `${OWN_PROBLEMS.has(r.problem) ? PROBLEM_TYPES : PROBLEM_BASE}${r.problem}`,
    title: PAYMENT_PROBLEMS[r.problem],
    status: r.status,
    detail: r.detail,
    retryable: r.retryable,
    ...(challengeId ? { challengeId } : {}),
    // Every 402 asks for a payment: say where the token a credential carries comes from.
    ...(r.status === 402 ? { payment_help: PAYMENT_TOKEN_SUMMARY } : {}),
    // Beside it, when the 402 also offers the wallet rail: how a buyer with only a key pays.
    ...(r.status === 402 && walletOffered ? { wallet_help: WALLET_PAYMENT_SUMMARY } : {}),
  }
}

const STATUS: Partial<Record<PaymentProblem, Refusal['status']>> = {
  // 503, not the draft's 500 (§8.2): the outcome is pending, and the same credential is answered
  // after Retry-After (gateway/payment/README.md, "The draft in force").
  'internal-payment-error': 503,
  'too-many-failed-attempts': 429,
  'payments-busy': 503,
  'too-many-resends': 429,
  'payment-already-accepted': 409,
}

export function refusal(
  problem: PaymentProblem,
  detail: string,
  options: {
    retryable?: Retryable
    retryAfterS?: number
    challenge?: Challenge
    status?: Refusal['status']
  } = {},
): Refusal {
  const status = options.status ?? STATUS[problem] ?? 402
  const retryAfterS = options.retryAfterS ?? (status === 503 ? PENDING_RETRY_AFTER_S : undefined)
  return {
    status,
    problem,
    detail,
    retryable: options.retryable ?? RETRYABLE[problem],
    ...(retryAfterS === undefined ? {} : { retryAfterS }),
    ...(options.challenge ? { challenge: options.challenge } : {}),
  }
}

/** What a client over its limit is told (#36 L3). */
import { type Refusal, refusal } from './problems.js'

/**
 * A new claim from a client over its limit: nothing was claimed or charged. The same credential is
 * worth sending again only if its challenge outlives the wait; otherwise the advice is a new payment
 * once the wait is over. Retry-After is the client's wait either way, so it never outlives its referent.
 */
export function limitedRefusal(
  detail: string,
  retryAfterS: number,
  expiresAt: number,
  now: number,
  /** The whole account is at its bound (503 `payments-busy`), not this client (429). */
  accountBusy = false,
): Refusal {
  const outlives = expiresAt - now > retryAfterS * 1000
  return refusal(
    accountBusy ? 'payments-busy' : 'too-many-failed-attempts',
    outlives
      ? detail
      : `${detail}; the challenge expires before then, so request a fresh one after the wait (nothing was charged)`,
    { retryable: outlives ? 'same-credential' : 'pay-again', retryAfterS },
  )
}

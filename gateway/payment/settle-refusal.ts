/**
 * What the buyer is told when the ledger did not settle a credential, whatever the method: the
 * ledger's reason as a payment problem. What it cost the client the ledger counts itself.
 */

import { type Challenge, issuedMembers } from './challenge.js'
import { limitedRefusal } from './limited-refusal.js'
import { type Refusal, refusal } from './problems.js'
import type { SettleResult } from './settlement.js'

export function ledgerRefusal(
  result: Extract<SettleResult, { ok: false }>,
  /** The challenge the credential answers, with its request as issued (a string). */
  echoed: Challenge,
): Refusal {
  switch (result.reason) {
    case 'used':
    case 'token-taken':
      return refusal('invalid-challenge', result.detail)
    case 'another-token':
      // Never a challenge: a client that pays whatever it is handed would pay this answer twice.
      return refusal('payment-already-accepted', result.detail, { retryable: false })
    case 'accepted':
      return refusal('payment-already-accepted', result.detail, {
        retryable: result.resendable ? 'same-credential' : false,
      })
    case 'expired':
      return refusal('payment-expired', result.detail)
    case 'requires_action':
      // The payment may still complete: the challenge it answers goes back, never a fresh one. A
      // second credential for it is refused before any charge. The faces add the route's
      // description (asIssued), so it goes back byte for byte as issued.
      return refusal('payment-action-required', result.detail, { challenge: issuedMembers(echoed) })
    case 'declined':
      return refusal('verification-failed', result.detail)
    case 'unavailable':
      return refusal('internal-payment-error', result.detail, optionalRetryAfter(result.retryAfterS))
    case 'refunded':
      return refusal('payment-refunded', result.detail)
    case 'refund-owed':
      // Still charged: come back for the refund's id, never "pay again, nothing was charged".
      return refusal('payment-refunded', result.detail, {
        status: 503,
        retryable: 'same-credential',
        ...optionalRetryAfter(result.retryAfterS),
      })
    case 'resend-limited':
      // A paid answer re-sent too often: wait and send the same credential again, never pay again.
      return refusal('too-many-resends', result.detail, {
        retryable: result.resendable ? 'same-credential' : false,
        ...optionalRetryAfter(result.retryAfterS),
      })
    case 'limited': {
      const busy = result.accountBusy === true
      return limitedRefusal(
        busy
          ? `every client's unfinished payments together are at the hourly bound; try again in ${result.retryAfterS} s`
          : result.detail,
        result.retryAfterS ?? 0,
        Date.parse(echoed.expires ?? ''),
        Date.now(),
        busy,
      )
    }
  }
}

const optionalRetryAfter = (retryAfterS: number | undefined) =>
  retryAfterS === undefined ? {} : { retryAfterS }

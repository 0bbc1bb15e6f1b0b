/**
 * The card's settlement, run by the ledger once it has claimed the payment: one create call under
 * the payment's idempotency key, and, for a payment whose outcome was lost, the processor's reads
 * that are consistent after a write (the intent by id, or the list of intents created in the
 * window in which it can have been made), search only where the index has had time to catch up,
 * and only then the create call again under the same key (it cannot charge twice).
 */
import type { MethodSettlement } from '../method.js'
import type { SettleOutcome } from '../outcome.js'
import { type LedgerRecord, REFUND_RETRY_AFTER_S } from '../retention.js'
import type { SettleResult } from '../settlement.js'
import { creationWindow } from './creation-window.js'
import {
  createPaymentIntent,
  findPaymentIntent,
  type IntentRequest,
  type ProcessorConfig,
  retrievePaymentIntent,
  SEARCH_INDEX_LAG_MS,
  searchPaymentIntent,
} from './processor.js'

/** One card payment's settlement: `request` is what its intent is created with, `now` the caller's clock. */
export function cardSettlement(
  processor: ProcessorConfig,
  request: IntentRequest,
  now: number,
): MethodSettlement {
  const windowOf = (record: LedgerRecord) =>
    creationWindow(
      record.firstAttemptAt,
      record.lastAttemptAt ?? record.firstAttemptAt,
      processor.timeoutMs,
      record.skewS,
    )

  /**
   * Search by challenge id where the consistent list found nothing: a hit (read back by id) is the
   * payment; a miss counts only once the index lag has passed since the first attempt, and before
   * that the buyer comes back (null: absent as far as both can tell).
   */
  const searchedAfterLag = async (record: LedgerRecord): Promise<SettleOutcome | null> => {
    const found = await searchPaymentIntent(processor, request.challengeId)
    if ('unknown' in found) return { kind: 'unknown', detail: found.unknown }
    if (found.id) return retrievePaymentIntent(processor, found.id)
    const lagMs = processor.searchLagMs ?? SEARCH_INDEX_LAG_MS
    const waitMs = record.firstAttemptAt + lagMs - now
    return waitMs > 0
      ? {
          kind: 'unknown',
          detail:
            "the processor's list shows no payment for this challenge, and its search has not had time to index one yet",
          retryAfterS: Math.ceil(waitMs / 1000),
        }
      : null
  }

  return {
    boundMs: processor.timeoutMs,
    charge: () => createPaymentIntent(processor, request),

    /** Asks the processor what became of a pending payment, through consistent reads only. */
    async reconcile(record, save) {
      let known: SettleOutcome | null
      if (record.intentId) known = await retrievePaymentIntent(processor, record.intentId)
      else {
        const window = windowOf(record)
        // Read on from where the last retry stopped, over the same window only.
        const walked = record.windowWalk
        const resume =
          walked && walked.gte === window.gte && walked.lte === window.lte ? walked.after : undefined
        known = await findPaymentIntent(processor, request.challengeId, window, resume)
        if (known?.kind === 'unknown' && known.resumeAfter && known.resumeAfter !== resume) {
          record.windowWalk = { ...window, after: known.resumeAfter }
          await save(record)
        }
      }
      if (known) return known
      // The whole window holds no intent for this challenge; search by its id must miss too, once its
      // index has had time to catch up, before absence counts (a skewed clock misplaces the window).
      const searched = await searchedAfterLag(record)
      if (searched) return searched
      // The whole window in which the intent could have been created holds none for this challenge.
      // Repeat the create call under the same key (it cannot charge twice): a fresh answer is
      // definitive. Noted first, since this call may be the one that creates the intent.
      record.lastAttemptAt = now
      await save(record)
      const again = await createPaymentIntent(processor, request)
      if (again.kind !== 'unknown' || !again.storedFailure) return again
      // The key's first call ended in a failure the processor stored, and the consistent list shows it
      // created no intent: no payment exists, so nothing was charged, and this key can never pay.
      return {
        kind: 'declined',
        detail:
          'the processor failed before creating a payment, so nothing was charged; pay the fresh challenge',
        notTheCard: true,
      }
    },

    /**
     * A pending payment sent again after its delivery window closed: never delivered now, and never
     * told "nothing was charged" unless the processor's reads say so. Reads only: no create call is
     * repeated (the processor's idempotency key may be forgotten by now, so a repeat could charge).
     */
    async pastWindow(record, closed): Promise<SettleResult> {
      const known = record.intentId
        ? await retrievePaymentIntent(processor, record.intentId)
        : await findPaymentIntent(processor, request.challengeId, windowOf(record))
      const found = known === null ? await searchedAfterLag(record) : known
      if (found === null || found.kind === 'declined')
        return {
          ok: false,
          reason: 'expired',
          detail: `this payment was never completed and ${closed}; nothing was charged for it`,
        }
      if (found.kind === 'succeeded')
        return {
          ok: false,
          reason: 'refund-owed',
          detail: `this payment was charged but ${closed}, so its answer can no longer be delivered and it is owed a full refund, which the reconciler makes (every 15 minutes); send the same credential again later to get the refund's id`,
          retryAfterS: REFUND_RETRY_AFTER_S,
        }
      return {
        ok: false,
        reason: 'unavailable',
        detail: `this payment is still unsettled and ${closed}, so its answer can no longer be delivered; whether it was charged is not known yet (if it was, it is refunded automatically). Send the same credential again later to learn which; do not count it as uncharged before then`,
        retryAfterS: REFUND_RETRY_AFTER_S,
      }
    },
  }
}

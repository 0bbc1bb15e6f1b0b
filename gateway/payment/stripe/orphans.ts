/**
 * Which charges the scheduled reconciler refunds: a succeeded PaymentIntent of this service whose
 * answer was never delivered and can no longer be. Pure: the ledger and the tests both call it.
 */
import { DELIVERY_WINDOW_MS, type LedgerRecord } from '../retention.js'

export type OrphanVerdict =
  /** Refund it now. */
  | 'refund'
  /** Delivered: the buyer has its answer. */
  | 'delivered'
  /** Still pending inside its delivery window: the buyer may yet come back for it. */
  | 'deliverable'
  /** Refunded before. */
  | 'refunded'

/** What the ledger did about one succeeded intent. */
export type OrphanOutcome =
  | 'refunded-now'
  | 'refunded-before'
  /** The refund call failed or went unanswered; the next run tries again under the same key. */
  | 'refund-pending'
  | 'delivered'
  | 'deliverable'

export function orphanVerdict(
  record: LedgerRecord | undefined,
  intentId: string,
  now: number,
): OrphanVerdict {
  // A charge no ledger record claims was never answered (every claim is written before its charge).
  if (!record) return 'refund'
  // A second intent for one challenge is a second charge for one answer.
  if (record.intentId !== undefined && record.intentId !== intentId) return 'refund'
  switch (record.state) {
    case 'settled':
      return 'delivered'
    case 'refused':
      return 'refund'
    case 'refunded':
      return record.refund?.id ? 'refunded' : 'refund'
    case 'pending':
      return now > record.expiresAt + DELIVERY_WINDOW_MS ? 'refund' : 'deliverable'
  }
}

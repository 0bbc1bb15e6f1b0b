/**
 * How long the ledger keeps what, and the record it keeps. The times fit together: a pending
 * payment can be delivered until DELIVERY_WINDOW_MS after its challenge expired; the reconciler looks
 * back RECONCILE_LOOKBACK_MS, which covers that window plus its own schedule; a record is kept
 * RECORD_RETENTION_MS, longer than both, so every intent the reconciler sees still has its record.
 */

import type { WalletNote } from './evm/wallet-book.js'
import type { Receipt } from './receipt.js'
import type { SettleResult } from './settlement.js'

const HOUR_MS = 60 * 60 * 1000

/** A charged but unanswered payment can still be delivered this long after its challenge expired. */
export const DELIVERY_WINDOW_MS = 24 * HOUR_MS
/** A repeat under the Idempotency-Key of an answered request gets that answer this long after it. */
export const ANSWER_REPLAY_MS = 24 * HOUR_MS
/** The scheduled reconciler examines intents created this far back. */
export const RECONCILE_LOOKBACK_MS = 48 * HOUR_MS
/** A ledger record is deleted this long after its challenge expired (a kept answer goes sooner). */
export const RECORD_RETENTION_MS = 72 * HOUR_MS

/** A refund owed, or a payment whose fate is read again later, is looked at every 15 minutes (wrangler.jsonc's cron). */
export const REFUND_RETRY_AFTER_S = 15 * 60

/** The answer kept for a repeat under the Idempotency-Key goes when that repeat can no longer be asked for. */
export const answerKeptUntil = (record: LedgerRecord) => (record.settledAt ?? 0) + ANSWER_REPLAY_MS
/** The record itself stays as long as the reconciler may still ask about its intent. */
export const recordKeptUntil = (record: LedgerRecord) => record.expiresAt + RECORD_RETENTION_MS

export interface LedgerRecord {
  /** The payment this record is for (payment-identity.ts); absent on records written before it. */
  payment?: string
  /** Records written before `payment`: a digest of the whole credential (gone 72 h after deploy). */
  credentialDigest?: string
  state: 'pending' | 'settled' | 'refused' | 'refunded'
  /** When the first processor call was made. */
  firstAttemptAt: number
  /** When the latest create call was made, if a retry repeated it (it may have created the intent). */
  lastAttemptAt?: number
  /** When the challenge expired: the delivery window counts from here. */
  expiresAt: number
  /** The PaymentIntent, once the processor has named one. */
  intentId?: string
  receipt?: Receipt
  settledAt?: number
  /** The Idempotency-Key of the request that was answered. */
  idempotencyKey?: string
  refusal?: Extract<SettleResult, { ok: false }>
  /** The largest skew (seconds) the processor's `Date` showed against our clock: the window widens by it. */
  skewS?: number
  /**
   * A retry's walk of the creation window, cut short: its bounds and the last intent read, so the
   * next retry reads on from there rather than from the newest intent again.
   */
  windowWalk?: { gte: number; lte: number; after: string }
  /** The refund of a charge that was never delivered; no id yet while the refund call is unanswered. */
  refund?: { id?: string; at: string }
  /** A wallet payment's note for the operator's book (evm/wallet-book.ts), and whether it is filed. */
  walletNote?: WalletNote
  noted?: boolean
}

/**
 * What a settlement attempt answers: the ledger's result types, apart from the Durable Object so
 * that code with no runtime (the refund verdicts, the tests) can name them.
 */
import type { Receipt } from './receipt.js'

export type SettleFailure =
  /** The challenge's payment with another token was refused: nothing was charged for this one. */
  | 'used'
  /** This payment's token (a wallet authorization) was claimed for another challenge: nothing charged. */
  | 'token-taken'
  /** The challenge is being paid, or was paid, with another token: this one is not charged. */
  | 'another-token'
  /** This credential was accepted and its answer given to another request (see `resendable`). */
  | 'accepted'
  /** The challenge had expired when it was first claimed, or a pending payment's window has passed. */
  | 'expired'
  /** Definitively refused by the processor; nothing was charged. */
  | 'declined'
  /** The intent waits for an extra step (such as 3-D Secure); the same credential may be sent again. */
  | 'requires_action'
  /** The outcome is not known yet; the same credential may be sent again and never charges twice. */
  | 'unavailable'
  /** A new claim from a client over its failure limit: nothing was claimed or charged. */
  | 'limited'
  /** Charged but never delivered, and refunded (the refund exists). */
  | 'refunded'
  /** Charged but never delivered, and owed a refund not made yet: the charge is still on the card. */
  | 'refund-owed'
  /** A re-send of a paid answer beyond RESENDS_PER_MINUTE (see `resendable`): nothing charged. */
  | 'resend-limited'

export type SettleResult =
  | {
      ok: true
      receipt: Receipt
      /** A repeat under the Idempotency-Key that was answered: the kept answer, if it was kept. */
      repeat?: { answer?: KeptAnswer }
    }
  | {
      ok: false
      reason: SettleFailure
      detail: string
      /** The processor refused this card just now (not a stored refusal replayed): counts against the client. */
      fresh?: boolean
      /** A new claim's first processor call, which did not complete: counts against the client's hourly budget. */
      newIntent?: boolean
      retryAfterS?: number
      /** `limited`: the whole account's bound is reached (every client's), not this client's. */
      accountBusy?: boolean
      /** `accepted`, `resend-limited`: the answer can still be had again under the Idempotency-Key it was given under. */
      resendable?: boolean
    }

/** The answer a paid request was given, kept for a repeat under the same Idempotency-Key. */
export interface KeptAnswer {
  body: string
  headers: Record<string, string>
}

/**
 * What one settlement call of any payment method answers, as the ledger records it: paid (with the
 * method's reference: a PaymentIntent, a transaction), not complete yet, refused, or not known.
 * Each method classifies its own answers into these (stripe/processor.ts, evm/settle.ts).
 */

export type SettleOutcome =
  | { kind: 'succeeded'; id: string }
  /** The card's intent exists and may still complete: requires_action or processing. */
  | { kind: 'incomplete'; id: string; status: 'requires_action' | 'processing' }
  /**
   * A definitive refusal: the card or the token was refused, or the intent was abandoned.
   * `notTheCard`: nothing reached the card (the processor failed before creating a payment).
   * `createdIntent`: the answer names an intent the processor created (a card declined at confirm),
   * which the reconciler will read; a refused token, an unknown one or a wallet refusal created none.
   */
  | { kind: 'declined'; detail: string; notTheCard?: boolean; createdIntent?: boolean }
  /**
   * Whether money moved is unknown. `storedFailure`: the processor replayed a failure it stored
   * under this idempotency key, so the same key can never succeed.
   */
  | {
      kind: 'unknown'
      detail: string
      storedFailure?: boolean
      retryAfterS?: number
      /** A walk of the creation window cut short: the next look resumes after this intent. */
      resumeAfter?: string
      /** How far the processor's clock (its `Date`) ran ahead of ours, in seconds (negative: behind). */
      skewS?: number
    }

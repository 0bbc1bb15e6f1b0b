/**
 * Where unanswered wallet payments are filed for the operator (owed.ts): one book per UTC day of the
 * challenge's expiry, so no one object holds every note and the list reads them in bounded pages,
 * and a root book that lists the days with notes. The challenge's own ledger object files its note,
 * only once the claim passed its budgets and was not settled at once (or, if it never learned its
 * outcome, when its delivery window closes), and takes it back when the payment is answered later.
 */

export interface WalletNote {
  challengeId: string
  payer: string
  nonce: string
  /** Base units of the token. */
  amount: string
  /** When the challenge expired (ms): the delivery window counts from here. */
  expiresAt: number
}

/** The root book: its `day:` keys name the day books; notes written before day books live here too. */
export const WALLET_BOOK = 'wallet-book'

/** The day a note is filed under: the UTC date of its challenge's expiry. */
export const bookDay = (expiresAt: number) => new Date(expiresAt).toISOString().slice(0, 10)

/** The ledger object name of a day's book; `legacy` is the root, where older notes were kept. */
export const dayBookName = (day: string) => (day === LEGACY_DAY ? WALLET_BOOK : `${WALLET_BOOK}:${day}`)

/** The pseudo-day of notes kept in the root book before day books existed. */
export const LEGACY_DAY = 'legacy'

/** The note a wallet claim files: what the operator needs to find and return its payment. */
export const walletNote = (
  challengeId: string,
  w: { from: string; nonce: string; amount: string },
  expiresAt: number,
): WalletNote => ({ challengeId, payer: w.from, nonce: w.nonce, amount: w.amount, expiresAt })

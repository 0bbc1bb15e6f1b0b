/**
 * What one payment is: one challenge id and one method token (the card's shared payment token, a
 * wallet's authorization), nothing else of the echoed credential. The challenge id already binds
 * the realm, the offer, the expiry and the request; the unbound `description`, extra members, their
 * order and encoding say nothing about which payment this is. The card processor's idempotency key
 * is made of the same pair, so the ledger and the processor always agree on "the same payment".
 */

/** The ledger's key for one payment: the same pair always gives the same string, distinct pairs never do. */
export function paymentIdentity(challengeId: string, token: string): string {
  // JSON keeps the two parts apart whatever characters a method's token uses.
  return JSON.stringify([challengeId, token])
}

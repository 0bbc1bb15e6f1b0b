/**
 * The card method (`stripe`): its offer, a charge in cents paid with a Stripe shared payment token,
 * and its check of a credential's payload, which names the one payment the ledger claims. The
 * challenge itself is the core's to issue and verify (challenge.ts, pay.ts).
 */
import { encodeText } from '../../../schema/base64url.js'
import { canonicalize } from '../../../schema/jcs.js'
import { PRICE } from '../../../schema/routes.js'
import { sha256Hex } from '../../sha256-hex.js'
import type { Challenge, Offer } from '../challenge.js'
import type { MethodWords } from '../method.js'
import { type Refusal, refusal } from '../problems.js'

export const METHOD = 'stripe'
const SPT = /^spt_[A-Za-z0-9_]{1,200}$/

/** How the card's refusals name its settlement. */
export const CARD_WORDS: MethodWords = { settlement: 'PaymentIntent' }

/** The charge request every paid call offers: amount in cents, card through Stripe. */
export function chargeRequest(config: { networkId: string }) {
  return {
    amount: PRICE.amount,
    currency: PRICE.currency,
    methodDetails: { networkId: config.networkId, paymentMethodTypes: ['card'] },
  }
}

/** Each configuration's card offer, encoded once: every paid call and every 402 names it. */
const offers = new WeakMap<{ networkId: string }, Offer>()

/** The card's offer, as its challenges carry it. */
export function cardOffer(config: { networkId: string }): Offer {
  let offer = offers.get(config)
  if (!offer) {
    offer = { method: METHOD, request: encodeText(canonicalize(chargeRequest(config))) }
    offers.set(config, offer)
  }
  return offer
}

/**
 * The card payment a credential's payload names, once its challenge is verified: its token, and
 * the digest records written before payment identity were keyed on (gone once they expire, 72 h).
 */
export async function cardClaim(
  /** The challenge the credential echoes, its request as issued (a string). */
  echoed: Challenge,
  payload: Record<string, unknown>,
  expiresAt: number,
) {
  let legacyDigest: string
  try {
    legacyDigest = await sha256Hex(canonicalize({ challenge: echoed, payload }))
  } catch {
    // Numbers JSON cannot round-trip (1e400) or nesting past the engine's limits: the client's error.
    return refusal('malformed-credential', 'the credential holds values that have no canonical JSON form')
  }
  const spt = payload.spt
  if (typeof spt !== 'string' || !SPT.test(spt))
    return refusal('invalid-payload', 'payload.spt must be a Stripe shared payment token (spt_…)')
  return {
    token: spt,
    legacyDigest,
    method: METHOD,
    amount: PRICE.amount,
    currency: PRICE.currency,
    expiresAt,
  }
}

export type CardClaim = Exclude<Awaited<ReturnType<typeof cardClaim>>, Refusal>

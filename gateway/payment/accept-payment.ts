/**
 * Accept-Payment (draft-httpauth-payment-01 §7.4): the payment methods and intents a client takes,
 * each with a weight, as in Accept. When the header is there and follows the grammar, a 402 offers
 * the Payment challenges it accepts (q > 0), highest q first, ties in this service's order. When it
 * is absent, does not follow the grammar, or accepts none of them, the 402 offers every challenge
 * in this service's order (§7.4 lets a server ignore it in the last two cases). It is never an error.
 */

/** One payment-range: a method and an intent, either of them possibly `*`, and its weight. */
export interface PaymentRange {
  method: string
  intent: string
  q: number
}

export const ACCEPT_PAYMENT_HEADER = 'accept-payment'

// payment-range = payment-token [ weight ]; payment-token = (payment-method-id / "*") "/"
// (intent-token / "*"), where payment-method-id = 1*LOWERALPHA and intent-token =
// 1*( ALPHA / DIGIT / "-" ). weight = OWS ";" OWS "q=" qvalue (RFC 9110 §12.4.2); "q=" is an ABNF
// string, so case-insensitive. No other parameter is in the grammar.
const RANGE = /^([a-z]+|\*)\/([A-Za-z0-9-]+|\*)(?:[ \t]*;[ \t]*[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?))?$/

/** OWS is spaces and tabs only (RFC 9110 §5.6.3). */
const withoutOws = (s: string) => s.replace(/^[ \t]+|[ \t]+$/g, '')

/**
 * The ranges of an Accept-Payment value (`#payment-range`, an RFC 9110 §5.6.1 list whose empty
 * members are skipped), or undefined when the header is absent or any member breaks the grammar.
 */
export function parseAcceptPayment(value: string | null): PaymentRange[] | undefined {
  if (value === null) return undefined
  const ranges: PaymentRange[] = []
  for (const member of value.split(',').map(withoutOws)) {
    if (member === '') continue
    const match = RANGE.exec(member)
    if (!match) return undefined
    const [, method, intent, q] = match as unknown as [string, string, string, string | undefined]
    ranges.push({ method, intent, q: q === undefined ? 1 : Number(q) })
  }
  return ranges
}

/** How many of its two parts a range names (2, 1, or 0 for two wildcards), or -1 when it does not match. */
function specificity(range: PaymentRange, offer: { method: string; intent: string }): number {
  const method = range.method === '*' ? 0 : range.method === offer.method ? 1 : Number.NaN
  const intent = range.intent === '*' ? 0 : range.intent === offer.intent ? 1 : Number.NaN
  const named = method + intent
  return Number.isNaN(named) ? -1 : named
}

/**
 * The weight a client gives an offer: that of the most specific range matching it (so `evm/charge;q=0`
 * refuses evm beside a wildcard that accepts it), the higher q among equally specific ones; 0 when none matches.
 */
function weightOf(offer: { method: string; intent: string }, ranges: readonly PaymentRange[]): number {
  let best = { specificity: -1, q: 0 }
  for (const range of ranges) {
    const s = specificity(range, offer)
    if (s > best.specificity || (s === best.specificity && s >= 0 && range.q > best.q))
      best = { specificity: s, q: range.q }
  }
  return best.q
}

/**
 * `offers` (in this service's order of preference) as the client's ranges ask for them: those it
 * weighs above 0, highest first, ties kept in this service's order. Every offer, as given, when
 * there are no ranges or none of the offers is accepted.
 */
export function preferredOffers<T extends { method: string; intent: string }>(
  offers: readonly T[],
  ranges: readonly PaymentRange[] | undefined,
): T[] {
  if (!ranges) return [...offers]
  const accepted = offers
    .map((offer, index) => ({ offer, index, q: weightOf(offer, ranges) }))
    .filter((weighed) => weighed.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  return accepted.length ? accepted.map((weighed) => weighed.offer) : [...offers]
}

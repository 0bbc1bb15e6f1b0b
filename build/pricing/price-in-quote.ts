/**
 * The honesty check for pricing rows: a published price must be written in its own quote.
 */

/** The ways a price may be written in vendor text: 0.99, 19, 19.00, 1,000, 1,000.00. */
export function priceSpellings(price: number): string[] {
  const forms = new Set([
    String(price),
    price.toFixed(2),
    price.toLocaleString('en-US'),
    price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  ])
  // A price under a dollar may be written as cents: "$.50" is rare, "50¢" is common.
  if (price < 1) forms.add(`${Math.round(price * 100)}¢`)
  return [...forms]
}

/** True when the quote contains the price as a whole number token (19 does not match 190 or 1.19). */
export function priceAppearsIn(price: number, quote: string): boolean {
  return priceSpellings(price).some((form) => {
    const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    return new RegExp(`(?<![\\d.,])${escaped}(?![\\d]|[.,]\\d)`).test(quote)
  })
}

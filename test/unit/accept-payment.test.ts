/**
 * Accept-Payment (draft-httpauth-payment-01 §7.4): its grammar, read exactly, and the order of the
 * offers it asks for. An unreadable header is ignored, never an error.
 */
import { describe, expect, it } from 'vitest'
import { parseAcceptPayment, preferredOffers } from '../../gateway/payment/accept-payment.js'

/** This service's offers in its own order: the card, then the wallet. */
const OFFERS = [
  { method: 'stripe', intent: 'charge' },
  { method: 'evm', intent: 'charge' },
] as const

const offered = (header: string | null) =>
  preferredOffers(OFFERS, parseAcceptPayment(header)).map((o) => o.method)

describe('Accept-Payment', () => {
  it('behavior: absent, every offer in the service order', () => {
    expect(parseAcceptPayment(null)).toBeUndefined()
    expect(offered(null)).toEqual(['stripe', 'evm'])
  })

  it('behavior: a client that takes one method is offered that method only', () => {
    expect(offered('stripe/charge')).toEqual(['stripe'])
    expect(offered('evm/charge')).toEqual(['evm'])
    expect(offered('evm/*')).toEqual(['evm'])
  })

  it('behavior: higher q first, equal q in the service order', () => {
    expect(offered('evm/charge, stripe/charge;q=0.5')).toEqual(['evm', 'stripe'])
    expect(offered('stripe/charge;q=0.2, evm/charge;q=0.9')).toEqual(['evm', 'stripe'])
    expect(offered('evm/charge, stripe/charge')).toEqual(['stripe', 'evm'])
    expect(offered('*/*')).toEqual(['stripe', 'evm'])
  })

  it('behavior: the most specific range decides, whatever a wildcard says', () => {
    expect(offered('*/*;q=0.5, evm/*')).toEqual(['evm', 'stripe'])
    expect(offered('*/*, stripe/charge;q=0')).toEqual(['evm'])
    expect(offered('*/charge;q=0, evm/charge;q=0.3')).toEqual(['evm'])
    // Equally specific ranges for one offer: the higher q counts.
    expect(offered('evm/charge;q=0, evm/charge;q=0.4, stripe/charge;q=0.3')).toEqual(['evm', 'stripe'])
  })

  it('behavior: q=0 and unknown methods or intents accept nothing, and then every offer is made', () => {
    expect(offered('evm/charge;q=0')).toEqual(['stripe', 'evm'])
    expect(offered('tempo/charge, stripe/session')).toEqual(['stripe', 'evm'])
    expect(offered('')).toEqual(['stripe', 'evm'])
  })

  it('behavior: the grammar as written: weights, OWS and empty list members', () => {
    expect(parseAcceptPayment(' , evm/charge ;\tQ=0.25,, stripe/*;q=1.000 ,')).toEqual([
      { method: 'evm', intent: 'charge', q: 0.25 },
      { method: 'stripe', intent: '*', q: 1 },
    ])
    expect(parseAcceptPayment('evm/Charge-2;q=0.')).toEqual([{ method: 'evm', intent: 'Charge-2', q: 0 }])
  })

  it('error: a header that breaks the grammar anywhere is ignored whole, never refused', () => {
    for (const header of [
      'Stripe/charge',
      'stripe',
      'stripe/charge/x',
      'stripe /charge',
      'str1pe/charge',
      'stripe/charge;q=2',
      'stripe/charge;q=1.5',
      'stripe/charge;q=0.1234',
      'stripe/charge;q=.5',
      'stripe/charge;level=1',
      'stripe/charge q=1',
      'evm/charge, card',
      'evm/charge;q=0.5;q=0.4',
    ]) {
      expect(parseAcceptPayment(header), header).toBeUndefined()
      expect(offered(header), header).toEqual(['stripe', 'evm'])
    }
  })
})

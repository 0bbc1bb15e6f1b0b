/**
 * Accept-Payment over HTTP (draft-httpauth-payment-01 §7.4): a 402 offers the Payment challenges the
 * client takes, in its order; without the header, or with one that breaks the grammar, it offers
 * both in the service's order. mppx sends the header for the methods it holds, and still pays.
 */
import { Challenge } from 'mppx'
import { evm, Mppx, stripe } from 'mppx/client'
import { describe, expect, it } from 'vitest'
import { base, decodeReceipt, get, token } from '../support/service.js'
import { freshBuyer, LOCAL_ASSET } from '../support/wallet.js'

const PATH = '/v1/fde-lessons?topic=retry'

/** The 402 for PATH asked with `accept` (or none), its challenges' methods and its body. */
async function offers(accept?: string) {
  const r = await get(PATH, accept === undefined ? {} : { headers: { 'accept-payment': accept } })
  expect(r.status).toBe(402)
  const challenges = Challenge.fromResponseList(r.clone())
  const body = (await r.json()) as { challengeId: string; x402Version?: number }
  return { r, methods: challenges.map((c) => c.method), ids: challenges.map((c) => c.id), body }
}

describe('Accept-Payment', () => {
  it('behavior: without it, the card challenge then the wallet one', async () => {
    expect((await offers()).methods).toEqual(['stripe', 'evm'])
  })

  it('behavior: card only: the card challenge alone, named by the body; the x402 offers stay', async () => {
    const { r, methods, ids, body } = await offers('stripe/charge')
    expect(methods).toEqual(['stripe'])
    expect(body.challengeId).toBe(ids[0])
    // x402's own offers are not Payment challenges: an x402 client sends no Accept-Payment.
    expect(r.headers.get('payment-required')).toBeTruthy()
    expect(body.x402Version).toBe(1)
  })

  it('behavior: wallet only: the evm challenge alone, first and named by the body', async () => {
    for (const accept of ['evm/charge', 'evm/*', '*/*, stripe/charge;q=0']) {
      const { methods, ids, body } = await offers(accept)
      expect(methods, accept).toEqual(['evm'])
      expect(body.challengeId, accept).toBe(ids[0])
    }
  })

  it('behavior: both: ordered by q, ties in the service order', async () => {
    expect((await offers('evm/charge, stripe/charge;q=0.5')).methods).toEqual(['evm', 'stripe'])
    expect((await offers('evm/charge, stripe/charge')).methods).toEqual(['stripe', 'evm'])
  })

  it('error: a header that breaks the grammar, or accepts nothing offered, is ignored: both challenges', async () => {
    for (const accept of [
      'Stripe/charge',
      'evm/charge;q=2',
      'evm/charge;level=1',
      'tempo/charge',
      'evm/charge;q=0',
    ])
      expect((await offers(accept)).methods, accept).toEqual(['stripe', 'evm'])
  })
})

/** A fetch that notes the methods each 402 it passes on offers. */
function recording(seen: string[][]): typeof fetch {
  return async (input, init) => {
    const r = await fetch(input, init)
    if (r.status === 402) seen.push(Challenge.fromResponseList(r.clone()).map((c) => c.method))
    return r
  }
}

describe('mppx sends Accept-Payment for the methods it holds', () => {
  it('behavior: a card-only client is offered the card alone and pays', async () => {
    const seen: string[][] = []
    const mppx = Mppx.create({
      polyfill: false,
      fetch: recording(seen),
      methods: [stripe({ paymentMethod: 'pm_card_visa', createToken: async () => token() })],
    })
    const r = await mppx.fetch(`${base()}${PATH}`)
    expect(r.status).toBe(200)
    const receipt = decodeReceipt(r.headers.get('payment-receipt'))
    expect(receipt.method).toBe('stripe')
    // A card receipt names no chain and no payer.
    expect(receipt).not.toHaveProperty('chainId')
    expect(receipt).not.toHaveProperty('payer')
    expect(seen).toEqual([['stripe']])
  })

  it('behavior: a wallet-only client is offered the wallet alone, first, and pays', async () => {
    const seen: string[][] = []
    const mppx = Mppx.create({
      polyfill: false,
      fetch: recording(seen),
      methods: [evm({ account: freshBuyer(), currencies: [LOCAL_ASSET], maxAmount: '1' })],
    })
    const r = await mppx.fetch(`${base()}${PATH}`)
    expect(r.status).toBe(200)
    expect(decodeReceipt(r.headers.get('payment-receipt')).method).toBe('evm')
    expect(seen).toEqual([['evm']])
  })
})

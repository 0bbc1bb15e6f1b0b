/**
 * Interop on the wallet rail: a buyer holding only a freshly generated key pays every paid route
 * with three real clients, offline, against the local service and its facilitator stand-in: mppx's
 * `evm` client on the MPP wire, mppx on the x402 wire, and the x402 project's own client
 * (@x402/fetch with @x402/evm). N paid calls leave exactly N settlements of 0.50 USD in USDC to the
 * configured recipient.
 */

import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch'
import { evm, Mppx } from 'mppx/client'
import { describe, expect, it } from 'vitest'
import { base, decodeReceipt, PAID_PATHS } from '../support/service.js'
import { freshBuyer, LOCAL_ASSET, LOCAL_RECIPIENT, LOCAL_TOKEN, settlementsFrom } from '../support/wallet.js'

/** 0.50 USD in the local token's 6 decimals. */
const PRICE_UNITS = '500000'

async function expectSettled(payer: string, paid: Response[]) {
  const settlements = await settlementsFrom(payer)
  expect(settlements).toHaveLength(paid.length)
  for (const s of settlements) {
    expect(s.value).toBe(PRICE_UNITS)
    expect(s.to.toLowerCase()).toBe(LOCAL_RECIPIENT.toLowerCase())
    expect(s.token.toLowerCase()).toBe(LOCAL_TOKEN.address.toLowerCase())
  }
  const references = paid.map((r) => decodeReceipt(r.headers.get('payment-receipt')).reference)
  expect(new Set(references)).toEqual(new Set(settlements.map((s) => s.transaction)))
}

describe('the 402 offers both rails', () => {
  it('behavior: the card challenge, then an evm challenge for the same price, and x402 PAYMENT-REQUIRED', async () => {
    const r = await fetch(`${base()}/v1/fde-lessons`)
    expect(r.status).toBe(402)
    const www = r.headers.get('www-authenticate') ?? ''
    expect(www.indexOf('method="stripe"')).toBeGreaterThanOrEqual(0)
    expect(www.indexOf('method="evm"')).toBeGreaterThan(www.indexOf('method="stripe"'))
    const required = JSON.parse(
      Buffer.from(r.headers.get('payment-required') ?? '', 'base64').toString('utf8'),
    )
    expect(required).toMatchObject({
      x402Version: 2,
      accepts: [
        {
          scheme: 'exact',
          network: `eip155:${LOCAL_TOKEN.chainId}`,
          amount: PRICE_UNITS,
          asset: LOCAL_TOKEN.address,
          extra: { name: LOCAL_TOKEN.name, version: LOCAL_TOKEN.version },
        },
      ],
    })
    expect(required.accepts[0].payTo.toLowerCase()).toBe(LOCAL_RECIPIENT.toLowerCase())
    // The 402 body's help names both ways to pay.
    const body = (await r.json()) as { payment_help: string; wallet_help: string }
    expect(body.payment_help).toMatch(/spt/)
    expect(body.wallet_help).toMatch(/method="evm".*PAYMENT-REQUIRED/)
  })
})

describe('mppx evm client, MPP wire (Authorization: Payment method="evm")', () => {
  const account = freshBuyer()
  const mppx = Mppx.create({
    polyfill: false,
    methods: [evm({ account, currencies: [LOCAL_ASSET], maxAmount: '1' })],
  })
  const paid: Response[] = []
  for (const path of PAID_PATHS)
    it(`behavior: pays ${path} with a fresh key and gets 200 with an evm receipt`, async () => {
      const r = await mppx.fetch(`${base()}${path}`)
      expect(r.status).toBe(200)
      const receipt = decodeReceipt(r.headers.get('payment-receipt'))
      expect(receipt).toMatchObject({ status: 'success', method: 'evm', amount: PRICE_UNITS })
      // A wallet receipt names the chain and the address that paid.
      expect(receipt.chainId).toBe(LOCAL_TOKEN.chainId)
      expect(String(receipt.payer).toLowerCase()).toBe(account.address.toLowerCase())
      expect(r.headers.get('payment-response')).toBeNull()
      expect(await r.json()).toBeTruthy()
      paid.push(r)
    })
  it('money: N paid calls, exactly N settlements of 0.50 USD to the recipient', () =>
    expectSettled(account.address, paid))
})

describe('mppx evm client, x402 wire (PAYMENT-SIGNATURE)', () => {
  const account = freshBuyer()
  const mppx = Mppx.create({
    polyfill: false,
    methods: [evm({ account, currencies: [LOCAL_ASSET], maxAmount: '1' })],
    // Only the x402 offer: mppx prefers the Payment challenge when both are payable.
    orderChallenges: (candidates) => candidates.filter((c) => 'scheme' in (c.challenge.request as object)),
  })
  const paid: Response[] = []
  for (const path of PAID_PATHS)
    it(`behavior: pays ${path} over x402 and gets PAYMENT-RESPONSE with the transaction`, async () => {
      const r = await mppx.fetch(`${base()}${path}`)
      expect(r.status).toBe(200)
      const receipt = decodeReceipt(r.headers.get('payment-receipt'))
      expect(receipt.method).toBe('evm')
      expect(receipt.chainId).toBe(LOCAL_TOKEN.chainId)
      expect(String(receipt.payer).toLowerCase()).toBe(account.address.toLowerCase())
      const settled = JSON.parse(
        Buffer.from(r.headers.get('payment-response') ?? '', 'base64').toString('utf8'),
      )
      expect(settled).toMatchObject({ success: true, transaction: receipt.reference })
      paid.push(r)
    })
  it('money: N paid calls, exactly N settlements', () => expectSettled(account.address, paid))
})

describe('@x402/fetch with @x402/evm (the x402 project’s own client)', () => {
  const account = freshBuyer()
  const pay = wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: `eip155:${LOCAL_TOKEN.chainId}`, client: new ExactEvmScheme(account) }],
  })
  const paid: Response[] = []
  for (const path of PAID_PATHS)
    it(`behavior: pays ${path} and gets 200 with PAYMENT-RESPONSE`, async () => {
      const r = await pay(`${base()}${path}`)
      expect(r.status).toBe(200)
      const receipt = decodeReceipt(r.headers.get('payment-receipt'))
      const settled = JSON.parse(
        Buffer.from(r.headers.get('payment-response') ?? '', 'base64').toString('utf8'),
      )
      expect(settled).toMatchObject({ success: true, transaction: receipt.reference, payer: account.address })
      paid.push(r)
    })
  it('money: N paid calls, exactly N settlements', () => expectSettled(account.address, paid))
})

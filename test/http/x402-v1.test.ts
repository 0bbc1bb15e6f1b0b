/**
 * x402 v1 clients pay: the 402 body carries the v1 offer beside the problem's members, the legacy
 * client (`x402-fetch` 1.x, with the `x402` package it builds on) pays every paid route with a
 * freshly generated key, and a v1 `X-PAYMENT` keeps the guarantees of the other wires: one payment
 * pays one answer, the same payment and Idempotency-Key get the same bytes again, a payment sent
 * again without a key or to another request is refused, and an unknown settlement is read from the
 * chain, never settled twice.
 */
import { PaymentRequiredV1Schema } from '@x402/core/schemas'
import type { PrivateKeyAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { createPaymentHeader } from 'x402/client'
import { decodeXPaymentResponse } from 'x402/shared'
import { PaymentRequirementsSchema } from 'x402/types'
import { wrapFetchWithPayment } from 'x402-fetch'
import { base, decodeReceipt, get, PAID_PATHS } from '../support/service.js'
import { freshBuyer, LOCAL_RECIPIENT, LOCAL_TOKEN, setFault, settlementsFrom } from '../support/wallet.js'

/** 0.50 USD in the local token's 6 decimals; x402-fetch pays at most 0.10 USDC unless told more. */
const PRICE_UNITS = '500000'
const MAX_VALUE = 500_000n
const PATH = '/v1/fde-lessons?topic=retry'

/** The v1 offer of a 402 body, as the x402 package's own schema reads it. */
async function v1Offer(path: string) {
  const r = await get(path)
  expect(r.status).toBe(402)
  const body = (await r.json()) as { x402Version: number; accepts: unknown[] } & Record<string, unknown>
  expect(body.x402Version).toBe(1)
  return { body, requirements: PaymentRequirementsSchema.parse(body.accepts[0]) }
}

/** X-PAYMENT as x402's own client makes it for `path`'s v1 offer. */
async function xPayment(buyer: PrivateKeyAccount, path = PATH) {
  const { requirements } = await v1Offer(path)
  return createPaymentHeader(buyer as never, 1, requirements)
}

const settled = (r: Response) => decodeXPaymentResponse(r.headers.get('x-payment-response') ?? '')

describe('the 402 body carries the x402 v1 offer', () => {
  it('behavior: x402Version 1 and accepts (exact, the network by name, the price, payTo, asset, token domain) beside the problem', async () => {
    const { body, requirements } = await v1Offer(PATH)
    // The current x402 package's schema of a v1 PaymentRequired reads it too.
    expect(PaymentRequiredV1Schema.safeParse(body).success).toBe(true)
    // The problem's members stay: a Payment-scheme client reads the same body.
    expect(body).toMatchObject({ status: 402, retryable: 'pay-again' })
    expect(String(body.type)).toMatch(/payment-required$/)
    expect(body.error).toBe(body.detail)
    expect(requirements).toMatchObject({
      scheme: 'exact',
      network: 'base-sepolia',
      maxAmountRequired: PRICE_UNITS,
      resource: `${base()}${PATH}`,
      mimeType: 'application/json',
      maxTimeoutSeconds: 300,
      asset: LOCAL_TOKEN.address,
      extra: { name: LOCAL_TOKEN.name, version: LOCAL_TOKEN.version },
    })
    expect(requirements.payTo.toLowerCase()).toBe(LOCAL_RECIPIENT.toLowerCase())
    expect(requirements.description.length).toBeGreaterThan(0)
    // v1's discovery field: how to call the route, for crawlers of v1 offers.
    expect(requirements.outputSchema).toMatchObject({
      input: { type: 'http', method: 'GET', discoverable: true },
    })
  })
})

describe('x402-fetch 1.x (the legacy x402 client) pays every paid route', () => {
  const buyer = freshBuyer()
  const pay = wrapFetchWithPayment(fetch, buyer as never, MAX_VALUE)
  const paid: Response[] = []
  for (const path of PAID_PATHS)
    it(`behavior: pays ${path} with a fresh key and gets 200 with X-PAYMENT-RESPONSE`, async () => {
      const r = await pay(`${base()}${path}`)
      expect(r.status).toBe(200)
      const receipt = decodeReceipt(r.headers.get('payment-receipt'))
      expect(receipt).toMatchObject({ status: 'success', method: 'evm', amount: PRICE_UNITS })
      expect(settled(r)).toMatchObject({
        success: true,
        transaction: receipt.reference,
        network: 'base-sepolia',
        payer: buyer.address,
      })
      expect(r.headers.get('payment-response')).toBeNull()
      expect(await r.json()).toBeTruthy()
      paid.push(r)
    })
  it('money: N paid calls, exactly N settlements of 0.50 USD to the recipient', async () => {
    const settlements = await settlementsFrom(buyer.address)
    expect(settlements).toHaveLength(paid.length)
    for (const s of settlements) {
      expect(s.value).toBe(PRICE_UNITS)
      expect(s.to.toLowerCase()).toBe(LOCAL_RECIPIENT.toLowerCase())
    }
    const references = paid.map((r) => decodeReceipt(r.headers.get('payment-receipt')).reference)
    expect(new Set(references)).toEqual(new Set(settlements.map((s) => s.transaction)))
  })
})

describe('a v1 payment keeps the money guarantees', () => {
  it('money: the same X-PAYMENT and Idempotency-Key get the same bytes, digest and receipt, settled once', async () => {
    const buyer = freshBuyer()
    const headers = { 'x-payment': await xPayment(buyer), 'idempotency-key': `v1-${buyer.address}` }
    const first = await get(PATH, { headers })
    expect(first.status).toBe(200)
    const again = await get(PATH, { headers })
    expect(again.status).toBe(200)
    expect(await again.text()).toBe(await first.text())
    for (const name of ['content-digest', 'payment-receipt'])
      expect(again.headers.get(name), name).toBe(first.headers.get(name))
    expect(settled(again).transaction).toBe(settled(first).transaction)
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })

  it('money: the same X-PAYMENT without a key is refused 409 and never invited to pay again', async () => {
    const buyer = freshBuyer()
    const headers = { 'x-payment': await xPayment(buyer) }
    expect((await get(PATH, { headers })).status).toBe(200)
    const again = await get(PATH, { headers })
    expect(again.status).toBe(409)
    expect(again.headers.get('www-authenticate')).toBeNull()
    expect(((await again.json()) as { type: string }).type).toMatch(/payment-already-accepted$/)
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })

  it('money: an X-PAYMENT sent to another request is refused and settles nothing more', async () => {
    const buyer = freshBuyer()
    const header = await xPayment(buyer)
    expect((await get(PATH, { headers: { 'x-payment': header } })).status).toBe(200)
    const elsewhere = await get('/v1/fde-playbooks', { headers: { 'x-payment': header } })
    expect(elsewhere.status).toBe(402)
    const body = (await elsewhere.json()) as { type: string; retryable: unknown }
    expect(body.type).toMatch(/invalid-challenge$/)
    expect(body.retryable).toBe('pay-again')
    expect(elsewhere.headers.get('payment-receipt')).toBeNull()
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })

  it('money: a settlement whose answer is lost is read from the chain and delivered, never settled again', async () => {
    const buyer = freshBuyer()
    await setFault(buyer.address, 'lost')
    const headers = { 'x-payment': await xPayment(buyer), 'idempotency-key': `lost-${buyer.address}` }
    const first = await get(PATH, { headers })
    expect(first.status).toBe(503)
    expect(((await first.json()) as { retryable: unknown }).retryable).toBe('same-credential')
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
    await setFault(buyer.address, null)
    const delivered = await get(PATH, { headers })
    expect(delivered.status).toBe(200)
    const settlements = await settlementsFrom(buyer.address)
    expect(settlements).toHaveLength(1)
    expect(decodeReceipt(delivered.headers.get('payment-receipt')).reference).toBe(
      settlements[0]?.transaction,
    )
  })

  it('refusal: a v1 payment on another network, or valid for longer than any offer allows, is refused before any settlement', async () => {
    const buyer = freshBuyer()
    const { requirements } = await v1Offer(PATH)
    const otherNetwork = await createPaymentHeader(buyer as never, 1, { ...requirements, network: 'base' })
    const r = await get(PATH, { headers: { 'x-payment': otherNetwork } })
    expect(r.status).toBe(402)
    expect(((await r.json()) as { detail: string }).detail).toMatch(/network must be base-sepolia/)
    const tooLong = await createPaymentHeader(buyer as never, 1, {
      ...requirements,
      maxTimeoutSeconds: 86_400,
    })
    const late = await get(PATH, { headers: { 'x-payment': tooLong } })
    expect(late.status).toBe(402)
    expect(((await late.json()) as { detail: string }).detail).toMatch(/validBefore must be at most/)
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })

  it('refusal: X-PAYMENT beside another payment is a 400 naming the field; a malformed one is never a 500', async () => {
    const buyer = freshBuyer()
    const both = await get(PATH, {
      headers: { 'x-payment': await xPayment(buyer), 'payment-signature': 'e30=' },
    })
    expect(both.status).toBe(400)
    expect(await both.text()).toMatch(/X-PAYMENT/)
    const cases: [string, RegExp][] = [
      ['not base64 json', /base64 of a JSON/],
      [Buffer.from(JSON.stringify({ pad: 'x'.repeat(7000) })).toString('base64'), /longer than 8192 bytes/],
    ]
    for (const [header, detail] of cases) {
      const malformed = await get(PATH, { headers: { 'x-payment': header } })
      expect(malformed.status).toBe(402)
      const body = (await malformed.json()) as { type: string; detail: string }
      expect(body.type).toMatch(/malformed-credential$/)
      expect(body.detail).toMatch(detail)
    }
    expect(await settlementsFrom(buyer.address)).toHaveLength(0)
  })
})

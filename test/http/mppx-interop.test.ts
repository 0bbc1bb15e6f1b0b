/**
 * Interop: mppx's own client (the reference payer) pays every paid endpoint end to end.
 */
import { Mppx, stripe } from 'mppx/client'
import { describe, expect, it } from 'vitest'
import { base, decodeReceipt, PAID_PATHS, processorLedger, token } from '../support/service.js'

describe('mppx client', () => {
  const issued: string[] = []
  const mppx = Mppx.create({
    polyfill: false,
    methods: [
      stripe({
        paymentMethod: 'pm_card_visa',
        createToken: async ({ amount, currency }) => {
          expect({ amount, currency }).toEqual({ amount: '50', currency: 'usd' })
          const spt = token()
          issued.push(spt)
          return spt
        },
      }),
    ],
  })

  for (const path of PAID_PATHS)
    it(`behavior: pays ${path} and gets 200 with a receipt`, async () => {
      const r = await mppx.fetch(`${base()}${path}`)
      expect(r.status).toBe(200)
      const receipt = decodeReceipt(r.headers.get('payment-receipt'))
      expect(receipt.status).toBe('success')
      const spt = issued.at(-1) as string
      expect((await processorLedger()).succeeded[spt]).toBe(receipt.reference)
      expect(await r.json()).toBeTruthy()
    })
})

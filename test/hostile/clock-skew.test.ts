/**
 * No conclusion from absence alone (#36 L2): with the processor's clock five minutes off ours, a
 * charge whose answer was lost lies outside the creation window as our clock draws it. The window
 * widens by the skew the processor's own `Date` shows, and search by challenge id must also miss,
 * so the retry is delivered the charge, never told "nothing was charged; pay the fresh challenge".
 */
import { describe, expect, it } from 'vitest'
import { decodeReceipt, get, payOnce, processorLedger, standin, token } from '../support/service.js'

describe('a lost answer under clock skew', () => {
  for (const skewS of [300, -300])
    it(`behavior: with the processor ${skewS > 0 ? 'ahead' : 'behind'} by ${Math.abs(skewS)} s, the retry is delivered the charge`, async () => {
      const path = `/v1/fde-lessons?topic=${skewS > 0 ? 'deploy' : 'dns'}`
      const spt = token('lost')
      expect((await standin(`/__standin/config?clock_skew_s=${skewS}`)).status).toBe(200)
      try {
        const { init, paid } = await payOnce(path, spt, spt)
        expect(paid.status).toBe(503)
        const charged = (await processorLedger()).succeeded[spt]
        expect(charged).toMatch(/^pi_/)
        const retry = await get(path, init)
        expect(retry.status).toBe(200)
        expect(decodeReceipt(retry.headers.get('payment-receipt')).reference).toBe(charged)
      } finally {
        await standin('/__standin/config?clock_skew_s=0')
      }
    })
})

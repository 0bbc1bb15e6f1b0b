/**
 * The card rail's first live payment works whichever form Stripe accepts for the granted token:
 * the documented `payment_method_data[shared_payment_granted_token]` or the MPP method's top-level
 * `shared_payment_granted_token`. An unknown-parameter 400 is not stored under the idempotency key,
 * so the other form is sent under the same key, and one payment is charged once.
 */
import { describe, expect, it } from 'vitest'
import { TOKEN_FIELDS } from '../../gateway/payment/stripe/processor.js'
import { decodeReceipt, get, payOnce, processorLedger, token } from '../support/service.js'

const [NESTED, TOP_LEVEL] = TOKEN_FIELDS

/** Pays `path` with a fresh stand-in token of `kind`, under a key so the same credential may fetch the answer again. */
async function pay(path: string, kind: string) {
  const spt = token(kind)
  const { init, paid } = await payOnce(path, spt, `forms-${spt}`)
  return { spt, init, response: paid }
}

describe('the granted token in either form', () => {
  for (const [kind, accepted, refused] of [
    ['nestedonly', NESTED, TOP_LEVEL],
    ['toplevelonly', TOP_LEVEL, NESTED],
  ] as const)
    it(`behavior: a processor that knows only ${accepted} is paid once, after at most one refused form`, async () => {
      const path = '/v1/fde-lessons?topic=dns'
      const { spt, init, response } = await pay(path, kind)
      expect(response.status).toBe(200)
      const ledger = await processorLedger()
      const forms = ledger.tokenFields[spt] ?? []
      // The last create carried the form the processor knows; any earlier one was the other form.
      expect(forms.at(-1)).toBe(accepted)
      expect(forms.slice(0, -1).every((f) => f === refused)).toBe(true)
      expect(forms.length).toBeLessThanOrEqual(2)
      const intent = ledger.succeeded[spt]
      expect(intent).toMatch(/^pi_/)
      expect(decodeReceipt(response.headers.get('payment-receipt')).reference).toBe(intent)
      // The same credential again: the same payment, no second charge.
      const again = await get(path, init)
      expect(again.status).toBe(200)
      expect(decodeReceipt(again.headers.get('payment-receipt')).reference).toBe(intent)
      expect(Object.values((await processorLedger()).succeeded).filter((id) => id === intent)).toHaveLength(1)
    })

  it('behavior: both forms are exercised in one run: a nested-only processor after a top-level-only one', async () => {
    const path = '/v1/fde-lessons?topic=dns'
    const first = await pay(path, 'toplevelonly')
    const second = await pay(path, 'nestedonly')
    expect([first.response.status, second.response.status]).toEqual([200, 200])
    const ledger = await processorLedger()
    expect(ledger.tokenFields[first.spt]?.at(-1)).toBe(TOP_LEVEL)
    expect(ledger.tokenFields[second.spt]?.at(-1)).toBe(NESTED)
  })
})

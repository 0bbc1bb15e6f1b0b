/**
 * Refusals in the method's own words (#45 item 3): a settled wallet payment sent again, or another
 * token for its challenge, names its transaction, never a "PaymentIntent"; a card payment still
 * names its PaymentIntent. On the real ledger object, the facilitator and chain as stand-ins (fetch).
 */
import { runInDurableObject } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { cardSettle, freshLedger, settledRecord } from './ledger-fixtures.js'
import { standins, walletClaim } from './wallet-fixtures.js'

const real = globalThis.fetch
afterEach(() => {
  globalThis.fetch = real
})

/** The transaction the wallet stand-in's facilitator settles with. */
const TX = `0x${'ab'.repeat(32)}`

describe('a refusal about a settled payment', () => {
  it('refusal: a wallet payment sent again without its key names its transaction, not a PaymentIntent', async () => {
    standins('settle')
    const ledger = freshLedger()
    const claim = walletClaim('words-1', Date.now() + 60_000)
    const first = await ledger.settle(claim)
    expect(first).toMatchObject({ ok: true, receipt: { method: 'evm', reference: TX } })
    const again = await ledger.settle(claim)
    expect(again).toMatchObject({ ok: false, reason: 'accepted' })
    if (again.ok) return
    expect(again.detail).toContain(`transaction ${TX}`)
    expect(again.detail).not.toMatch(/PaymentIntent/)
    const another = await ledger.settle({ ...claim, payment: 'another authorization' })
    expect(another).toMatchObject({ ok: false, reason: 'another-token' })
    if (another.ok) return
    expect(another.detail).toContain(`transaction ${TX}`)
    expect(another.detail).not.toMatch(/PaymentIntent/)
  })

  it('refusal: a card payment sent again without its key names its PaymentIntent', async () => {
    const ledger = freshLedger()
    const settledAt = Date.now()
    const record = settledRecord(settledAt, { payment: 'p' })
    await runInDurableObject(ledger, (_, state) => state.storage.put('record', record))
    // Nothing reaches the processor: the record answers.
    const processor = { url: 'http://127.0.0.1:9', secret: 's', timeoutMs: 1000 }
    const again = await ledger.settle(cardSettle(settledAt + 60_000, processor))
    expect(again).toMatchObject({ ok: false, reason: 'accepted' })
    if (!again.ok) expect(again.detail).toContain('PaymentIntent pi_1')
  })
})

/**
 * The wallet book inside workerd (#42 M3, L4): a wallet claim refused after it passed its budgets is
 * filed in its day's book by the challenge's own ledger object, a claim settled at once files
 * nothing, and a day book keeps a debt until the operator says it was paid back, then remembers it.
 * The facilitator and the chain are stand-ins inside the test (fetch), answering as the real ones do.
 */
import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import type { OwedPayment } from '../../gateway/payment/evm/owed.js'
import { bookDay, dayBookName, LEGACY_DAY } from '../../gateway/payment/evm/wallet-book.js'
import type { PaymentLedger } from '../../gateway/payment/ledger.js'
import { evm, FROM, NONCE, standins, walletClaim } from './wallet-fixtures.js'

const ns = (env as unknown as { LEDGER: DurableObjectNamespace<PaymentLedger> }).LEDGER
const named = (name: string) => ns.get(ns.idFromName(name))
const real = globalThis.fetch
afterEach(() => {
  globalThis.fetch = real
})

describe('the wallet book inside workerd', () => {
  it('money: a refused claim is filed in its day book; one settled at once files nothing', async () => {
    const expiresAt = Date.now() + 60_000
    const day = bookDay(expiresAt)
    standins('refuse')
    const refused = await named(`refused-${crypto.randomUUID()}`).settle(walletClaim('refused-1', expiresAt))
    expect(refused.ok).toBe(false)
    standins('settle')
    const settled = await named(`settled-${crypto.randomUUID()}`).settle(walletClaim('settled-1', expiresAt))
    expect(settled.ok).toBe(true)
    const notes = await named(dayBookName(day)).walletNotes(undefined, 100)
    expect(notes.map((n) => n.challengeId)).toContain('refused-1')
    expect(notes.map((n) => n.challengeId)).not.toContain('settled-1')
    expect(await named(dayBookName(LEGACY_DAY)).walletDays()).toContain(day)
  })

  it('money: a debt stays listed until it is paid back, then is remembered and never listed again', async () => {
    const day = '2026-01-02'
    const book = named(dayBookName(day))
    const debt: OwedPayment = {
      challengeId: 'owed-1',
      payer: FROM,
      nonce: NONCE,
      amount: '500000',
      expiresAt: Date.parse(day),
      chainId: evm.chainId,
      token: evm.token,
      transaction: `0x${'cd'.repeat(32)}`,
      deliverableUntil: new Date(Date.parse(day) + 86_400_000).toISOString(),
    }
    await book.noteWalletPayment(debt)
    await book.keepWalletDebt(debt)
    expect(await book.walletNotes(undefined, 10)).toEqual([])
    expect((await book.walletDebts()).map((d) => d.challengeId)).toEqual(['owed-1'])
    const repaid = await book.walletDebtRepaid('owed-1', `0x${'ef'.repeat(32)}`)
    expect(repaid?.repaidIn).toBe(`0x${'ef'.repeat(32)}`)
    expect(await book.walletDebts()).toEqual([])
    // Paid back once: a second report of the same repayment finds no debt.
    expect(await book.walletDebtRepaid('owed-1', `0x${'ef'.repeat(32)}`)).toBeUndefined()
  })
})

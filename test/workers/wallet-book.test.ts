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
import type { PaymentLedger, SettleInput } from '../../gateway/payment/ledger.js'
import { walletEvm } from './ledger-fixtures.js'

const ns = (env as unknown as { LEDGER: DurableObjectNamespace<PaymentLedger> }).LEDGER
const named = (name: string) => ns.get(ns.idFromName(name))
const real = globalThis.fetch
afterEach(() => {
  globalThis.fetch = real
})

const evm = walletEvm

/** A facilitator that refuses (an empty wallet) or settles, and a chain that shows nothing used. */
function standins(verdict: 'refuse' | 'settle') {
  const tx = `0x${'ab'.repeat(32)}`
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input)
    const body = JSON.parse(String(init?.body ?? '{}')) as { method?: string; params?: unknown[] }
    const answer = (value: unknown) => new Response(JSON.stringify(value))
    if (url.endsWith('/verify'))
      return answer(
        verdict === 'refuse' ? { isValid: false, invalidReason: 'insufficient_funds' } : { isValid: true },
      )
    if (url.endsWith('/settle')) return answer({ success: true, transaction: tx })
    // The chain: the facilitator's transaction carries the authorization's use and the transfer.
    if (body.method === 'eth_getTransactionReceipt')
      return answer({
        jsonrpc: '2.0',
        id: 1,
        result: {
          status: '0x1',
          logs: [
            {
              address: evm.token,
              topics: [
                '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5',
                `0x${'0'.repeat(24)}${FROM.slice(2)}`,
                NONCE,
              ],
              data: '0x',
            },
            {
              address: evm.token,
              topics: [
                '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
                `0x${'0'.repeat(24)}${FROM.slice(2)}`,
                `0x${'0'.repeat(24)}${evm.recipient.slice(2)}`,
              ],
              data: `0x${(500000).toString(16).padStart(64, '0')}`,
            },
          ],
        },
      })
    if (body.method === 'eth_call') return answer({ jsonrpc: '2.0', id: 1, result: `0x${'0'.repeat(64)}` })
    return answer({ jsonrpc: '2.0', id: 1, result: '0x1' })
  }) as typeof fetch
}

const FROM = '0x1111111111111111111111111111111111111111'
const NONCE = `0x${'07'.repeat(32)}`

const walletClaim = (challengeId: string, expiresAt: number): SettleInput => ({
  challengeId,
  payment: `p-${challengeId}`,
  method: 'evm',
  spt: 'token',
  amount: '500000',
  currency: evm.token,
  realm: 'r',
  expiresAt,
  now: Date.now(),
  processor: { url: 'https://processor.test', secret: 's', timeoutMs: 5_000 },
  limitedForS: 0,
  wallet: {
    evm,
    paymentPayload: {},
    paymentRequirements: {},
    from: FROM,
    nonce: NONCE,
    amount: '500000',
    validBefore: String(Math.floor(expiresAt / 1000) + 300),
  },
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

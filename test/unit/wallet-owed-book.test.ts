/**
 * The operator's list of wallet debts (#42 H2, M3, L4), on the stand-in chain with a book in
 * memory: a note becomes a debt only when its price arrived, is read from the chain once after its
 * window closes (then kept as a debt or dropped), is never read while its answer can still be had,
 * and a call reads at most `limit` notes and says where to resume. Asked as of another time, it only reads.
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checksum, type EvmConfig } from '../../gateway/payment/evm/config.js'
import { type OwedPayment, type WalletBook, walletOwed } from '../../gateway/payment/evm/owed.js'
import { bookDay, type WalletNote } from '../../gateway/payment/evm/wallet-book.js'
import { DELIVERY_WINDOW_MS } from '../../gateway/payment/retention.js'
import {
  type FacilitatorStandin,
  LOCAL_RECIPIENT,
  LOCAL_TOKEN,
  startFacilitatorStandin,
} from '../../scripts/local/facilitator-standin.js'
import { type Authorization, freshBuyer, sign } from '../support/wallet.js'

let chain: FacilitatorStandin
let evm: EvmConfig
beforeAll(async () => {
  chain = await startFacilitatorStandin()
  evm = {
    chainId: LOCAL_TOKEN.chainId,
    token: LOCAL_TOKEN.address,
    tokenName: LOCAL_TOKEN.name,
    tokenVersion: LOCAL_TOKEN.version,
    decimals: LOCAL_TOKEN.decimals,
    recipient: checksum(LOCAL_RECIPIENT),
    facilitatorUrl: chain.url,
    rpcUrl: chain.rpcUrl,
    timeoutMs: 10_000,
    maxTimeoutSeconds: 300,
  }
})
afterAll(() => chain?.close())

const PRICE = '500000'
/** Every note expires at this time (a fixed day): its window closes a day later. */
const EXPIRED = Date.parse('2026-11-20T12:00:00Z')
const AFTER_WINDOW = EXPIRED + DELIVERY_WINDOW_MS + 60_000

const standin = (path: string, body: unknown) =>
  fetch(`${chain.url}${path}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json())

/** A note whose authorization the stand-in chain settled to the recipient: the price arrived. */
async function paidNote(id: string): Promise<WalletNote> {
  const buyer = freshBuyer()
  const a: Authorization = {
    from: buyer.address,
    to: LOCAL_RECIPIENT as Hex,
    value: PRICE,
    validAfter: '0',
    validBefore: String(Math.floor(Date.now() / 1000) + 300),
    nonce: `0x${id.padStart(64, '0')}` as Hex,
  }
  const requirements = {
    scheme: 'exact',
    network: `eip155:${LOCAL_TOKEN.chainId}`,
    asset: LOCAL_TOKEN.address,
    payTo: LOCAL_RECIPIENT,
    amount: PRICE,
  }
  const signature = await sign(buyer, a)
  const settled = await standin('/settle', {
    x402Version: 2,
    paymentRequirements: requirements,
    paymentPayload: { x402Version: 2, accepted: requirements, payload: { authorization: a, signature } },
  })
  expect(settled).toMatchObject({ success: true })
  return { challengeId: id, payer: buyer.address, nonce: a.nonce, amount: PRICE, expiresAt: EXPIRED }
}

/** A note whose nonce the payer burned (cancelled) without paying. */
async function burnedNote(id: string): Promise<WalletNote> {
  const buyer = freshBuyer()
  const nonce = `0x${id.padStart(64, '0')}`
  await standin('/__standin/burn', { address: buyer.address, nonce, how: 'cancel' })
  return { challengeId: id, payer: buyer.address, nonce, amount: PRICE, expiresAt: EXPIRED }
}

/** A note whose authorization was never used. */
const unusedNote = (id: string): WalletNote => ({
  challengeId: id,
  payer: freshBuyer().address,
  nonce: `0x${id.padStart(64, '0')}`,
  amount: PRICE,
  expiresAt: EXPIRED,
})

/** The day books as the ledger keeps them, in memory, counting the chain reads the list makes. */
function memoryBook(notes: WalletNote[]) {
  const kept = new Map(notes.map((n) => [n.challengeId, n]))
  const debts = new Map<string, OwedPayment>()
  const day = bookDay(EXPIRED)
  const book: WalletBook = {
    days: async () => [day],
    notes: async (_d, after, limit) =>
      [...kept.values()]
        .sort((a, b) => a.challengeId.localeCompare(b.challengeId))
        .filter((n) => after === undefined || n.challengeId > after)
        .slice(0, limit),
    debts: async () => [...debts.values()],
    keepDebt: async (_d, debt) => {
      debts.set(debt.challengeId, debt)
      kept.delete(debt.challengeId)
    },
    drop: async (_d, id) => {
      kept.delete(id)
    },
  }
  return { book, kept, debts }
}

describe('wallet debts: only a price that arrived is owed', () => {
  it('money: a paid note becomes a debt naming its transaction; a burned or unused one is dropped', async () => {
    const paid = await paidNote('a1')
    const { book, kept, debts } = memoryBook([paid, await burnedNote('b1'), unusedNote('c1')])
    const report = await walletOwed(evm, book, AFTER_WINDOW, { write: true, limit: 100 })
    expect(report.owed.map((o) => o.challengeId)).toEqual(['a1'])
    const transfer = chain.settlements.find((s) => s.from === paid.payer)
    expect(report.owed[0]?.transaction).toBe(transfer?.transaction)
    expect(report.checked).toBe(3)
    // Each note was read once: the debt is kept, the rest dropped, and the next call reads nothing.
    expect([...kept.keys()]).toEqual([])
    expect([...debts.keys()]).toEqual(['a1'])
    const again = await walletOwed(evm, book, AFTER_WINDOW, { write: true, limit: 100 })
    expect(again.checked).toBe(0)
    expect(again.owed.map((o) => o.challengeId)).toEqual(['a1'])
  })

  it('behavior: a note whose answer can still be fetched is not read from the chain', async () => {
    const { book } = memoryBook([await paidNote('d1')])
    const report = await walletOwed(evm, book, EXPIRED + DELIVERY_WINDOW_MS, { write: true, limit: 100 })
    expect(report).toMatchObject({ checked: 0, owed: [] })
  })

  it('behavior: asked as of another time, the list only reads: the same answer twice', async () => {
    const { book, kept } = memoryBook([await paidNote('e1'), unusedNote('e2')])
    const first = await walletOwed(evm, book, AFTER_WINDOW, { write: false, limit: 100 })
    const second = await walletOwed(evm, book, AFTER_WINDOW, { write: false, limit: 100 })
    expect(second).toEqual(first)
    expect(kept.size).toBe(2)
  })

  it('behavior: a call reads at most `limit` notes and says where the next one resumes', async () => {
    const notes = ['f1', 'f2', 'f3', 'f4', 'f5'].map(unusedNote)
    const { book } = memoryBook(notes)
    const first = await walletOwed(evm, book, AFTER_WINDOW, { write: false, limit: 2 })
    expect(first).toMatchObject({ checked: 2, more: true })
    const second = await walletOwed(evm, book, AFTER_WINDOW, {
      write: false,
      limit: 2,
      after: first.next as string,
    })
    const third = await walletOwed(evm, book, AFTER_WINDOW, {
      write: false,
      limit: 2,
      after: second.next as string,
    })
    expect([first.checked, second.checked, third.checked]).toEqual([2, 2, 1])
    expect(third.more).toBe(false)
  })
})

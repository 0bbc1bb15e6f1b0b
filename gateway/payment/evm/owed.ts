/**
 * Wallet payments the service owes back (#35 item 3, #42 M3 and L4). A wallet payment cannot be
 * refunded by the Worker: it holds no key. A claim that passed its budgets and was not answered at
 * once is filed in its day's book (wallet-book.ts). The operator asks which of them moved the price
 * to the recipient but were never answered, once the buyer can no longer fetch the answer. Each note
 * is read from the chain once its window has closed: a payment whose price arrived becomes a debt,
 * kept until the operator says it was paid back; one that can never pay is dropped. Every call reads
 * at most `limit` notes from the chain; `more` says to ask again (from `next` when only reading).
 */
import { DELIVERY_WINDOW_MS } from '../retention.js'
import { paymentOnChain } from './chain.js'
import type { EvmConfig } from './config.js'
import { LEGACY_DAY, type WalletNote } from './wallet-book.js'

export interface OwedPayment extends WalletNote {
  chainId: number
  token: string
  /** The transaction that moved the price to the recipient. */
  transaction: string
  /** The buyer could fetch the answer until then (ISO). */
  deliverableUntil: string
  /** Set once the operator returned it: the transaction that paid it back. */
  repaidIn?: string
}

/** The day books as this needs them (the ledger objects that keep them). */
export interface WalletBook {
  /** Days with notes or debts, oldest first. */
  days(): Promise<string[]>
  /** Notes of a day after `after` (a challenge id), at most `limit`, in id order. */
  notes(day: string, after: string | undefined, limit: number): Promise<WalletNote[]>
  /** Debts found earlier and not yet paid back. */
  debts(day: string): Promise<OwedPayment[]>
  /** Files a debt in place of its note. */
  keepDebt(day: string, debt: OwedPayment): Promise<void>
  drop(day: string, challengeId: string): Promise<void>
}

/** Notes read from a day book at once. */
const PAGE = 100

/** `transfer(address,uint256)`: the ERC-20 call that returns a payment. */
const TRANSFER_SELECTOR = '0xa9059cbb'
const word = (value: bigint) => value.toString(16).padStart(64, '0')

export interface OwedOptions {
  /** Write what the chain said (debts kept, dead notes dropped); false when asking as of another time. */
  write: boolean
  /** Most notes read from the chain in one call. */
  limit: number
  /** Resume after this `day/challengeId` (the `next` of a call that stopped at its limit). */
  after?: string
}

export async function walletOwed(evm: EvmConfig, book: WalletBook, now: number, options: OwedOptions) {
  const owed: OwedPayment[] = []
  const unread: string[] = []
  let checked = 0
  let next: string | undefined
  const [afterDay, afterId] = options.after?.split('/') ?? []
  days: for (const day of await book.days()) {
    if (afterDay && day < afterDay) continue
    owed.push(...(await book.debts(day)))
    // Every note of a day expired on or after its start: none is past its window before this (days
    // are in order, so neither is any later day's).
    if (day !== LEGACY_DAY && now <= Date.parse(day) + DELIVERY_WINDOW_MS) break
    let after = day === afterDay ? afterId : undefined
    for (;;) {
      const page = await book.notes(day, after, PAGE)
      for (const note of page) {
        const deliverableUntil = note.expiresAt + DELIVERY_WINDOW_MS
        if (now <= deliverableUntil) continue
        if (checked >= options.limit) {
          next = `${day}/${after ?? ''}`
          break days
        }
        checked++
        // Owed only if the price arrived: a used nonce alone may be a cancellation or a transfer elsewhere.
        const chain = await paymentOnChain(evm, { from: note.payer, nonce: note.nonce, amount: note.amount })
        if ('unknown' in chain) unread.push(note.challengeId)
        else if (chain.paid) {
          const debt: OwedPayment = {
            ...note,
            chainId: evm.chainId,
            token: evm.token,
            transaction: chain.transaction,
            deliverableUntil: new Date(deliverableUntil).toISOString(),
          }
          owed.push(debt)
          if (options.write) await book.keepDebt(day, debt)
        }
        // Spent without paying, or unused long after its window (validBefore is at most the
        // challenge's expiry plus the x402 timeout, and the delivery window is a day): never pays.
        else if (options.write) await book.drop(day, note.challengeId)
        after = note.challengeId
      }
      if (page.length < PAGE) break
      after = page.at(-1)?.challengeId
    }
  }
  return {
    owed,
    unread,
    checked,
    more: next !== undefined,
    ...(next === undefined ? {} : { next }),
    /** Unsigned transactions from the recipient, one per payment owed. */
    transfers: owed.map((o) => ({
      chainId: o.chainId,
      from: evm.recipient,
      to: o.token,
      value: '0x0',
      data: `${TRANSFER_SELECTOR}${word(BigInt(o.payer))}${word(BigInt(o.amount))}`,
      challengeId: o.challengeId,
    })),
  }
}

/**
 * Wallet payments the service owes back (#35 item 3). A wallet payment cannot be refunded by the
 * Worker: it holds no key. So every wallet payment is noted when it is first claimed, and the
 * operator asks which of them were settled on the chain but never answered, once the buyer can no
 * longer fetch the answer (its ledger record still pending after the delivery window). The answer
 * lists each with what is owed, and the unsigned USDC transfers that would return it, for the
 * operator to sign elsewhere with the recipient's key.
 */
import { DELIVERY_WINDOW_MS } from '../retention.js'
import { paymentOnChain } from './chain.js'
import type { EvmConfig } from './config.js'

export interface WalletNote {
  challengeId: string
  payer: string
  nonce: string
  /** Base units of the token. */
  amount: string
  /** When the challenge expired (ms): the delivery window counts from here. */
  expiresAt: number
}

export interface OwedPayment extends WalletNote {
  chainId: number
  token: string
  /** The transaction that moved the price to the recipient. */
  transaction: string
  /** The buyer could fetch the answer until then (ISO). */
  deliverableUntil: string
}

/** The ledger as this needs it: the notes kept, and each payment's record state. */
export interface WalletBook {
  notes(): Promise<WalletNote[]>
  drop(challengeId: string): Promise<void>
  state(challengeId: string): Promise<string | undefined>
}

/** `transfer(address,uint256)`: the ERC-20 call that returns a payment. */
const TRANSFER_SELECTOR = '0xa9059cbb'
const word = (value: bigint) => value.toString(16).padStart(64, '0')

/**
 * The payments owed as of `now`. Delivered, refused and never-used ones are dropped from the notes
 * once their window has closed; a payment whose chain state cannot be read is left for next time.
 */
export async function walletOwed(evm: EvmConfig, book: WalletBook, now: number) {
  const owed: OwedPayment[] = []
  const unread: string[] = []
  for (const note of await book.notes()) {
    const deliverableUntil = note.expiresAt + DELIVERY_WINDOW_MS
    if (now <= deliverableUntil) continue
    const state = await book.state(note.challengeId)
    // Settled (answered) or the record is gone: nothing is owed. A refused payment is still read
    // from the chain: its authorization stayed valid until validBefore, and a facilitator that
    // refused it may have submitted it after all.
    if (state !== 'pending' && state !== 'refused') {
      await book.drop(note.challengeId)
      continue
    }
    // Owed only if the price arrived: a used nonce alone may be a cancellation or a transfer elsewhere.
    const chain = await paymentOnChain(evm, { from: note.payer, nonce: note.nonce, amount: note.amount })
    if ('unknown' in chain) {
      unread.push(note.challengeId)
      continue
    }
    if (!chain.paid) {
      // Spent without paying, or unused long after its window (validBefore is at most the challenge's
      // expiry plus the x402 timeout, and the delivery window is a day): it can never pay.
      await book.drop(note.challengeId)
      continue
    }
    owed.push({
      ...note,
      chainId: evm.chainId,
      token: evm.token,
      transaction: chain.transaction,
      deliverableUntil: new Date(deliverableUntil).toISOString(),
    })
  }
  return {
    owed,
    unread,
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

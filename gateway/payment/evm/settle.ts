/**
 * The wallet rail's settlement, run by the ledger after it has claimed the payment: verify and
 * settle through the facilitator, then let the chain say whether the price arrived. Neither the
 * facilitator's "settled" nor a used nonce is proof: paid means the transaction that used this
 * authorization moved the price from the payer to the recipient (chain.ts). A nonce used without
 * that transfer (a cancellation, a transfer elsewhere) can never pay: refused. An unused one may
 * still execute: definitively unpaid only once its window has closed, and until then it is settled
 * again, which cannot pay twice (the token refuses a second use of one nonce).
 */
import type { ProcessorOutcome } from '../stripe/processor.js'
import { type ExpectedTransfer, paymentOnChain } from './chain.js'
import type { EvmConfig } from './config.js'
import { verifyAndSettle } from './facilitator.js'

/** Everything the ledger needs to settle one authorization, serialisable into the Durable Object. */
export interface WalletSettlement {
  evm: EvmConfig
  /** The x402 v2 payment payload and requirements, as the facilitator takes them. */
  paymentPayload: Record<string, unknown>
  paymentRequirements: Record<string, unknown>
  from: string
  nonce: string
  /** The price in the token's base units: what must arrive at the recipient. */
  amount: string
  /** Seconds since the epoch: after it the token refuses the authorization. */
  validBefore: string
}

/** Clocks differ: an authorization counts as closed this long after its validBefore by ours. */
const CLOCK_MARGIN_MS = 5 * 60 * 1000

export async function walletCharge(w: WalletSettlement): Promise<ProcessorOutcome> {
  const outcome = await verifyAndSettle(w.evm, w.paymentPayload, w.paymentRequirements)
  if (outcome.kind === 'unknown')
    return {
      kind: 'unknown',
      detail: `${outcome.detail}; whether the price arrived is read from the chain when the same credential comes again`,
    }
  if (outcome.kind === 'settled')
    return fromChain(w, `the facilitator reported transaction ${outcome.transaction}`, outcome.transaction)
  // A facilitator also refuses an authorization that is already used: only the chain tells which.
  return fromChain(w, `the facilitator refused the authorization (${outcome.reason})`)
}

/**
 * The most calls one wallet settlement makes in turn, each bounded by the facilitator's timeout:
 * verify, settle, then the chain (the named receipt, the nonce's state, the block number and logs
 * of its use, that transaction's receipt, the block number and logs of a cancellation).
 */
const WALLET_CALLS_AT_MOST = 9

/** How long one wallet settlement may take: its budget place and its copies' wait are sized by it. */
export const walletSettleBoundMs = (evm: EvmConfig) => WALLET_CALLS_AT_MOST * evm.timeoutMs

/** What the chain says of a payment, read only (no settlement is tried). */
export const walletOnChain = (w: WalletSettlement) => paymentOnChain(w.evm, expected(w))

/** A retry of a payment whose settlement outcome was unknown. */
export async function walletReconcile(w: WalletSettlement, now: number): Promise<ProcessorOutcome> {
  const chain = await paymentOnChain(w.evm, expected(w))
  if ('unknown' in chain) return { kind: 'unknown', detail: chain.unknown }
  if (chain.paid) return { kind: 'succeeded', id: chain.transaction }
  if (chain.spent) return neverPays(chain.how)
  if (now > Number(w.validBefore) * 1000 + CLOCK_MARGIN_MS)
    return {
      kind: 'declined',
      detail:
        'the authorization was never used and its window has closed, so nothing was transferred and nothing can be',
    }
  return walletCharge(w)
}

/** The chain's word after the facilitator's: `named` is a transaction the facilitator says paid. */
async function fromChain(w: WalletSettlement, told: string, named?: string): Promise<ProcessorOutcome> {
  const chain = await paymentOnChain(w.evm, expected(w), named)
  if ('unknown' in chain) return { kind: 'unknown', detail: `${told} and ${chain.unknown}` }
  if (chain.paid) return { kind: 'succeeded', id: chain.transaction }
  if (chain.spent) return neverPays(chain.how)
  // Said settled, but the chain shows the authorization unused: not mined yet, or not true.
  if (named)
    return {
      kind: 'unknown',
      detail: `${told}, but the chain does not show the authorization used yet; it is read again when the same credential comes back`,
    }
  return {
    kind: 'declined',
    detail: `${told} and the chain shows it unused, so nothing was transferred`,
  }
}

const neverPays = (how: string): ProcessorOutcome => ({
  kind: 'declined',
  detail: `nothing reached the recipient: ${how}, so this authorization can never pay; sign a new one`,
})

const expected = (w: WalletSettlement): ExpectedTransfer => ({
  from: w.from,
  nonce: w.nonce,
  amount: w.amount,
})

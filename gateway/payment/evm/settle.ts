/**
 * The wallet rail's settlement, run by the ledger after it has claimed the payment: verify and
 * settle through the facilitator, then let the chain say whether the price arrived. Neither the
 * facilitator's "settled" nor a used nonce is proof: paid means the transaction that used this
 * authorization moved the price from the payer to the recipient (chain.ts). A nonce used without
 * that transfer (a cancellation, a transfer elsewhere) can never pay: refused. An unused one may
 * still execute: definitively unpaid only once its window has closed, and until then it is settled
 * again, which cannot pay twice (the token refuses a second use of one nonce).
 */
import type { MethodSettlement } from '../method.js'
import type { SettleOutcome as ProcessorOutcome } from '../outcome.js'
import { REFUND_RETRY_AFTER_S } from '../retention.js'
import type { SettleResult } from '../settlement.js'
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

/** One wallet payment's settlement, as the ledger runs it (method.ts); `now` is the caller's clock. */
export const walletSettlement = (w: WalletSettlement, now: number): MethodSettlement => ({
  boundMs: walletSettleBoundMs(w.evm),
  charge: () => walletCharge(w),
  // The chain, not a search, knows whether an authorization was used.
  reconcile: () => walletReconcile(w, now),
  pastWindow: (_, closed) => walletPastWindow(w, closed),
})

/**
 * A pending wallet payment sent again after its delivery window closed: the chain says whether its
 * price arrived. If it did, it is owed back (by the operator: the Worker holds no key), never "pay
 * again"; if the chain cannot tell, the buyer asks again later.
 */
async function walletPastWindow(w: WalletSettlement, closed: string): Promise<SettleResult> {
  const chain = await paymentOnChain(w.evm, expected(w))
  if ('unknown' in chain)
    return {
      ok: false,
      reason: 'unavailable',
      detail: `${closed} and whether this payment reached the recipient cannot be read now (${chain.unknown}); send the same credential again later, do not pay again`,
      retryAfterS: REFUND_RETRY_AFTER_S,
    }
  if (chain.paid)
    return {
      ok: false,
      reason: 'refund-owed',
      detail: `this payment reached the recipient (transaction ${chain.transaction}) but ${closed}, so its answer can no longer be delivered; it is owed back to the payer, which the operator returns from the recipient's wallet (a wallet payment cannot be refunded automatically). Do not pay again for this answer`,
      retryAfterS: REFUND_RETRY_AFTER_S,
    }
  return {
    ok: false,
    reason: 'expired',
    detail: `this payment never reached the recipient and ${closed}; nothing was transferred for it`,
  }
}

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

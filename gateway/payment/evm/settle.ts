/**
 * The wallet rail's settlement, run by the ledger after it has claimed the payment: verify and
 * settle through the facilitator, and resolve any outcome the facilitator leaves unknown (a stall,
 * an error, no answer) by reading the authorization's state on the chain. Used means paid: an
 * EIP-3009 authorization can only move its signed value to its signed recipient. Unused means not
 * paid yet; it is definitively unpaid only once its window has closed, and until then it is settled
 * again, which cannot pay twice (the token refuses a second use of one nonce).
 */
import type { ProcessorOutcome } from '../processor.js'
import { authorizationState } from './chain.js'
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
  /** Seconds since the epoch: after it the token refuses the authorization. */
  validBefore: string
}

/** Clocks differ: an authorization counts as closed this long after its validBefore by ours. */
const CLOCK_MARGIN_MS = 5 * 60 * 1000

export async function walletCharge(w: WalletSettlement): Promise<ProcessorOutcome> {
  const outcome = await verifyAndSettle(w.evm, w.paymentPayload, w.paymentRequirements)
  if (outcome.kind === 'settled') return { kind: 'succeeded', id: outcome.transaction }
  if (outcome.kind === 'unknown')
    return {
      kind: 'unknown',
      detail: `${outcome.detail}; whether the authorization was used is read from the chain when the same credential comes again`,
    }
  // A facilitator also refuses an authorization that is already used: only the chain tells which.
  const state = await authorizationState(w.evm, w.from, w.nonce)
  if ('unknown' in state)
    return {
      kind: 'unknown',
      detail: `the facilitator refused the authorization (${outcome.reason}) and ${state.unknown}`,
    }
  if (state.used) return { kind: 'succeeded', id: state.transaction ?? usedReference(w) }
  return {
    kind: 'declined',
    detail: `the facilitator refused the authorization (${outcome.reason}) and the chain shows it unused, so nothing was transferred`,
  }
}

/** A retry of a payment whose settlement outcome was unknown. */
export async function walletReconcile(w: WalletSettlement, now: number): Promise<ProcessorOutcome> {
  const state = await authorizationState(w.evm, w.from, w.nonce)
  if ('unknown' in state) return { kind: 'unknown', detail: state.unknown }
  if (state.used) return { kind: 'succeeded', id: state.transaction ?? usedReference(w) }
  if (now > Number(w.validBefore) * 1000 + CLOCK_MARGIN_MS)
    return {
      kind: 'declined',
      detail:
        'the authorization was never used and its window has closed, so nothing was transferred and nothing can be',
    }
  return walletCharge(w)
}

/** When the node no longer returns the transaction's log: the authorization names the transfer. */
const usedReference = (w: WalletSettlement) =>
  `eip3009:${w.evm.chainId}:${w.evm.token.toLowerCase()}:${w.from.toLowerCase()}:${w.nonce.toLowerCase()}`

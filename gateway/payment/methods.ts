/**
 * The payment methods this service takes, in one place: the card (`stripe/`) and the wallet rail
 * (`evm/`, with its MPP and x402 wires). The core (challenge, credential, ledger, receipts,
 * refusals) names no method: it asks this registry which method a payment is for, that method's
 * offer and claim, its settlement for the ledger and its words. A method is added here and in its
 * own folder, nowhere else in the core.
 */
import type { Challenge, Offer } from './challenge.js'
import type { Credential } from './credential.js'
import type { EvmConfig } from './evm/config.js'
import { evmOffer } from './evm/offer.js'
import { EVM_METHOD } from './evm/request.js'
import { type WalletSettlement, walletSettlement } from './evm/settle.js'
import {
  WALLET_WORDS,
  type WalletClaim,
  type WalletPayment,
  walletClaim,
  walletPayment,
} from './evm/verify.js'
import type { MethodSettlement, MethodWords } from './method.js'
import type { Refusal } from './problems.js'
import type { ReceiptKeys } from './signed-receipt.js'
import { METHOD as CARD_METHOD, CARD_WORDS, type CardClaim, cardClaim, cardOffer } from './stripe/charge.js'
import type { IntentRequest, ProcessorConfig } from './stripe/processor.js'
import type { OrphanLedger } from './stripe/reconciler.js'
import { cardSettlement } from './stripe/settle.js'

export type { OrphanLedger, ProcessorConfig, WalletPayment, WalletSettlement }
export { CARD_METHOD, cardOffer }

export interface PaymentConfig {
  realm: string
  hmacSecret: string
  networkId: string
  processor: ProcessorConfig
  challengeTtlMs: number
  receipts: ReceiptKeys
  /** The wallet rail (method "evm" and x402), when the deployment names a recipient. */
  evm?: EvmConfig
}

/** What a request pays with: an MPP credential (either method), or a wallet payment read off an x402 wire. */
export type Paying = Credential | WalletPayment

/** What one method's payment makes of its verified challenge: the ledger's claim, or a refusal. */
export type PaymentClaim = CardClaim | WalletClaim

/** A payment, read by the method its challenge names. */
export interface MethodPayment {
  /** The method's offer under this configuration; undefined for a method this service does not take. */
  offer: Offer | undefined
  /** Once the challenge is verified (it expires at `expiresAt`): the payment's claim, or why it has none. */
  claim(expiresAt: number, now: number): Promise<PaymentClaim | Refusal>
}

/**
 * The method `paying` is for, with its payload read (MalformedCredential when the payload is not the
 * method's form). `echoed` is the challenge it answers, its request as issued (a string).
 */
export function methodPayment(config: PaymentConfig, paying: Paying, echoed: Challenge): MethodPayment {
  const { evm } = config
  const wallet =
    'wire' in paying
      ? paying
      : evm && echoed.method === EVM_METHOD
        ? walletPayment({ ...paying, challenge: echoed })
        : undefined
  if (wallet && evm)
    return {
      offer: evmOffer(evm),
      claim: async (expiresAt, now) => walletClaim(evm, { ...wallet, echoed }, expiresAt, now),
    }
  const payload = 'payload' in paying ? paying.payload : {}
  return {
    offer: echoed.method === CARD_METHOD ? cardOffer(config) : undefined,
    claim: (expiresAt) => cardClaim(echoed, payload, expiresAt),
  }
}

/** What the ledger needs to settle a claim, whatever its method. */
export type SettlementInput = IntentRequest & { processor: ProcessorConfig; wallet?: WalletSettlement }

/** The settlement of one claimed payment by its method, as the ledger runs it; `now` is the caller's clock. */
export const settlementOf = (input: SettlementInput, now: number): MethodSettlement =>
  input.wallet ? walletSettlement(input.wallet, now) : cardSettlement(input.processor, input, now)

/** What a method adds to its receipt: a wallet payment names its chain and its payer. */
export const receiptFieldsOf = (
  input: Pick<SettlementInput, 'wallet'>,
): { chainId?: number; payer?: string } =>
  input.wallet ? { chainId: input.wallet.evm.chainId, payer: input.wallet.from } : {}

/** The words a method's refusals use (the card's for a method this service does not know). */
export const wordsOf = (method: string): MethodWords => (method === EVM_METHOD ? WALLET_WORDS : CARD_WORDS)

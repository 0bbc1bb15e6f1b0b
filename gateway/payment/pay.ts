/**
 * The payment core shared by HTTP and MCP: issue a challenge for one request, and verify and
 * settle a credential for it. Order: parse → HMAC → expiry → request binding → atomic claim
 * (ledger) → processor. Nothing here knows about headers or JSON-RPC.
 */

import { encodeText } from '../../schema/base64url.js'
import { canonicalize } from '../../schema/jcs.js'
import { PRICE } from '../../schema/routes.js'
import { sha256Hex } from '../sha256-hex.js'
import type { Binding } from './binding.js'
import { type Challenge, type Offer, verifyEchoedChallenge } from './challenge.js'
import type { Credential } from './credential.js'
import type { EvmConfig } from './evm/config.js'
import type { PaymentLedger, SettleInput } from './ledger.js'
import { paymentIdentity } from './payment-identity.js'
import { type Refusal, refusal } from './problems.js'
import type { ProcessorConfig } from './stripe/processor.js'
import type { Receipt } from './receipt.js'
import type { OrphanLedger } from './stripe/reconciler.js'
import { ledgerRefusal } from './settle-refusal.js'
import type { KeptAnswer, SettleResult } from './settlement.js'
import type { ReceiptKeys } from './signed-receipt.js'

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

export const METHOD = 'stripe'
const SPT = /^spt_[A-Za-z0-9_]{1,200}$/

/** The charge request every paid call offers: amount in cents, card through Stripe. */
export function chargeRequest(config: PaymentConfig) {
  return {
    amount: PRICE.amount,
    currency: PRICE.currency,
    methodDetails: { networkId: config.networkId, paymentMethodTypes: ['card'] },
  }
}

/** The card's offer, as its challenges carry it. */
export const cardOffer = (config: PaymentConfig): Offer => ({
  method: METHOD,
  request: encodeText(canonicalize(chargeRequest(config))),
})

export type Settlement =
  | {
      ok: true
      receipt: Receipt
      /** A repeat under the Idempotency-Key of the answered request: its kept answer, if kept. */
      repeat?: { answer?: KeptAnswer }
    }
  | { ok: false; refusal: Refusal }

/** The ledger as the charge path sees it: settle, keep an answer, and (as the reconciler) refund orphans. */
export interface Ledger extends OrphanLedger {
  settle(
    challengeId: string,
    input: Omit<Parameters<PaymentLedger['settle']>[0], 'challengeId'>,
  ): Promise<SettleResult>
  /** Keeps the answer given under an Idempotency-Key, for a repeat of the request. */
  keepAnswer(challengeId: string, idempotencyKey: string, answer: KeptAnswer): Promise<void>
}

/** A refusal before anything is claimed, as a settlement. */
export const refused = (...args: Parameters<typeof refusal>): Settlement => ({
  ok: false,
  refusal: refusal(...args),
})

/** What a payment method hands the ledger for one payment: its token and how it is charged. */
export type PaymentClaim = Pick<
  SettleInput,
  'method' | 'amount' | 'currency' | 'expiresAt' | 'legacyDigest' | 'wallet' | 'unclaimable' | 'tokenClaim'
> & { token: string }

/**
 * Claims one payment, (challenge id, token), in the ledger, which settles it, whatever the method;
 * a refusal is told as the payment problem it is (settle-refusal.ts). Expiry and the budgets are
 * the ledger's to apply, at a new claim only: a retry of a pending payment is delivered after
 * expiry, and no neighbour's failures can keep a buyer from its money. One call: the ledger
 * reserves a new claim's places itself, so a paid call waits on two round trips (this one, and the
 * ledger's to the limiters in parallel), and a copy sent at once waits on the first as a copy.
 */
export async function settlePayment(
  config: PaymentConfig,
  ledger: Ledger,
  /** The paying client's key (client-key.ts): whose budgets a new claim is held to. */
  client: string,
  /** The challenge the payment answers, its request as issued (a string). */
  echoed: Challenge,
  claim: PaymentClaim,
  idempotencyKey: string | undefined,
  now: number,
): Promise<Settlement> {
  const { token, ...how } = claim
  const input = {
    ...how,
    payment: paymentIdentity(echoed.id, token),
    spt: token,
    realm: config.realm,
    now,
    processor: config.processor,
    client,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  }
  const result = await ledger.settle(echoed.id, input)
  return result.ok ? result : { ok: false, refusal: ledgerRefusal(result, echoed) }
}

export async function verifyAndSettle(
  config: PaymentConfig,
  ledger: Ledger,
  credential: Credential,
  binding: Binding,
  client: string,
  idempotencyKey?: string,
  now = Date.now(),
): Promise<Settlement> {
  const echoed = credential.challenge
  let request: string
  let legacyDigest: string
  try {
    // Over MCP the request arrives as a JSON object; the id was bound over its JCS base64url form.
    request =
      typeof echoed.request === 'string'
        ? echoed.request
        : encodeText(canonicalize(echoed.request as unknown))
    // Records written before payment identity were keyed on this; gone once they expire (72 h).
    legacyDigest = await sha256Hex(
      canonicalize({ challenge: { ...echoed, request }, payload: credential.payload }),
    )
  } catch {
    // Numbers JSON cannot round-trip (1e400) or nesting past the engine's limits: the client's error.
    return refused('malformed-credential', 'the credential holds values that have no canonical JSON form')
  }
  const checked = await verifyEchoedChallenge(config, cardOffer(config), { ...echoed, request }, binding)
  if (!checked.ok) return checked
  const spt = credential.payload.spt
  if (typeof spt !== 'string' || !SPT.test(spt))
    return refused('invalid-payload', 'payload.spt must be a Stripe shared payment token (spt_…)')
  const claim = { token: spt, legacyDigest, method: METHOD, amount: PRICE.amount, currency: PRICE.currency }
  return settlePayment(
    config,
    ledger,
    client,
    { ...echoed, request },
    { ...claim, expiresAt: checked.expiresAt },
    idempotencyKey,
    now,
  )
}

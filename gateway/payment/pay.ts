/**
 * The payment core shared by HTTP and MCP, for every method: verify and settle a payment for one
 * request. Order: the method's payload read → the challenge (HMAC, the method's offer, expiry,
 * request binding: one check for every method, challenge.ts) → the method's claim (its payload's
 * own checks) → the atomic claim in the ledger, which settles it. Nothing here knows about headers
 * or JSON-RPC, nor about any one method (methods.ts knows them).
 */

import { encodeText } from '../../schema/base64url.js'
import { canonicalize } from '../../schema/jcs.js'
import type { Binding } from './binding.js'
import { type Challenge, verifyEchoedChallenge } from './challenge.js'
import type { PaymentLedger, SettleInput } from './ledger.js'
import {
  methodPayment,
  type OrphanLedger,
  type Paying,
  type PaymentClaim,
  type PaymentConfig,
} from './methods.js'
import { paymentIdentity } from './payment-identity.js'
import { type Refusal, refusal } from './problems.js'
import type { Receipt } from './receipt.js'
import { ledgerRefusal } from './settle-refusal.js'
import type { KeptAnswer, SettleResult } from './settlement.js'

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
  const input: Omit<SettleInput, 'challengeId'> = {
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

/**
 * Pays one request with `paying`, whatever its method: the one way every method's challenge is
 * verified and its payment claimed. Throws MalformedCredential when a payload is not its method's form.
 */
export async function pay(
  config: PaymentConfig,
  ledger: Ledger,
  paying: Paying,
  binding: Binding,
  client: string,
  idempotencyKey?: string,
  now = Date.now(),
): Promise<Settlement> {
  const echoed = 'wire' in paying ? paying.echoed : paying.challenge
  let request: string
  try {
    // Over MCP the request arrives as a JSON object; the id was bound over its JCS base64url form.
    request =
      typeof echoed.request === 'string'
        ? echoed.request
        : encodeText(canonicalize(echoed.request as unknown))
  } catch {
    // Numbers JSON cannot round-trip (1e400) or nesting past the engine's limits: the client's error.
    return refused('malformed-credential', 'the credential holds values that have no canonical JSON form')
  }
  const issued = { ...echoed, request }
  const method = methodPayment(config, paying, issued)
  const checked = await verifyEchoedChallenge(config, method.offer, issued, binding)
  if (!checked.ok) return refused('invalid-challenge', checked.detail)
  const claim = await method.claim(checked.expiresAt, now)
  if ('problem' in claim) return { ok: false, refusal: claim }
  return settlePayment(config, ledger, client, issued, claim, idempotencyKey, now)
}

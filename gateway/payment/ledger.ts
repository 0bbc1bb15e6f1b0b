/**
 * The payment ledger: one Durable Object per challenge id, the single place where a challenge is
 * claimed and settled. Durable Objects run one at a time per id, so the claim is atomic. A
 * credential is accepted once: copies arriving together wait for the one settlement and are then
 * refused, as is any later replay or a different credential for a claimed challenge.
 *
 * Reconcile, never re-charge: a record stays `pending` while the processor's outcome is unknown
 * (timeout, 409 key in use, 429, 5xx, an intent still processing or waiting for an action). The
 * same credential sent again asks the processor what happened before anything is stored; only a
 * definitive outcome is stored for good.
 */
import { DurableObject } from 'cloudflare:workers'
import {
  createPaymentIntent,
  findPaymentIntent,
  type ProcessorConfig,
  type ProcessorOutcome,
  retrievePaymentIntent,
} from './processor.js'
import type { Receipt } from './receipt.js'

export interface SettleInput {
  challengeId: string
  /** SHA-256 of the credential's canonical form: the same credential always has the same digest. */
  credentialDigest: string
  spt: string
  amount: string
  currency: string
  /** When the challenge expires (ms since epoch): checked at the first claim only. */
  expiresAt: number
  /** The caller's clock (ms since epoch). */
  now: number
  processor: ProcessorConfig
}

export type SettleFailure =
  /** Claimed by another credential, or this one was already accepted. */
  | 'used'
  /** The challenge had expired when it was first claimed. */
  | 'expired'
  /** Definitively refused by the processor; nothing was charged. */
  | 'declined'
  /** The intent waits for an extra step (such as 3-D Secure); the same credential may be sent again. */
  | 'requires_action'
  /** The outcome is not known yet; the same credential may be sent again and never charges twice. */
  | 'unavailable'

export type SettleResult =
  | { ok: true; receipt: Receipt }
  | { ok: false; reason: SettleFailure; detail: string }

interface LedgerRecord {
  credentialDigest: string
  state: 'pending' | 'settled' | 'refused'
  /** When the first processor call was made: the start of the search-index lag window. */
  firstAttemptAt: number
  /** The PaymentIntent, once the processor has named one. */
  intentId?: string
  receipt?: Receipt
  refusal?: Extract<SettleResult, { ok: false }>
}

const KEEP_AFTER_EXPIRY_MS = 24 * 60 * 60 * 1000

export class PaymentLedger extends DurableObject {
  private inflight: { digest: string; result: Promise<SettleResult> } | undefined

  settle(input: SettleInput): Promise<SettleResult> {
    // Decided synchronously, before any await, so concurrent calls cannot both start a charge.
    if (this.inflight)
      return this.inflight.digest === input.credentialDigest
        ? this.inflight.result.then((r) => (r.ok ? alreadyAccepted(r.receipt) : r))
        : Promise.resolve(used())
    const result = this.decide(input).finally(() => {
      this.inflight = undefined
    })
    this.inflight = { digest: input.credentialDigest, result }
    return result
  }

  private async decide(input: SettleInput): Promise<SettleResult> {
    const record = await this.ctx.storage.get<LedgerRecord>('record')
    if (!record) {
      // Expiry bounds the first claim only: a retry of a pending payment must still be delivered.
      if (input.expiresAt <= input.now)
        return {
          ok: false,
          reason: 'expired',
          detail: `the challenge expired at ${new Date(input.expiresAt).toISOString()}`,
        }
      const claimed: LedgerRecord = {
        credentialDigest: input.credentialDigest,
        state: 'pending',
        firstAttemptAt: input.now,
      }
      await this.ctx.storage.put('record', claimed)
      await this.ctx.storage.setAlarm(input.expiresAt + KEEP_AFTER_EXPIRY_MS)
      return this.record(input, claimed, await createPaymentIntent(input.processor, input))
    }
    if (record.credentialDigest !== input.credentialDigest) return used()
    if (record.state === 'settled' && record.receipt) return alreadyAccepted(record.receipt)
    if (record.state === 'refused' && record.refusal) return record.refusal
    return this.record(input, record, await this.reconcile(input, record))
  }

  /** Asks the processor what became of a pending payment before anything else is tried. */
  private async reconcile(input: SettleInput, record: LedgerRecord): Promise<ProcessorOutcome> {
    const known = record.intentId
      ? await retrievePaymentIntent(input.processor, record.intentId)
      : await findPaymentIntent(input.processor, input.challengeId)
    if (known) return known
    // No intent exists: repeat the create call under the same key (it cannot charge twice).
    const again = await createPaymentIntent(input.processor, input)
    if (again.kind !== 'unknown' || !again.storedFailure) return again
    // The processor stored a failure under this key and has no intent for the challenge: once the
    // search index has had time to catch up, that absence is a fact, and nothing was charged.
    if (input.now - record.firstAttemptAt >= input.processor.searchSettleMs)
      return {
        kind: 'declined',
        detail: 'the processor failed before charging and nothing was charged; pay the fresh challenge',
      }
    return again
  }

  private async record(
    input: SettleInput,
    record: LedgerRecord,
    outcome: ProcessorOutcome,
  ): Promise<SettleResult> {
    switch (outcome.kind) {
      case 'unknown':
        return {
          ok: false,
          reason: 'unavailable',
          detail: `${outcome.detail}; send the same credential again, it cannot be charged twice`,
        }
      case 'incomplete':
        if (record.intentId !== outcome.id)
          await this.ctx.storage.put('record', { ...record, intentId: outcome.id })
        return outcome.status === 'processing'
          ? {
              ok: false,
              reason: 'unavailable',
              detail: `the payment ${outcome.id} is processing; send the same credential again, it cannot be charged twice`,
            }
          : {
              ok: false,
              reason: 'requires_action',
              detail: `the card needs an extra step (such as 3-D Secure) on ${outcome.id}; complete it, then send the same credential again (it cannot be charged twice)`,
            }
      case 'succeeded': {
        const receipt: Receipt = {
          status: 'success',
          method: 'stripe',
          timestamp: new Date(input.now).toISOString(),
          reference: outcome.id,
          challengeId: input.challengeId,
          amount: input.amount,
          currency: input.currency,
        }
        await this.ctx.storage.put('record', { ...record, intentId: outcome.id, state: 'settled', receipt })
        return { ok: true, receipt }
      }
      case 'declined': {
        const refusal = { ok: false as const, reason: 'declined' as const, detail: outcome.detail }
        await this.ctx.storage.put('record', { ...record, state: 'refused', refusal })
        return refusal
      }
    }
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll()
  }
}

function alreadyAccepted(receipt: Receipt): SettleResult {
  return {
    ok: false,
    reason: 'used',
    detail: `this credential was already accepted (PaymentIntent ${receipt.reference} at ${receipt.timestamp}); a credential pays for one response`,
  }
}

function used(): SettleResult {
  return { ok: false, reason: 'used', detail: 'this challenge was already paid with another credential' }
}

/**
 * The payment ledger: one Durable Object per challenge id, the single place where a challenge is
 * claimed and settled. Durable Objects run one at a time per id, so the claim is atomic. A
 * credential is accepted once: copies arriving together wait for the one settlement and are then
 * refused, as is any later replay or a different credential for a claimed challenge.
 */
import { DurableObject } from 'cloudflare:workers'
import { createPaymentIntent, type ProcessorConfig, type ProcessorOutcome } from './processor.js'
import type { Receipt } from './receipt.js'

export interface SettleInput {
  challengeId: string
  /** SHA-256 of the credential's canonical form: the same credential always has the same digest. */
  credentialDigest: string
  spt: string
  amount: string
  currency: string
  /** When the challenge expires (ms since epoch): the record is kept a day past it, then dropped. */
  expiresAt: number
  processor: ProcessorConfig
}

export type SettleResult =
  | { ok: true; receipt: Receipt }
  | { ok: false; reason: 'used' | 'declined' | 'requires_action' | 'unavailable'; detail: string }

interface LedgerRecord {
  credentialDigest: string
  state: 'pending' | 'settled' | 'refused'
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
    if (record) {
      if (record.credentialDigest !== input.credentialDigest) return used()
      if (record.state === 'settled' && record.receipt) return alreadyAccepted(record.receipt)
      if (record.state === 'refused' && record.refusal) return record.refusal
      // 'pending': the processor's answer was lost; the same idempotency key makes a retry safe.
    } else {
      await this.ctx.storage.put<LedgerRecord>('record', {
        credentialDigest: input.credentialDigest,
        state: 'pending',
      })
      await this.ctx.storage.setAlarm(input.expiresAt + KEEP_AFTER_EXPIRY_MS)
    }
    const outcome = await createPaymentIntent(input.processor, input)
    return this.record(input, outcome)
  }

  private async record(input: SettleInput, outcome: ProcessorOutcome): Promise<SettleResult> {
    if (outcome.kind === 'unavailable') return { ok: false, reason: 'unavailable', detail: outcome.detail }
    if (outcome.kind === 'succeeded') {
      const receipt: Receipt = {
        status: 'success',
        method: 'stripe',
        timestamp: new Date().toISOString(),
        reference: outcome.id,
        challengeId: input.challengeId,
      }
      await this.ctx.storage.put<LedgerRecord>('record', {
        credentialDigest: input.credentialDigest,
        state: 'settled',
        receipt,
      })
      return { ok: true, receipt }
    }
    const refusal: SettleResult =
      outcome.kind === 'requires_action'
        ? {
            ok: false,
            reason: 'requires_action',
            detail: 'the card needs an extra step (such as 3-D Secure)',
          }
        : { ok: false, reason: 'declined', detail: outcome.detail }
    await this.ctx.storage.put<LedgerRecord>('record', {
      credentialDigest: input.credentialDigest,
      state: 'refused',
      refusal,
    })
    return refusal
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

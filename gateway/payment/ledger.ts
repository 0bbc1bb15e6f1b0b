/**
 * The payment ledger: one Durable Object per challenge id, the single place where a challenge is
 * claimed, settled and, when its answer can no longer be delivered, refunded. Durable Objects run
 * one at a time per id, so the claim is atomic. A credential is accepted once: copies arriving
 * while it settles wait for that one settlement and are then judged like any later repeat: under
 * the Idempotency-Key of the request that was answered they get that answer again; otherwise they
 * are refused without a new challenge (nothing may invite a second payment). A different credential
 * for a claimed challenge is refused.
 *
 * Reconcile, never re-charge, never guess: a record stays `pending` while the processor's outcome
 * is unknown (timeout, 409 key in use, 429, 5xx, an intent still processing or waiting for an
 * action). The same credential sent again asks the processor through consistent reads (retrieve by
 * id, or the list of intents created around the first attempt) before anything is stored; only a
 * definitive answer is stored for good.
 */
import { DurableObject } from 'cloudflare:workers'
import { RESENDS_PER_MINUTE } from '../../schema/config.js'
import type { AttemptLimiter } from './attempt-limiter.js'
import { type LimitVars, type Places, reservePlaces } from './attempts.js'
import type { OwedPayment } from './evm/owed.js'
import { bookDay, dayBookName, LEGACY_DAY, type WalletNote, walletNote } from './evm/wallet-book.js'
import {
  type ProcessorConfig,
  receiptFieldsOf,
  settlementOf,
  type WalletSettlement,
  wordsOf,
} from './methods.js'
import type { SettleOutcome } from './outcome.js'
import type { Receipt } from './receipt.js'
import {
  ANSWER_REPLAY_MS,
  answerKeptUntil,
  DELIVERY_WINDOW_MS,
  type LedgerRecord,
  RECORD_RETENTION_MS,
  REFUND_RETRY_AFTER_S,
  recordKeptUntil,
} from './retention.js'
import type { KeptAnswer, SettleResult } from './settlement.js'
import { type OrphanOutcome, orphanVerdict } from './stripe/orphans.js'
import { refundPaymentIntent } from './stripe/processor.js'
import type { Recheck, RecheckKind, ReconcileCursor } from './stripe/reconciler.js'

export type { KeptAnswer, SettleFailure, SettleResult } from './settlement.js'

export interface SettleInput {
  challengeId: string
  /** Which payment this is: the challenge id and the token (payment-identity.ts), nothing else. */
  payment: string
  /** The digest records written before `payment` were keyed on, to recognise their credential. */
  legacyDigest?: string
  /** The payment method, as the receipt names it. */
  method: string
  spt: string
  /** A payment settled through a facilitator rather than the card processor: how to settle it. */
  wallet?: WalletSettlement
  amount: string
  currency: string
  realm: string
  /** When the challenge expires (ms since epoch): checked at the first claim only. */
  expiresAt: number
  /** The caller's clock (ms since epoch). */
  now: number
  processor: ProcessorConfig
  /** The request's Idempotency-Key: the answer given under it can be fetched again for 24 h. */
  idempotencyKey?: string
  /**
   * Whom a new claim's places in the budgets are held for: a client key (client-key.ts). The ledger
   * reserves them itself, only for a new claim (attempts.ts).
   */
  client: string
  /**
   * A wallet authorization, which pays one challenge whichever wire carries it: claimed in its own
   * object (claimToken) for a new claim, beside its places, before any settlement.
   */
  tokenClaim?: { token: string; keepUntil: number }
  /** Why this credential may claim nothing new (a lapsed wallet authorization): a payment it made is still answered. */
  unclaimable?: string
}

/** A copy waits for its first try as long as one processor call may take, and this much more. */
const COPY_WAIT_EXTRA_MS = 1000
/** A copy that could not wait comes back this soon: the first try is about to end. */
const COPY_RETRY_AFTER_S = 2
/** The re-send rate's window. */
const MINUTE_MS = 60_000

/** How often a record kept for a refund still owed looks again at whether it may go. */
const REFUND_OWED_RECHECK_MS = 24 * 60 * 60 * 1000

/** Keys one storage call may write or delete at once. */
const STORAGE_BATCH = 128
const recheckKey = (kind: RecheckKind, intentId: string) => `recheck:${kind}:${intentId}`

/** Storage values stay well under the Durable Object value limit: a large answer is kept in parts. */
const ANSWER_PART_CHARS = 60_000

export class PaymentLedger extends DurableObject {
  private inflight: { payment: string; result: Promise<SettleResult> } | undefined
  /** What is done after an answer (a new claim's places counted and given back), kept to the end. */
  protected readonly afterAnswers = new Set<Promise<void>>()
  /** Re-sends of the answer, served one at a time (which also makes their count exact). */
  private resending: Promise<unknown> = Promise.resolve()
  /** The kept answer while re-sends of it are queued: read from storage once per burst, not per copy. */
  private answer: KeptAnswer | undefined
  private queued = 0
  /** Resolves once the answer is kept: copies that waited on the first try take it, never rebuild it. */
  private kept: Promise<void> | undefined
  private answerKept = () => {}
  /** Refunds under way, by PaymentIntent. */
  private readonly refunding = new Map<string, Promise<OrphanOutcome>>()

  settle(input: SettleInput): Promise<SettleResult> {
    // Decided synchronously, before any await, so concurrent calls cannot both start a charge. A
    // new claim is in flight from its first step (its places being reserved), so its copies, sent
    // at once, wait on it as copies: never a second claim, nor a place of their own.
    if (this.inflight)
      return this.inflight.payment === input.payment
        ? this.afterFirstTry(this.inflight.result, input)
        : Promise.resolve(anotherToken(undefined, input.method))
    const result = this.decide(input).finally(() => {
      this.inflight = undefined
    })
    this.inflight = { payment: input.payment, result }
    return result
  }

  /**
   * A copy of the credential that arrived while its first try was settling (a client that gave up
   * and retried, or identical requests at once). It waits for that try, a bounded time, and is then
   * answered as a repeat would be; a copy that cannot wait is told to come back (503), never to pay.
   */
  private async afterFirstTry(
    first: Promise<SettleResult | undefined>,
    input: SettleInput,
  ): Promise<SettleResult> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const bound = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, settleBoundMs(input) + COPY_WAIT_EXTRA_MS)
    })
    try {
      const settled = await Promise.race([first.catch(() => undefined), bound])
      if (!settled)
        return {
          ok: false,
          reason: 'unavailable',
          detail:
            'the first request with this credential is still being settled; send the same credential (and Idempotency-Key) again, it cannot be charged twice',
          retryAfterS: COPY_RETRY_AFTER_S,
        }
      // Settled: the answer depends on this copy's own key, exactly as for a later repeat.
      const record = await this.ctx.storage.get<LedgerRecord>('record')
      if (record?.state !== 'settled' || !record.receipt)
        // The first try counted whatever it cost; a copy costs nothing more.
        return settled.ok ? settled : { ...settled, fresh: false, newIntent: false }
      return this.answerSettled({ ...record, receipt: record.receipt }, input)
    } finally {
      if (timer !== undefined) clearTimeout(timer)
    }
  }

  /** A settled credential sent again: its answer under the key it was given under, else a refusal. */
  private async answerSettled(
    record: LedgerRecord & { receipt: Receipt },
    input: SettleInput,
  ): Promise<SettleResult> {
    const answeredUnderKey =
      input.idempotencyKey !== undefined &&
      record.idempotencyKey === input.idempotencyKey &&
      input.now < (record.settledAt ?? 0) + ANSWER_REPLAY_MS
    if (!answeredUnderKey) return alreadyAccepted(record, input.now)
    // Settled moments ago, its answer not kept yet: the first try's face is building it. Wait (at
    // most as long as a copy waits for a settlement) and take it, rather than build it again.
    const waitMs = (record.settledAt ?? 0) + settleBoundMs(input) + COPY_WAIT_EXTRA_MS - Date.now()
    if (waitMs > 0 && (await this.ctx.storage.get<number>('answer:parts')) === undefined) {
      this.kept ??= new Promise((r) => {
        this.answerKept = r
      })
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([this.kept, new Promise((r) => (timer = setTimeout(r, waitMs)))])
      if (timer !== undefined) clearTimeout(timer)
    }
    this.queued++
    const resend = this.resending
      .then(() => this.resend(record))
      .finally(() => {
        if (--this.queued === 0) this.answer = undefined
      })
    this.resending = resend.catch(() => undefined)
    return resend
  }

  /** One re-send of the answer, within RESENDS_PER_MINUTE (counted in storage, so eviction forgets none). */
  private async resend(record: LedgerRecord & { receipt: Receipt }): Promise<SettleResult> {
    const now = Date.now()
    const recent = ((await this.ctx.storage.get<number[]>('resends')) ?? []).filter(
      (t) => t > now - MINUTE_MS,
    )
    if (recent.length >= RESENDS_PER_MINUTE)
      return resendLimited(record, Math.min(...recent) + MINUTE_MS, now)
    await this.ctx.storage.put('resends', [...recent, now])
    this.answer ??= await this.keptAnswer()
    return { ok: true, receipt: record.receipt, repeat: { answer: this.answer } }
  }

  private async decide(input: SettleInput): Promise<SettleResult> {
    const record = await this.ctx.storage.get<LedgerRecord>('record')
    if (!record) {
      if (input.unclaimable) return { ok: false, reason: 'expired', detail: input.unclaimable }
      // Expiry bounds the first claim only: a retry of a pending payment must still be delivered.
      if (input.expiresAt <= input.now)
        return {
          ok: false,
          reason: 'expired',
          detail: `the challenge expired at ${new Date(input.expiresAt).toISOString()}`,
        }
      return this.newClaim(input)
    }
    return this.known(input, record)
  }

  /** A new claim: its places in the budgets reserved (here, in parallel), then claimed and charged. */
  private async newClaim(input: SettleInput): Promise<SettleResult> {
    // Only a new claim takes a place in the budgets, or can be turned away by them: a known
    // credential is never kept from its money.
    const [reserved, claimed] = await Promise.allSettled([
      reservePlaces(this.limiters(), input.client, this.env as LimitVars, input.method, settleBoundMs(input)),
      input.tokenClaim
        ? this.tokenObject(input.tokenClaim.token).claimToken(input.challengeId, input.tokenClaim.keepUntil)
        : input.challengeId,
    ])
    if (reserved.status === 'rejected') throw reserved.reason
    const places = reserved.value
    if (claimed.status === 'rejected') {
      // Nothing claimed: the places go back, and the request fails as the object call did.
      this.afterAnswer(places, undefined)
      throw claimed.reason
    }
    const holder = claimed.value
    let result: SettleResult | undefined
    try {
      result =
        holder !== input.challengeId
          ? {
              ok: false,
              reason: 'token-taken',
              detail:
                'this authorization was already given for another request; sign a new one for this challenge',
            }
          : places.waitS > 0
            ? {
                ok: false,
                reason: 'limited',
                detail: `too many refused or unfinished payments from this client; try again in ${places.waitS} s`,
                retryAfterS: places.waitS,
                ...(places.accountBusy ? { accountBusy: true } : {}),
              }
            : await this.claim(input)
      return result
    } finally {
      // Counted and given back once the outcome is recorded, after the answer (never awaited by it).
      this.afterAnswer(places, result)
    }
  }

  /**
   * What a new claim cost, counted in its places, and the rest given back: after the answer. A
   * pending call to another object keeps this one resident until it ends (a Durable Object's
   * waitUntil does nothing), so the work is only kept here to be awaited by whoever needs it.
   */
  private afterAnswer(places: Places, result: SettleResult | undefined) {
    const cost = result && !result.ok ? { fresh: result.fresh, newIntent: result.newIntent } : {}
    const work = places
      .settle(cost)
      .catch((error: unknown) => console.error('payment places not given back', error))
      .finally(() => this.afterAnswers.delete(work))
    this.afterAnswers.add(work)
  }

  /** The object that keeps which challenge a payment token was given for. */
  protected tokenObject(token: string): DurableObjectStub<PaymentLedger> {
    const ns = (this.env as { LEDGER: DurableObjectNamespace<PaymentLedger> }).LEDGER
    return ns.get(ns.idFromName(`token:${token}`))
  }

  /** The limiter objects a new claim reserves its places in (a seam the tests wrap to count calls). */
  protected limiters(): DurableObjectNamespace<AttemptLimiter> {
    return (this.env as { ATTEMPTS: DurableObjectNamespace<AttemptLimiter> }).ATTEMPTS
  }

  /** A new claim, its places held: the record first, then the one charge. */
  private async claim(input: SettleInput): Promise<SettleResult> {
    const claimed: LedgerRecord = {
      payment: input.payment,
      state: 'pending',
      firstAttemptAt: input.now,
      expiresAt: input.expiresAt,
      ...(input.wallet
        ? { walletNote: walletNote(input.challengeId, input.wallet, input.expiresAt), noted: false }
        : {}),
    }
    await this.ctx.storage.put('record', claimed)
    // A wallet claim that never learns its outcome is filed for the operator when its window closes.
    await this.ctx.storage.setAlarm(
      input.expiresAt + (input.wallet ? DELIVERY_WINDOW_MS : RECORD_RETENTION_MS),
    )
    const first = await settlementOf(input, input.now).charge()
    const result = await this.record(input, claimed, first, true)
    if (first.kind !== 'succeeded' && claimed.walletNote) await this.fileWalletNote()
    return result
  }

  /** A payment this challenge already holds a record of: the same, another token, or a refund. */
  private async known(input: SettleInput, record: LedgerRecord): Promise<SettleResult> {
    // Another token for this challenge: never charged; only a refused payment leaves it free to pay.
    if (!samePayment(record, input))
      return record.state === 'refused' ? used() : anotherToken(record, input.method)
    if (record.state === 'refunded')
      return record.refund?.id
        ? {
            ok: false,
            reason: 'refunded',
            detail: `this payment (${record.intentId}) was charged but its answer could not be delivered, so it was refunded in full (${record.refund.id})`,
          }
        : {
            // Not refunded yet: the charge is still on the card, so nothing may say "pay again".
            ok: false,
            reason: 'refund-owed',
            detail: `this payment (${record.intentId}) was charged but its answer can no longer be delivered, so it is owed a full refund; the refund has not been made yet and the reconciler tries again every 15 minutes. Send the same credential again later to get the refund's id; do not count on the refund before then`,
            retryAfterS: REFUND_RETRY_AFTER_S,
          }
    if (record.state === 'settled' && record.receipt)
      return this.answerSettled({ ...record, receipt: record.receipt }, input)
    if (record.state === 'refused' && record.refusal) return record.refusal
    const settlement = settlementOf(input, input.now)
    if (input.now > record.expiresAt + DELIVERY_WINDOW_MS) {
      // Never delivered now; the method reads what became of the payment, and settles nothing.
      const closed = `its delivery window closed at ${new Date(record.expiresAt + DELIVERY_WINDOW_MS).toISOString()}`
      return settlement.pastWindow(record, closed)
    }
    // What became of the pending payment, through reads that cannot pay twice (the method's own).
    const outcome = await settlement.reconcile(record, (r) => this.ctx.storage.put('record', r))
    const result = await this.record(input, record, outcome, false)
    if (outcome.kind === 'succeeded' && record.noted) await this.takeBackWalletNote()
    return result
  }

  private async record(
    input: SettleInput,
    record: LedgerRecord,
    outcome: SettleOutcome,
    firstCall: boolean,
  ): Promise<SettleResult> {
    const result = await this.store(input, record, outcome, firstCall)
    // A new claim's first call that did not complete counts as unfinished only when the processor
    // names an intent it created (one the reconciler will read): never a refused or unknown token, a
    // wallet refusal, or the processor's own failure (5xx, 409, 429, a timeout: `unknown`). Else
    // anyone could fill the account's bound with made-up tokens, for free.
    const created =
      outcome.kind === 'incomplete' || (outcome.kind === 'declined' && outcome.createdIntent === true)
    return firstCall && !result.ok && created ? { ...result, newIntent: true } : result
  }

  private async store(
    input: SettleInput,
    record: LedgerRecord,
    outcome: SettleOutcome,
    firstCall: boolean,
  ): Promise<SettleResult> {
    switch (outcome.kind) {
      case 'unknown':
        // The processor's clock as its `Date` showed it: later reads of its list widen by the skew.
        if (outcome.skewS !== undefined && Math.abs(outcome.skewS) > Math.abs(record.skewS ?? 0)) {
          record.skewS = outcome.skewS
          await this.ctx.storage.put('record', record)
        }
        return {
          ok: false,
          reason: 'unavailable',
          detail: `${outcome.detail}; send the same credential again${outcome.retryAfterS ? ` in ${outcome.retryAfterS} s` : ''}, it cannot be charged twice`,
          ...(outcome.retryAfterS ? { retryAfterS: outcome.retryAfterS } : {}),
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
          method: input.method,
          timestamp: new Date(input.now).toISOString(),
          reference: outcome.id,
          challengeId: input.challengeId,
          amount: input.amount,
          currency: input.currency,
          ...receiptFieldsOf(input),
        }
        await this.ctx.storage.put('record', {
          ...record,
          intentId: outcome.id,
          state: 'settled',
          receipt,
          settledAt: input.now,
          ...(input.idempotencyKey === undefined ? {} : { idempotencyKey: input.idempotencyKey }),
        })
        return { ok: true, receipt }
      }
      case 'declined': {
        const refusal = { ok: false as const, reason: 'declined' as const, detail: outcome.detail }
        await this.ctx.storage.put('record', { ...record, state: 'refused', refusal })
        // Only the processor's refusal of this card, answered now, counts against the client.
        return { ...refusal, fresh: firstCall && !outcome.notTheCard }
      }
    }
  }

  /** Keeps the answer a settled request was given under its Idempotency-Key (once; later calls are no-ops). */
  async keepAnswer(idempotencyKey: string, answer: KeptAnswer): Promise<void> {
    const record = await this.ctx.storage.get<LedgerRecord>('record')
    if (record?.state !== 'settled' || record.idempotencyKey !== idempotencyKey) return
    if ((await this.ctx.storage.get<number>('answer:parts')) !== undefined) return this.answerKept()
    const text = JSON.stringify(answer)
    const parts: Record<string, string> = {}
    for (let i = 0; i * ANSWER_PART_CHARS < text.length; i++)
      parts[`answer:${i}`] = text.slice(i * ANSWER_PART_CHARS, (i + 1) * ANSWER_PART_CHARS)
    await this.ctx.storage.put({ ...parts, 'answer:parts': Object.keys(parts).length })
    // Kept only while it can be asked for: the alarm first drops the answer, then (alarm()) the record.
    await this.ctx.storage.setAlarm(Math.min(answerKeptUntil(record), recordKeptUntil(record)))
    this.answerKept()
  }

  private async keptAnswer(): Promise<KeptAnswer | undefined> {
    const count = await this.ctx.storage.get<number>('answer:parts')
    if (count === undefined) return undefined
    const parts = await this.ctx.storage.get<string>(Array.from({ length: count }, (_, i) => `answer:${i}`))
    return JSON.parse(Array.from({ length: count }, (_, i) => parts.get(`answer:${i}`) ?? '').join(''))
  }

  /**
   * The scheduled reconciler found `intentId` succeeded for this challenge: refund it if its answer
   * was never delivered and can no longer be (the verdict is stripe/orphans.ts's), exactly once. Runs that
   * overlap reach this object together: the first refunds, the others wait for it and report
   * `refunded-before`, so each run's report counts only the refunds it made.
   */
  refundIfOrphaned(
    intentId: string,
    challengeId: string,
    now: number,
    processor: ProcessorConfig,
  ): Promise<OrphanOutcome> {
    // Decided synchronously, before any await, as for settle.
    const running = this.refunding.get(intentId)
    if (running) return running.then((o) => (o === 'refunded-now' ? 'refunded-before' : o))
    const run = this.judgeOrphan(intentId, challengeId, now, processor).finally(() =>
      this.refunding.delete(intentId),
    )
    this.refunding.set(intentId, run)
    return run
  }

  private async judgeOrphan(
    intentId: string,
    challengeId: string,
    now: number,
    processor: ProcessorConfig,
  ): Promise<OrphanOutcome> {
    // Never beside a settlement in progress: wait for it, then judge what it stored.
    await this.inflight?.result.catch(() => undefined)
    if (await this.ctx.storage.get<string>(`refund:${intentId}`)) return 'refunded-before'
    const record = await this.ctx.storage.get<LedgerRecord>('record')
    const verdict = orphanVerdict(record, intentId, now)
    if (verdict === 'refunded') return 'refunded-before'
    if (verdict !== 'refund') return verdict
    // The record's own charge (not a second intent for the challenge) is marked before the call,
    // so no retry of the credential can be delivered what is being refunded.
    const own = !record || record.intentId === undefined || record.intentId === intentId
    const marked: LedgerRecord = {
      ...(record ?? { firstAttemptAt: now, expiresAt: now }),
      state: 'refunded',
      intentId,
    }
    if (own) await this.ctx.storage.put('record', marked)
    if (!record) await this.ctx.storage.setAlarm(now + RECORD_RETENTION_MS)
    // Each attempt under a key of its own: the processor replays a failed call's answer under its key.
    const attempt = (await this.ctx.storage.get<number>(`refund-attempts:${intentId}`)) ?? 0
    await this.ctx.storage.put(`refund-attempts:${intentId}`, attempt + 1)
    const refund = await refundPaymentIntent(processor, intentId, challengeId, attempt)
    if (!refund.ok) return 'refund-pending'
    await this.ctx.storage.put(`refund:${intentId}`, refund.id)
    if (own)
      await this.ctx.storage.put('record', {
        ...marked,
        refund: { id: refund.id, at: new Date(now).toISOString() },
      })
    return 'refunded-now'
  }

  /**
   * Claims this object's payment token (one EIP-3009 authorization) for `challengeId`, durably,
   * before any settlement: the challenge that claimed it first, which may be another.
   */
  async claimToken(challengeId: string, keepUntil: number): Promise<string> {
    const claimed = await this.ctx.storage.get<string>('token-claim')
    if (claimed !== undefined) return claimed
    await this.ctx.storage.put('token-claim', challengeId)
    // Kept past the token's own validity, then dropped with the object (alarm(): no record).
    await this.ctx.storage.setAlarm(keepUntil + RECORD_RETENTION_MS)
    return challengeId
  }

  /** Files this challenge's unanswered wallet payment in its day's book (evm/wallet-book.ts), once. */
  private async fileWalletNote(): Promise<void> {
    const record = await this.ctx.storage.get<LedgerRecord>('record')
    if (!record?.walletNote || record.noted) return
    const day = bookDay(record.walletNote.expiresAt)
    // The note and its day's entry in the root book are independent writes: both, at once.
    await Promise.all([
      this.book(day).noteWalletPayment(record.walletNote),
      this.book(LEGACY_DAY).noteWalletDay(day),
    ])
    await this.ctx.storage.put('record', { ...record, noted: true })
  }

  /** The payment was answered after all: its note comes out of the book. */
  private async takeBackWalletNote(): Promise<void> {
    const record = await this.ctx.storage.get<LedgerRecord>('record')
    if (!record?.walletNote) return
    await this.book(bookDay(record.walletNote.expiresAt)).dropWalletNote(record.walletNote.challengeId)
    await this.ctx.storage.put('record', { ...record, noted: false })
  }

  private book(day: string): DurableObjectStub<PaymentLedger> {
    const ns = (this.env as { LEDGER: DurableObjectNamespace<PaymentLedger> }).LEDGER
    return ns.get(ns.idFromName(dayBookName(day)))
  }

  // A day's book (evm/wallet-book.ts): its notes, and the debts found among them.

  async noteWalletPayment(note: WalletNote): Promise<void> {
    await this.ctx.storage.put(`wallet:${note.challengeId}`, note)
  }

  async walletNotes(after: string | undefined, limit: number): Promise<WalletNote[]> {
    const listed = await this.ctx.storage.list<WalletNote>({
      prefix: 'wallet:',
      limit,
      ...(after === undefined ? {} : { startAfter: `wallet:${after}` }),
    })
    return [...listed.values()]
  }

  async dropWalletNote(challengeId: string): Promise<void> {
    await this.ctx.storage.delete(`wallet:${challengeId}`)
  }

  /** A note whose price arrived becomes a debt, kept until the operator says it was paid back. */
  async keepWalletDebt(debt: OwedPayment): Promise<void> {
    await this.ctx.storage.put(`owed:${debt.challengeId}`, debt)
    await this.ctx.storage.delete(`wallet:${debt.challengeId}`)
  }

  async walletDebts(): Promise<OwedPayment[]> {
    return [...(await this.ctx.storage.list<OwedPayment>({ prefix: 'owed:' })).values()]
  }

  /** The operator returned a debt: remembered with the transaction that returned it, never listed again. */
  async walletDebtRepaid(challengeId: string, transaction: string): Promise<OwedPayment | undefined> {
    const debt = await this.ctx.storage.get<OwedPayment>(`owed:${challengeId}`)
    if (!debt) return undefined
    const repaid = { ...debt, repaidIn: transaction }
    await this.ctx.storage.put(`repaid:${challengeId}`, repaid)
    await this.ctx.storage.delete(`owed:${challengeId}`)
    return repaid
  }

  // The root book: which days have books.

  async noteWalletDay(day: string): Promise<void> {
    await this.ctx.storage.put(`day:${day}`, true)
  }

  async walletDays(): Promise<string[]> {
    const days = [...(await this.ctx.storage.list({ prefix: 'day:' })).keys()].map((k) => k.slice(4))
    // Notes kept in the root before day books existed are read as one more day.
    const legacy = (await this.ctx.storage.list({ prefix: 'wallet:', limit: 1 })).size > 0
    const debts = (await this.ctx.storage.list({ prefix: 'owed:', limit: 1 })).size > 0
    return legacy || debts ? [LEGACY_DAY, ...days] : days
  }

  /** The scheduled reconciler's cursor, kept only by the one object stripe/reconciler-store.ts names. */
  reconcilerCursor(): Promise<ReconcileCursor | undefined> {
    return this.ctx.storage.get<ReconcileCursor>('reconciler-cursor')
  }

  async keepReconcilerCursor(cursor: ReconcileCursor): Promise<void> {
    await this.ctx.storage.put('reconciler-cursor', cursor)
  }

  /** Keeps entries for the reconciler's next runs, one key each; resolves once written. */
  async keepRechecks(entries: Recheck[]): Promise<void> {
    for (let i = 0; i < entries.length; i += STORAGE_BATCH)
      await this.ctx.storage.put(
        Object.fromEntries(
          entries.slice(i, i + STORAGE_BATCH).map((e) => [recheckKey(e.kind, e.intentId), e]),
        ),
      )
  }

  async dropRechecks(kind: RecheckKind, intentIds: string[]): Promise<void> {
    for (let i = 0; i < intentIds.length; i += STORAGE_BATCH)
      await this.ctx.storage.delete(intentIds.slice(i, i + STORAGE_BATCH).map((id) => recheckKey(kind, id)))
  }

  async rechecks(kind: RecheckKind, limit: number, after?: string): Promise<Recheck[]> {
    const listed = await this.ctx.storage.list<Recheck>({
      prefix: recheckKey(kind, ''),
      limit,
      ...(after === undefined ? {} : { startAfter: recheckKey(kind, after) }),
    })
    return [...listed.values()]
  }

  async recheckCounts(): Promise<Record<RecheckKind, number>> {
    const count = async (kind: RecheckKind) =>
      (await this.ctx.storage.list({ prefix: recheckKey(kind, '') })).size
    return { refund: await count('refund'), unfinished: await count('unfinished') }
  }

  /** The re-send window closed: the kept answer goes, and the record stays until its own time. */
  override async alarm(): Promise<void> {
    const record = await this.ctx.storage.get<LedgerRecord>('record')
    if (record?.walletNote && !record.noted && record.state !== 'settled') await this.fileWalletNote()
    // A refund still owed keeps its record (and the charge's verdict) until it is made.
    if (record?.state === 'refunded' && !record.refund?.id && Date.now() >= recordKeptUntil(record)) {
      await this.ctx.storage.setAlarm(Date.now() + REFUND_OWED_RECHECK_MS)
      return
    }
    if (!record || Date.now() >= recordKeptUntil(record)) {
      await this.ctx.storage.deleteAll()
      return
    }
    const count = await this.ctx.storage.get<number>('answer:parts')
    if (count !== undefined && Date.now() >= answerKeptUntil(record))
      await this.ctx.storage.delete([
        'answer:parts',
        ...Array.from({ length: count }, (_, i) => `answer:${i}`),
      ])
    await this.ctx.storage.setAlarm(recordKeptUntil(record))
  }
}

/** How long one settlement of this payment may take, by its method (a card's processor, a wallet's facilitator). */
const settleBoundMs = (input: SettleInput) => settlementOf(input, input.now).boundMs

/**
 * A settled credential whose answer this request cannot have: it says whether the answer can still
 * be had under the key it was given under, and never invites a second payment.
 */
function alreadyAccepted(record: LedgerRecord & { receipt: Receipt }, now: number): SettleResult {
  const { reference, timestamp } = record.receipt
  const accepted = `this credential was already accepted (${wordsOf(record.receipt.method).settlement} ${reference} at ${timestamp}) and its answer was given to the request that first sent it`
  if (record.idempotencyKey === undefined)
    return {
      ok: false,
      reason: 'accepted',
      resendable: false,
      detail: `${accepted}; that request carried no Idempotency-Key, so its answer cannot be sent again. Do not pay again for the same answer; a new purchase starts with a request without a credential`,
    }
  const until = new Date((record.settledAt ?? 0) + ANSWER_REPLAY_MS)
  return until.getTime() > now
    ? {
        ok: false,
        reason: 'accepted',
        resendable: true,
        detail: `${accepted}; send the same credential again with that request's Idempotency-Key (until ${until.toISOString()}) to get the same answer again`,
      }
    : {
        ok: false,
        reason: 'accepted',
        resendable: false,
        detail: `${accepted}; it could be sent again under that request's Idempotency-Key until ${until.toISOString()}, and no longer`,
      }
}

/**
 * A re-send beyond the rate: nothing charged, never a challenge. It says when the next re-send is
 * allowed only if the answer can still be had then; otherwise that it cannot be had again.
 */
function resendLimited(record: LedgerRecord, nextAt: number, now: number): SettleResult {
  const until = (record.settledAt ?? 0) + ANSWER_REPLAY_MS
  const retryAfterS = Math.ceil((nextAt - now) / 1000) || 1
  const resendable = nextAt < until
  return {
    ok: false,
    reason: 'resend-limited',
    resendable,
    ...(resendable ? { retryAfterS } : {}),
    detail: `this answer was already sent again ${RESENDS_PER_MINUTE} times within a minute; a re-send is never charged, so do not pay again, but ${resendable ? `send the same credential and Idempotency-Key again in ${retryAfterS} s` : `it can be sent again only until ${new Date(until).toISOString()}, so not again`}`,
  }
}

function samePayment(record: LedgerRecord, input: SettleInput): boolean {
  if (record.payment !== undefined) return record.payment === input.payment
  return record.credentialDigest !== undefined && record.credentialDigest === input.legacyDigest
}

function used(): SettleResult {
  return {
    ok: false,
    reason: 'used',
    detail: 'this challenge was paid with another token, which was refused; nothing was charged for this one',
  }
}

/** A second token for a challenge being paid (or paid): refused before any charge, with no challenge to pay. */
function anotherToken(record: LedgerRecord | undefined, method: string): SettleResult {
  const intent = record?.intentId ? ` (${wordsOf(method).settlement} ${record.intentId})` : ''
  return {
    ok: false,
    reason: 'another-token',
    detail: `this challenge is already being paid with another token${intent}, and this token was not charged; the credential with that token (and its Idempotency-Key) gets the answer, and a new purchase starts with a request without a credential`,
  }
}

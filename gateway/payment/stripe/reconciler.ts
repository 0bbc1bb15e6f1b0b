/**
 * The scheduled reconciler: every charge of this service that was never delivered and can no
 * longer be is refunded, once. Each run reads only the band of intents old enough that their
 * payment's delivery window has closed and not yet past the look-back (creation-window.ts), and
 * resumes from where the last run stopped (a stored cursor), so its cost follows the band, never
 * the account's other traffic. It keeps this realm's succeeded intents and asks each one's ledger
 * record for its verdict (orphans.ts); the ledger refunds under an idempotency key and records the
 * refund, so a buyer who presents the credential afterwards is told it was refunded, with the id.
 * Intents whose verdict is not final yet are kept durably, without a cap, before the cursor passes
 * them, and looked at again on the next runs: a refund owed until it is made, an intent still
 * processing or waiting for an action until it ends or leaves the look-back.
 */
import { orphanBand } from './creation-window.js'
import type { OrphanOutcome } from './orphans.js'
import {
  type CreatedWindow,
  type ListedIntent,
  type ProcessorConfig,
  retrievePaymentIntent,
  walkPaymentIntents,
} from './processor.js'

/** Pages one run reads (100 intents each); a band larger than that is finished by the next runs. */
export const MAX_PAGES = 200
/**
 * Entries looked at again per run, by kind. Nothing is dropped for want of room: what a run does not
 * reach waits for the next (the unfinished in turn, from where the last run stopped), and the
 * backlog is in the metric. Refunds owed come first and on their own budget, so no client's
 * unfinished intents can keep a refund from being made.
 */
export const REFUNDS_OWED_PER_RUN = 1000
export const UNFINISHED_PER_RUN = 500

/**
 * Why an intent needs another look: `refund`, a charge of this service not settled by a delivery
 * (its refund call failed, or its payment was still deliverable when the band passed); `unfinished`,
 * an intent still processing or waiting for an action, which may yet be charged.
 */
export type RecheckKind = 'refund' | 'unfinished'

/** An intent of this service whose verdict was not final when the band passed it. */
export interface Recheck {
  kind: RecheckKind
  intentId: string
  challengeId: string
  /** Its `created` (seconds): an unfinished one is dropped once past the look-back, as its ledger record will be. */
  created: number
}

/** What the reconciler keeps between runs, beside the entries kept for another look. */
export interface ReconcileCursor {
  /** Every intent created at or before this second (and inside the look-back) has been judged. */
  coveredThrough?: number
  /** The band being read: its bounds and the last intent read, after which the next run resumes. */
  walk?: CreatedWindow & { after?: string }
  /** The last unfinished entry looked at, after which the next run goes on (then from the start). */
  unfinishedAfter?: string
  /** Runs in a row that ended before their band did. */
  behindRuns: number
  /** Written before entries were kept one by one: taken over as entries on the next run. */
  recheck?: Omit<Recheck, 'kind'>[]
}

/**
 * Where the cursor and the entries are kept between runs (reconciler-store.ts): each entry durably,
 * under its own key, with no cap; `keep` resolves only once they are written.
 */
export interface CursorStore {
  load(): Promise<ReconcileCursor | undefined>
  save(cursor: ReconcileCursor): Promise<void>
  keep(entries: Recheck[]): Promise<void>
  drop(kind: RecheckKind, intentIds: string[]): Promise<void>
  /** Up to `limit` entries of `kind`, in intent id order, after `after`. */
  rechecks(kind: RecheckKind, limit: number, after?: string): Promise<Recheck[]>
  counts(): Promise<Record<RecheckKind, number>>
}

export type ReconcileReport = Record<OrphanOutcome, number> & {
  examined: number
  /** The band this run read from. */
  band: CreatedWindow
  /** The band was read to its end; false means the reconciler is behind (alert on it). */
  bandComplete: boolean
  behindRuns: number
  /** List pages read: with `rechecked` and the refunds, the run's processor calls. */
  pages: number
  rechecked: number
  /** Charges kept because a refund is (or may be) owed on them, after the run: alert while any stays. */
  refundsOwed: number
  /** Intents of this service still processing or waiting for an action, kept after the run. */
  unfinished: number
  /** Kept entries this run had no budget to look at: they wait for the next runs (alert on it). */
  backlog: number
  /** Why the run stopped early, when it did. */
  failure?: string
}

/** What a run needs of the payment configuration. */
export interface ReconcilerConfig {
  realm: string
  challengeTtlMs: number
  processor: ProcessorConfig
}

/** What a run needs of the ledger: its verdict on one succeeded intent, and the refund if it is owed. */
export interface OrphanLedger {
  refundIfOrphaned(
    challengeId: string,
    intentId: string,
    now: number,
    processor: ProcessorConfig,
  ): Promise<OrphanOutcome>
}

export async function refundOrphans(
  config: ReconcilerConfig,
  ledger: OrphanLedger,
  given: CursorStore,
  now: number,
): Promise<ReconcileReport> {
  const band = orphanBand(now, config.challengeTtlMs)
  // Nothing to write is no call at all.
  const store: CursorStore = {
    load: () => given.load(),
    save: (cursor) => given.save(cursor),
    rechecks: (kind, limit, after) => given.rechecks(kind, limit, after),
    counts: () => given.counts(),
    keep: (entries) => (entries.length ? given.keep(entries) : Promise.resolve()),
    drop: (kind, ids) => (ids.length ? given.drop(kind, ids) : Promise.resolve()),
  }
  let state: ReconcileCursor = (await store.load()) ?? { behindRuns: 0 }
  if (state.recheck) {
    // A cursor from before entries were kept one by one: keep them first, as refunds owed (looked at first).
    await store.keep(state.recheck.map((r) => ({ ...r, kind: 'refund' as const })))
    const { recheck: _taken, ...rest } = state
    state = rest
    await store.save(state)
  }
  // A stored position past the present band means the clock went back: read the band afresh.
  if ((state.walk?.lte ?? state.coveredThrough ?? Number.NEGATIVE_INFINITY) > band.lte)
    state = { behindRuns: 0, ...(state.unfinishedAfter ? { unfinishedAfter: state.unfinishedAfter } : {}) }
  const walk = state.walk ?? {
    gte: Math.max(band.gte, (state.coveredThrough ?? Number.NEGATIVE_INFINITY) + 1),
    lte: band.lte,
  }
  const report: ReconcileReport = {
    examined: 0,
    'refunded-now': 0,
    'refunded-before': 0,
    'refund-pending': 0,
    delivered: 0,
    deliverable: 0,
    band: { gte: walk.gte, lte: walk.lte },
    bandComplete: false,
    behindRuns: 0,
    pages: 0,
    rechecked: 0,
    refundsOwed: 0,
    unfinished: 0,
    backlog: 0,
  }
  /** Judges a succeeded intent; true when its verdict is final. */
  const judge = async (r: Omit<Recheck, 'kind'>) => {
    report.examined++
    const outcome = await ledger.refundIfOrphaned(r.challengeId, r.intentId, now, config.processor)
    report[outcome]++
    return outcome !== 'refund-pending' && outcome !== 'deliverable'
  }

  try {
    // Refunds owed first, on their own budget: whatever the unfinished intents, these are made.
    const owed = await store.rechecks('refund', REFUNDS_OWED_PER_RUN)
    const refunded: string[] = []
    for (const r of owed) {
      report.rechecked++
      if (await judge(r)) refunded.push(r.intentId)
    }
    await store.drop('refund', refunded)

    // Then the unfinished, in turn from where the last run stopped.
    let unfinished = await store.rechecks('unfinished', UNFINISHED_PER_RUN, state.unfinishedAfter)
    if (unfinished.length < UNFINISHED_PER_RUN && state.unfinishedAfter !== undefined)
      unfinished = [
        ...unfinished,
        ...(await store.rechecks('unfinished', UNFINISHED_PER_RUN - unfinished.length)).filter(
          (r) => !unfinished.some((u) => u.intentId === r.intentId),
        ),
      ]
    const settled: string[] = []
    const owedNow: Recheck[] = []
    for (const r of unfinished) {
      // Past the look-back its ledger record may be gone, and no record would read as "never claimed".
      if (r.created < band.gte) {
        settled.push(r.intentId)
        continue
      }
      report.rechecked++
      const known = await retrievePaymentIntent(config.processor, r.intentId)
      if (known.kind === 'declined') settled.push(r.intentId)
      else if (known.kind === 'succeeded') {
        settled.push(r.intentId)
        if (!(await judge(r))) owedNow.push({ ...r, kind: 'refund' })
      }
    }
    // Kept as owed before it stops being kept as unfinished: never out of both lists.
    await store.keep(owedNow)
    await store.drop('unfinished', settled)
    const last = unfinished.at(-1)?.intentId
    state = { ...state, ...(last ? { unfinishedAfter: last } : {}) }
    if (!last) delete state.unfinishedAfter
  } catch (error) {
    report.failure = `could not read or keep the entries to look at again: ${messageOf(error)}`
  }

  // Entries met on the current page, kept before the cursor is saved past that page.
  let pending: Recheck[] = []
  const flush = async () => {
    const entries = pending
    pending = []
    await store.keep(entries)
  }
  const visit = async (intent: ListedIntent) => {
    // A band resumed late may reach past the look-back: the rest of it is out of reach.
    if (intent.created < band.gte) return true
    const challengeId = intent.metadata?.challenge_id
    if (intent.metadata?.realm !== config.realm || !challengeId) return false
    const r = { intentId: intent.id, challengeId, created: intent.created }
    if (intent.status === 'succeeded') {
      if (!(await judge(r))) pending.push({ ...r, kind: 'refund' })
    } else if (intent.status === 'processing' || intent.status === 'requires_action')
      pending.push({ ...r, kind: 'unfinished' })
    return false
  }
  const onPage = async (after: string) => {
    await flush()
    await store.save({ ...state, walk: { ...walk, after } })
  }

  if (report.failure === undefined && walk.gte <= walk.lte) {
    let read: Awaited<ReturnType<typeof walkPaymentIntents>>
    try {
      read = await walkPaymentIntents(config.processor, walk, MAX_PAGES, visit, {
        ...(walk.after ? { startingAfter: walk.after } : {}),
        onPage,
      })
      // A walk stopped inside its page (past the look-back) saved nothing for that page yet.
      await flush()
    } catch (error) {
      // Not kept: the cursor stays where the last kept page left it, and the next run reads on from there.
      read = { end: 'unknown', detail: `could not keep an entry: ${messageOf(error)}`, pages: 0 }
    }
    report.pages = read.pages
    if (read.end === 'complete' || read.end === 'stopped') {
      state = {
        coveredThrough: walk.lte,
        behindRuns: 0,
        ...(state.unfinishedAfter ? { unfinishedAfter: state.unfinishedAfter } : {}),
      }
      report.bandComplete = true
    } else if (read.end === 'unknown') report.failure = read.detail
  } else if (report.failure === undefined) {
    // Nothing new has aged into the band since the last run.
    state = { ...state, behindRuns: 0 }
    report.bandComplete = true
  }
  if (!report.bandComplete) {
    // Resume from the last page whose entries were kept (saved by onPage), never past it.
    const stored = (await store.load())?.walk
    const same = stored?.gte === walk.gte && stored.lte === walk.lte
    state = { ...state, walk: same && stored ? stored : walk, behindRuns: state.behindRuns + 1 }
  }
  await store.save(state)
  report.behindRuns = state.behindRuns
  try {
    const counts = await store.counts()
    report.refundsOwed = counts.refund
    report.unfinished = counts.unfinished
    report.backlog =
      Math.max(0, counts.refund - REFUNDS_OWED_PER_RUN) + Math.max(0, counts.unfinished - UNFINISHED_PER_RUN)
  } catch (error) {
    report.failure ??= `could not count the entries kept: ${messageOf(error)}`
  }
  return report
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The Analytics Engine data point of one run, the metric an operator alerts on: blob1 names the
 * worst state (`behind`: the band was not read to its end; `refunds-owed`: a refund could not be made
 * yet; `account-bound`: the account's unfinished intents of the last hour are at their bound, so new
 * claims are refused; `backlog`: more kept entries than one run looks at; else `complete`); doubles:
 * runs behind, pages, intents examined, refunds made, refunds owed, unfinished intents kept, backlog,
 * and the account's unfinished intents of the last hour.
 */
export function reconcilerMetric(report: ReconcileReport, account?: { unfinished: number; limit: number }) {
  const state = !report.bandComplete
    ? 'behind'
    : report.refundsOwed > 0
      ? 'refunds-owed'
      : account && account.unfinished >= account.limit
        ? 'account-bound'
        : report.backlog > 0
          ? 'backlog'
          : 'complete'
  return {
    blobs: [state, report.failure ?? ''],
    doubles: [
      report.behindRuns,
      report.pages,
      report.examined,
      report['refunded-now'],
      report.refundsOwed,
      report.unfinished,
      report.backlog,
      account?.unfinished ?? 0,
    ],
    indexes: ['reconciler'],
  }
}

/**
 * The scheduled reconciler: every charge of this service that was never delivered and can no
 * longer be is refunded, once. Each run reads only the band of intents old enough that their
 * payment's delivery window has closed and not yet past the look-back (creation-window.ts), and
 * resumes from where the last run stopped (a stored cursor), so its cost follows the band, never
 * the account's other traffic. It keeps this realm's succeeded intents and asks each one's ledger
 * record for its verdict (orphans.ts); the ledger refunds under an idempotency key and records the
 * refund, so a buyer who presents the credential afterwards is told it was refunded, with the id.
 * Intents whose verdict is not final yet (a refund call unanswered, a payment still processing or
 * waiting for an action) are looked at again on the next runs until they leave the look-back.
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
/** Intents kept for another look: more would mean the account is flooded with unfinished payments. */
const MAX_RECHECKS = 1000

/** An intent of this service whose verdict was not final when the band passed it. */
export interface Recheck {
  intentId: string
  challengeId: string
  /** Its `created` (seconds): it is dropped once past the look-back, as its ledger record will be. */
  created: number
}

/** What the reconciler keeps between runs. */
export interface ReconcileCursor {
  /** Every intent created at or before this second (and inside the look-back) has been judged. */
  coveredThrough?: number
  /** The band being read: its bounds and the last intent read, after which the next run resumes. */
  walk?: CreatedWindow & { after?: string }
  recheck: Recheck[]
  /** Runs in a row that ended before their band did. */
  behindRuns: number
}

/** Where the cursor is kept between runs (reconciler-store.ts). */
export interface CursorStore {
  load(): Promise<ReconcileCursor | undefined>
  save(cursor: ReconcileCursor): Promise<void>
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
  /** Intents of this service left for another look, and those there was no room for. */
  pendingRecheck: number
  recheckOverflow: number
  /** Why the list could not be read, when it could not. */
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

const fresh = (): ReconcileCursor => ({ recheck: [], behindRuns: 0 })

export async function refundOrphans(
  config: ReconcilerConfig,
  ledger: OrphanLedger,
  store: CursorStore,
  now: number,
): Promise<ReconcileReport> {
  const band = orphanBand(now, config.challengeTtlMs)
  let state = (await store.load()) ?? fresh()
  // A stored position past the present band means the clock went back: read the band afresh.
  if ((state.walk?.lte ?? state.coveredThrough ?? Number.NEGATIVE_INFINITY) > band.lte)
    state = { ...fresh(), recheck: state.recheck }
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
    pendingRecheck: 0,
    recheckOverflow: 0,
  }
  const recheck: Recheck[] = []
  const keep = (r: Recheck) => {
    if (recheck.length < MAX_RECHECKS) recheck.push(r)
    else report.recheckOverflow++
  }
  const judge = async (r: Recheck) => {
    report.examined++
    const outcome = await ledger.refundIfOrphaned(r.challengeId, r.intentId, now, config.processor)
    report[outcome]++
    if (outcome === 'refund-pending' || outcome === 'deliverable') keep(r)
  }

  // Those left from earlier runs first, through the consistent read of each.
  for (const r of state.recheck) {
    // Past the look-back its ledger record may be gone, and no record would read as "never claimed".
    if (r.created < band.gte) continue
    report.rechecked++
    const known = await retrievePaymentIntent(config.processor, r.intentId)
    if (known.kind === 'succeeded') await judge(r)
    else if (known.kind !== 'declined') keep(r)
  }

  const visit = async (intent: ListedIntent) => {
    // A band resumed late may reach past the look-back: the rest of it is out of reach.
    if (intent.created < band.gte) return true
    const challengeId = intent.metadata?.challenge_id
    if (intent.metadata?.realm !== config.realm || !challengeId) return false
    const r = { intentId: intent.id, challengeId, created: intent.created }
    if (intent.status === 'succeeded') await judge(r)
    else if (intent.status === 'processing' || intent.status === 'requires_action') keep(r)
    return false
  }
  const save = (after?: string) =>
    store.save({ ...state, recheck, walk: { ...walk, ...(after ? { after } : {}) } })

  if (walk.gte <= walk.lte) {
    const read = await walkPaymentIntents(config.processor, walk, MAX_PAGES, visit, {
      ...(walk.after ? { startingAfter: walk.after } : {}),
      onPage: save,
    })
    report.pages = read.pages
    if (read.end === 'complete' || read.end === 'stopped') {
      state = { coveredThrough: walk.lte, recheck, behindRuns: 0 }
      report.bandComplete = true
    } else {
      const after = read.after ?? walk.after
      state = {
        ...(state.coveredThrough === undefined ? {} : { coveredThrough: state.coveredThrough }),
        walk: { gte: walk.gte, lte: walk.lte, ...(after ? { after } : {}) },
        recheck,
        behindRuns: state.behindRuns + 1,
      }
      if (read.end === 'unknown') report.failure = read.detail
    }
  } else {
    // Nothing new has aged into the band since the last run.
    state = { ...state, recheck, behindRuns: 0 }
    report.bandComplete = true
  }
  await store.save(state)
  report.behindRuns = state.behindRuns
  report.pendingRecheck = recheck.length
  return report
}

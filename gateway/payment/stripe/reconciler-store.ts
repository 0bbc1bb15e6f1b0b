/**
 * Where the scheduled reconciler keeps its cursor between runs, so a run resumes where the last
 * one stopped instead of at the newest intent: one object of the ledger's Durable Object namespace,
 * under a name no challenge id can take (ids are base64url), with each intent kept for another look
 * under its own key (no cap, so nothing owed is dropped for want of room). Not a class of its own: a new Durable
 * Object class needs a migration, and Cloudflare refuses a version upload that carries one, which
 * the staged deploy (scripts/deploy/deploy-stage.ts) relies on.
 */
import type { PaymentLedger } from '../ledger.js'
import type { CursorStore } from './reconciler.js'

const CURSOR_OBJECT = 'reconciler:cursor'

export function cursorStoreOf(ledgers: DurableObjectNamespace<PaymentLedger>): CursorStore {
  const stub = ledgers.get(ledgers.idFromName(CURSOR_OBJECT))
  return {
    load: () => stub.reconcilerCursor(),
    save: (cursor) => stub.keepReconcilerCursor(cursor),
    keep: (entries) => stub.keepRechecks(entries),
    drop: (kind, ids) => stub.dropRechecks(kind, ids),
    rechecks: (kind, limit, after) => stub.rechecks(kind, limit, after),
    counts: () => stub.recheckCounts(),
  }
}

/**
 * The scheduled reconciler: every charge of this service that was never delivered and can no
 * longer be is refunded, once. It reads the consistent list of PaymentIntents created within the
 * look-back, keeps this realm's succeeded ones, and asks each one's ledger record for its verdict
 * (orphans.ts); the ledger refunds under an idempotency key and records the refund, so a buyer who
 * presents the credential afterwards is told it was refunded, with the refund id.
 */
import type { Ledger, PaymentConfig } from './charge.js'
import type { OrphanOutcome } from './orphans.js'
import { walkPaymentIntents } from './processor.js'
import { RECONCILE_LOOKBACK_MS } from './retention.js'

/** Pages one run reads (100 intents each); the next run starts over, so nothing is skipped for good. */
const MAX_PAGES = 200

export type ReconcileReport = Record<OrphanOutcome, number> & { examined: number; listComplete: boolean }

export async function refundOrphans(
  config: PaymentConfig,
  ledger: Ledger,
  now: number,
): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    examined: 0,
    'refunded-now': 0,
    'refunded-before': 0,
    'refund-pending': 0,
    delivered: 0,
    deliverable: 0,
    listComplete: false,
  }
  const since = Math.floor((now - RECONCILE_LOOKBACK_MS) / 1000)
  const walk = await walkPaymentIntents(config.processor, since, MAX_PAGES, async (intent) => {
    const challengeId = intent.metadata?.challenge_id
    if (intent.status !== 'succeeded' || intent.metadata?.realm !== config.realm || !challengeId) return false
    report.examined++
    report[await ledger.refundIfOrphaned(challengeId, intent.id, now, config.processor)]++
    return false
  })
  report.listComplete = walk.end === 'complete'
  return report
}

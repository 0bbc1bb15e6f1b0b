/**
 * The scheduled reconciler's processor calls per run as the account's other traffic grows: the
 * same band of intents old enough to be orphans (another product's, and unclaimed charges of this
 * service that it must refund), with 1,000 and then 100,000 other intents on the account
 * outside the band (half made since the band, half older than the look-back). Calls are counted at
 * the processor stand-in, not timed: a run's cost must follow its band, not the account.
 */
import { Challenge } from 'mppx'

const HOUR_S = 60 * 60
const DAY_MS = 24 * HOUR_S * 1000
/** The band's intents: another product's, and this service's unclaimed charges (each refunded). */
export const BAND_OTHER = 500
export const BAND_ORPHANS = 20
export const OTHER_INTENTS = [1_000, 100_000] as const

export interface ReconcilerCostRow {
  otherIntents: number
  calls: number
  refunds: number
}

interface Ledger {
  apiCalls: number
  refunds: Record<string, string[]>
}

export async function reconcilerCost(base: string, processorUrl: string): Promise<ReconcilerCostRow[]> {
  const ledger = async () => (await (await fetch(`${processorUrl}/__standin/ledger`)).json()) as Ledger
  const seed = async (count: number, gte: number, lte: number, realm: string) => {
    const r = await fetch(
      `${processorUrl}/__standin/seed?count=${count}&created_gte=${gte}&created_lte=${lte}&realm=${encodeURIComponent(realm)}`,
      { method: 'POST' },
    )
    if (r.status !== 200) throw new Error(`seeding answered ${r.status}`)
  }
  const realm = Challenge.fromResponse(await fetch(`${base}/v1/fde-lessons`)).realm
  const rows: ReconcilerCostRow[] = []
  // Each case on its own clock, days apart, so no case's intents fall into another's look-back.
  for (const [i, otherIntents] of OTHER_INTENTS.entries()) {
    const now = Date.now() + (10 + 10 * i) * DAY_MS
    const nowS = Math.floor(now / 1000)
    // The band: made 30 to 40 hours before this run.
    await seed(BAND_OTHER, nowS - 40 * HOUR_S, nowS - 30 * HOUR_S, 'other-product.example')
    await seed(BAND_ORPHANS, nowS - 40 * HOUR_S, nowS - 30 * HOUR_S, realm)
    // Outside it: the day since (too young to be orphans) and the day before the look-back.
    await seed(otherIntents / 2, nowS - 23 * HOUR_S, nowS, 'other-product.example')
    await seed(otherIntents / 2, nowS - 72 * HOUR_S, nowS - 49 * HOUR_S, 'other-product.example')
    const before = await ledger()
    const fired = await fetch(`${base}/cdn-cgi/local/scheduled?time=${now}`)
    if (fired.status !== 200) throw new Error(`the Cron Trigger answered ${fired.status}`)
    await fired.text()
    const after = await ledger()
    rows.push({
      otherIntents,
      calls: after.apiCalls - before.apiCalls,
      refunds: Object.keys(after.refunds).length - Object.keys(before.refunds).length,
    })
  }
  return rows
}

/**
 * The scheduled reconciler's reading plan, against the processor stand-in in this process and a
 * scripted ledger: it reads only its band, resumes where the last run stopped, looks again at what
 * was not final, and starts afresh when the clock went back. Its verdicts are the ledger's
 * (orphans.ts, money-back.test.ts); here only which intents reach the ledger, and how often.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orphanBand } from '../../gateway/payment/stripe/creation-window.js'
import type { OrphanOutcome } from '../../gateway/payment/stripe/orphans.js'
import {
  type CursorStore,
  MAX_PAGES,
  type OrphanLedger,
  type Recheck,
  type ReconcileCursor,
  type ReconcilerConfig,
  reconcilerMetric,
  refundOrphans,
} from '../../gateway/payment/stripe/reconciler.js'
import { STANDIN_SECRET } from '../../schema/config.js'
import { type ProcessorStandin, startProcessorStandin } from '../../scripts/local/processor-standin.js'

const REALM = 'rules.example'
const TTL_MS = 5 * 60_000
const HOUR_S = 3600
const MINUTE_MS = 60_000

let standin: ProcessorStandin
beforeAll(async () => {
  standin = await startProcessorStandin()
})
afterAll(() => standin.close())

const config = (): ReconcilerConfig => ({
  realm: REALM,
  challengeTtlMs: TTL_MS,
  processor: { url: standin.url, secret: STANDIN_SECRET, timeoutMs: 5000 },
})

/** A ledger that records which intents it was asked about and answers from a script. */
function scriptedLedger(answer: (intentId: string, asked: number) => OrphanOutcome = () => 'refunded-now') {
  const asked = new Map<string, number>()
  const ledger: OrphanLedger = {
    refundIfOrphaned: async (_challengeId, intentId) => {
      const n = (asked.get(intentId) ?? 0) + 1
      asked.set(intentId, n)
      return answer(intentId, n)
    },
  }
  return { ledger, asked }
}

/** A cursor store in memory: the cursor, and each entry kept for another look under its own key. */
function memoryStore(): CursorStore & {
  cursor?: ReconcileCursor
  kept: Map<string, Recheck>
  failKeeps: number
} {
  const kept = new Map<string, Recheck>()
  const store: CursorStore & { cursor?: ReconcileCursor; kept: Map<string, Recheck>; failKeeps: number } = {
    kept,
    failKeeps: 0,
    load: async () => (store.cursor ? structuredClone(store.cursor) : undefined),
    save: async (cursor) => {
      store.cursor = structuredClone(cursor)
    },
    keep: async (entries) => {
      if (store.failKeeps > 0) {
        store.failKeeps--
        throw new Error('storage refused the write')
      }
      for (const e of entries) kept.set(`${e.kind}:${e.intentId}`, structuredClone(e))
    },
    drop: async (kind, ids) => {
      for (const id of ids) kept.delete(`${kind}:${id}`)
    },
    rechecks: async (kind, limit, after) =>
      [...kept.values()]
        .filter((e) => e.kind === kind && (after === undefined || e.intentId > after))
        .sort((a, b) => (a.intentId < b.intentId ? -1 : 1))
        .slice(0, limit)
        .map((e) => structuredClone(e)),
    counts: async () => {
      const counts = { refund: 0, unfinished: 0 }
      for (const e of kept.values()) counts[e.kind]++
      return counts
    },
  }
  return store
}

async function seed(
  count: number,
  gte: number,
  lte: number,
  realm: string,
  status = 'succeeded',
): Promise<{ first: string; last: string }> {
  const r = await fetch(
    `${standin.url}/__standin/seed?count=${count}&created_gte=${gte}&created_lte=${lte}&realm=${realm}&status=${status}`,
    { method: 'POST' },
  )
  expect(r.status).toBe(200)
  return (await r.json()) as { first: string; last: string }
}

/** Each case on its own clock, weeks apart, so no case's intents reach into another's look-back. */
let clock = Date.parse('2027-01-01T00:00:00Z')
const nextCase = () => {
  clock += 30 * 24 * HOUR_S * 1000
  return clock
}

describe('the reconciler reads its band, and only its band', () => {
  it("behavior: a run's processor calls do not grow with the intents outside the band", async () => {
    const pagesWith = async (outside: number) => {
      const now = nextCase()
      const s = Math.floor(now / 1000)
      await seed(250, s - 40 * HOUR_S, s - 30 * HOUR_S, 'other.example')
      await seed(5, s - 40 * HOUR_S, s - 30 * HOUR_S, REALM)
      await seed(outside, s - 23 * HOUR_S, s, 'other.example')
      const before = standin.ledger.apiCalls
      const { ledger, asked } = scriptedLedger()
      const report = await refundOrphans(config(), ledger, memoryStore(), now)
      expect(report.bandComplete).toBe(true)
      expect(asked.size).toBe(5)
      return standin.ledger.apiCalls - before
    }
    expect(await pagesWith(30_000)).toBe(await pagesWith(300))
  })

  it('behavior: a band larger than one run is finished by the next runs, from where the last stopped, each intent judged once', async () => {
    const now = nextCase()
    const band = orphanBand(now, TTL_MS)
    // Hours inside the look-back, so still inside it when the next run comes.
    const mine = await seed(3, band.gte + 2 * HOUR_S, band.gte + 2 * HOUR_S + 10, REALM)
    // Newer intents in the band than one run reads: this service's are the oldest, read last.
    await seed(MAX_PAGES * 100 + 50, band.gte + 3 * HOUR_S, band.lte, 'other.example')
    const { ledger, asked } = scriptedLedger()
    const store = memoryStore()
    const first = await refundOrphans(config(), ledger, store, now)
    expect(first.bandComplete).toBe(false)
    expect(first.behindRuns).toBe(1)
    expect(first.pages).toBe(MAX_PAGES)
    expect(asked.size).toBe(0)
    const second = await refundOrphans(config(), ledger, store, now + 15 * MINUTE_MS)
    expect(second.bandComplete).toBe(true)
    expect(second.behindRuns).toBe(0)
    expect(second.pages).toBeLessThan(MAX_PAGES)
    expect([...asked.keys()]).toContain(mine.first)
    expect([...asked.values()].every((n) => n === 1)).toBe(true)
    expect(asked.size).toBe(3)
    // The next run reads only what aged into the band since, not the band again.
    const third = await refundOrphans(config(), ledger, store, now + 30 * MINUTE_MS)
    expect(third.bandComplete).toBe(true)
    expect([...asked.values()].every((n) => n === 1)).toBe(true)
  })

  it('behavior: a refund left unanswered is tried again on the next run, though the band has moved on', async () => {
    const now = nextCase()
    const band = orphanBand(now, TTL_MS)
    const { first: intent } = await seed(1, band.lte - 60, band.lte - 60, REALM)
    const { ledger, asked } = scriptedLedger((_id, n) => (n === 1 ? 'refund-pending' : 'refunded-now'))
    const store = memoryStore()
    const first = await refundOrphans(config(), ledger, store, now)
    expect(first['refund-pending']).toBe(1)
    expect(first.refundsOwed).toBe(1)
    const second = await refundOrphans(config(), ledger, store, now + 15 * MINUTE_MS)
    expect(second['refunded-now']).toBe(1)
    expect(second.refundsOwed).toBe(0)
    expect(asked.get(intent)).toBe(2)
  })

  it('behavior: a payment still processing when the band passes it is judged once it succeeds', async () => {
    const now = nextCase()
    const band = orphanBand(now, TTL_MS)
    const { first: intent } = await seed(1, band.lte - 60, band.lte - 60, REALM, 'processing')
    const { ledger, asked } = scriptedLedger()
    const store = memoryStore()
    const first = await refundOrphans(config(), ledger, store, now)
    expect(asked.has(intent)).toBe(false)
    expect(first.unfinished).toBe(1)
    await fetch(`${standin.url}/__standin/complete/${intent}`, { method: 'POST' })
    await refundOrphans(config(), ledger, store, now + 15 * MINUTE_MS)
    expect(asked.get(intent)).toBe(1)
  })

  it('behavior: when the clock goes back past where the cursor stands, the band is read afresh', async () => {
    const now = nextCase()
    const band = orphanBand(now, TTL_MS)
    const { first: intent } = await seed(1, band.lte - 60, band.lte - 60, REALM)
    const { ledger, asked } = scriptedLedger()
    const store = memoryStore()
    store.cursor = { coveredThrough: band.lte + 10 * 24 * HOUR_S, behindRuns: 0 }
    const report = await refundOrphans(config(), ledger, store, now)
    expect(report.bandComplete).toBe(true)
    expect(asked.get(intent)).toBe(1)
  })
})

/** A run's report with nothing to say: its band read, nothing owed, nothing waiting. */
const quietRun = () => ({
  examined: 0,
  'refunded-now': 0,
  'refunded-before': 0,
  'refund-pending': 0,
  delivered: 0,
  deliverable: 0,
  band: { gte: 0, lte: 0 },
  bandComplete: true,
  behindRuns: 0,
  pages: 1,
  rechecked: 0,
  refundsOwed: 0,
  unfinished: 0,
  backlog: 0,
})

describe('nothing owed is ever dropped (#36 M2)', () => {
  it('behavior: 1,000 unfinished intents of this realm never displace a refund owed: a refund that failed once is made on a later run', async () => {
    const now = nextCase()
    const band = orphanBand(now, TTL_MS)
    // One client's allowed unfinished intents, old enough for the band of the first run.
    await seed(1000, band.lte - 600, band.lte - 300, REALM, 'processing')
    // A charge never delivered, which reaches the band at the second run; its first refund call fails.
    const { first: orphan } = await seed(1, band.lte + 60, band.lte + 60, REALM)
    const { ledger, asked } = scriptedLedger((id, n) =>
      id === orphan && n === 1 ? 'refund-pending' : 'refunded-now',
    )
    const store = memoryStore()
    const first = await refundOrphans(config(), ledger, store, now)
    const second = await refundOrphans(config(), ledger, store, now + 15 * MINUTE_MS)
    expect(second['refund-pending']).toBe(1)
    const third = await refundOrphans(config(), ledger, store, now + 30 * MINUTE_MS)
    expect(third['refunded-now']).toBe(1)
    expect(asked.get(orphan)).toBe(2)
    // Counted while owed, in the report the metric is made of, and no longer once made.
    expect(first.unfinished).toBe(1000)
    expect(second.refundsOwed).toBe(1)
    expect(third.refundsOwed).toBe(0)
    // The unfinished intents are all still kept: nothing was dropped to make room.
    expect(third.unfinished).toBe(1000)
  })

  it('error: the cursor never passes an entry it could not keep', async () => {
    const now = nextCase()
    const band = orphanBand(now, TTL_MS)
    const { first: orphan } = await seed(1, band.lte - 60, band.lte - 60, REALM)
    const { ledger, asked } = scriptedLedger((_id, n) => (n <= 2 ? 'refund-pending' : 'refunded-now'))
    const store = memoryStore()
    store.failKeeps = 1
    const first = await refundOrphans(config(), ledger, store, now)
    expect(first.failure).toMatch(/keep/)
    expect(first.bandComplete).toBe(false)
    // The next run reads the page again (the cursor stayed before it), keeps the entry, and the one after refunds.
    await refundOrphans(config(), ledger, store, now + 15 * MINUTE_MS)
    expect(store.kept.has(`refund:${orphan}`)).toBe(true)
    const third = await refundOrphans(config(), ledger, store, now + 30 * MINUTE_MS)
    expect(third['refunded-now']).toBe(1)
    expect(asked.get(orphan)).toBe(3)
  })

  it('behavior: refunds owed are kept past the look-back until they are made', async () => {
    const now = nextCase()
    const band = orphanBand(now, TTL_MS)
    const { first: orphan } = await seed(1, band.gte + 60, band.gte + 60, REALM)
    const { ledger, asked } = scriptedLedger((_id, n) => (n === 1 ? 'refund-pending' : 'refunded-now'))
    const store = memoryStore()
    await refundOrphans(config(), ledger, store, now)
    // A day later the intent is past the look-back; the refund it is owed is still made.
    const later = await refundOrphans(config(), ledger, store, now + 24 * HOUR_S * 1000)
    expect(later['refunded-now']).toBe(1)
    expect(asked.get(orphan)).toBe(2)
  })

  it('behavior: a backlog of unfinished intents, or any refund owed, is in the metric an operator alerts on', () => {
    const base = quietRun()
    expect(reconcilerMetric(base).blobs[0]).toBe('complete')
    expect(reconcilerMetric({ ...base, bandComplete: false, behindRuns: 1 }).blobs[0]).toBe('behind')
    expect(reconcilerMetric({ ...base, backlog: 3 }).blobs[0]).toBe('backlog')
    expect(reconcilerMetric({ ...base, refundsOwed: 1 }).blobs[0]).toBe('refunds-owed')
    expect(reconcilerMetric({ ...base, refundsOwed: 1, backlog: 3 }).doubles).toEqual(
      expect.arrayContaining([1, 3]),
    )
  })

  it('behavior: the account at its bound of unfinished intents (new claims refused) is in the metric (#36 L1)', () => {
    const base = { ...quietRun(), backlog: 2 }
    const below = reconcilerMetric(base, { unfinished: 999, limit: 1000 })
    expect(below.blobs[0]).toBe('backlog')
    expect(below.doubles.at(-1)).toBe(999)
    const at = reconcilerMetric(base, { unfinished: 1000, limit: 1000 })
    expect(at.blobs[0]).toBe('account-bound')
    expect(at.doubles.at(-1)).toBe(1000)
    // A band not read, or a refund owed, stays the worse news.
    expect(reconcilerMetric({ ...base, refundsOwed: 1 }, { unfinished: 1000, limit: 1000 }).blobs[0]).toBe(
      'refunds-owed',
    )
  })
})

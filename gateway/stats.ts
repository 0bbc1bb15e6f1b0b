/**
 * Usage counters, collected per isolate and sent in batches to the submissions Worker.
 * Directional only: the client class is whatever the User-Agent says.
 */

import type { Outcome } from '../schema/routes.js'
import type { Env } from './env.js'
import { HitBatch } from './hit-batch.js'

/** How long hits wait in an isolate before one batch carries them to the submissions Worker. */
const HIT_FLUSH_MS = 5_000
/** A batch leaves at once when it holds this many hits, so a busy isolate loses at most this many. */
const HIT_FLUSH_COUNT = 1_000

/** This isolate's unsent hits, by endpoint, outcome and client class. */
const batch = new HitBatch()
let flushScheduled = false

/**
 * Counts one hit in memory: no storage write and no subrequest per request. The first hit of a
 * batch schedules its flush after HIT_FLUSH_MS (kept alive by waitUntil, so hits arrive also when
 * traffic stops); a full batch leaves at once. An isolate evicted before its flush loses the hits
 * of at most one interval (or HIT_FLUSH_COUNT), the bound gateway/submissions/README.md and the stats note state.
 */
export function countHit(
  ctx: ExecutionContext,
  env: Env,
  req: Request,
  endpoint: string,
  outcome: Outcome,
  /** Technologies the call named that no trap covers (counted for answered calls only). */
  uncovered: readonly string[] = [],
): void {
  batch.add(endpoint, outcome, req.headers.get('user-agent'))
  // A buyer asks twice (the challenge, then the paid call): its names are counted once, when answered.
  if (outcome === 'free' || outcome === 'paid') batch.addUncovered(uncovered)
  if (batch.total >= HIT_FLUSH_COUNT) ctx.waitUntil(flush(env))
  else if (!flushScheduled) {
    flushScheduled = true
    ctx.waitUntil(
      new Promise((r) => setTimeout(r, HIT_FLUSH_MS)).then(() => {
        flushScheduled = false
        return flush(env)
      }),
    )
  }
}

/** Sends every unsent hit in one batch. A full batch leaves early; the pending timer stays, for later hits. */
async function flush(env: Env): Promise<void> {
  const hits = batch.take()
  const uncovered = batch.takeUncovered()
  if (!hits.length) return
  const body = JSON.stringify({ hits, ...(uncovered.length ? { uncovered } : {}) })
  // Counters are best effort: a lost batch is acceptable, a failed request is not.
  await env.SUBMISSIONS.fetch('https://submissions/internal/hits', { method: 'POST', body }).then(
    (r) => r.body?.cancel(),
    () => undefined,
  )
}

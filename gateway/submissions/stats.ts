/**
 * GET /v1/stats: the usage counters and the submission total. Counts only: no row, client address or
 * per-submission data is ever part of it.
 */

import { OUTCOMES } from '../../schema/routes.js'
import { jsonResponse } from '../http/json.js'
import { countSubmissions } from './aggregate.js'
import type { Env } from './env.js'

export const STATS_NOTE =
  'Directional traffic and paywall counters: eventually consistent (each gateway isolate sends its hits in one batch every few seconds, so they show within a minute; a batch that is lost, or an isolate evicted before it sends, loses at most the last few seconds of hits of that isolate, and nothing is retried), with a client class self-reported through the User-Agent. Not an accounting record: the payment processor is the ledger for revenue.'

/** How many uncovered technology names the stats list (the most asked). */
export const UNCOVERED_LISTED = 100

type ByOutcome = Record<(typeof OUTCOMES)[number], number>

const zeroOutcomes = (): ByOutcome => Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as ByOutcome

export async function stats(request: Request, env: Env): Promise<Response> {
  const [byEndpoint, byClient, since, uncovered] = await env.DB.batch([
    env.DB.prepare(
      'SELECT endpoint, outcome, SUM(n) AS n FROM hits GROUP BY endpoint, outcome ORDER BY endpoint',
    ),
    env.DB.prepare('SELECT client, SUM(n) AS n FROM hits GROUP BY client ORDER BY n DESC, client'),
    env.DB.prepare('SELECT MIN(first_on) AS since FROM hits'),
    env.DB.prepare(
      `SELECT name, n FROM uncovered_technologies ORDER BY n DESC, name LIMIT ${UNCOVERED_LISTED}`,
    ),
  ])
  const totals = { requests: 0, by_outcome: zeroOutcomes() }
  const by_endpoint: Record<string, { requests: number; by_outcome: ByOutcome }> = {}
  for (const row of (byEndpoint?.results ?? []) as { endpoint: string; outcome: string; n: number }[]) {
    const entry = by_endpoint[row.endpoint] ?? { requests: 0, by_outcome: zeroOutcomes() }
    by_endpoint[row.endpoint] = entry
    entry.requests += row.n
    totals.requests += row.n
    if (row.outcome in entry.by_outcome) {
      entry.by_outcome[row.outcome as keyof ByOutcome] += row.n
      totals.by_outcome[row.outcome as keyof ByOutcome] += row.n
    }
  }
  const by_client: Record<string, number> = {}
  for (const row of (byClient?.results ?? []) as { client: string; n: number }[])
    by_client[row.client] = row.n
  const body = {
    note: STATS_NOTE,
    counting_since: ((since?.results[0] as { since: string | null } | undefined)?.since ?? null) as
      | string
      | null,
    totals,
    by_endpoint,
    by_client_class: by_client,
    // What agents asked for that the trap layer lacks, most asked first: the editors' next additions.
    technologies_not_covered: Object.fromEntries(
      ((uncovered?.results ?? []) as { name: string; n: number }[]).map((r) => [r.name, r.n]),
    ),
    submissions: { accepted: await countSubmissions(env.DB) },
    outcome_meanings: {
      free: 'answered without payment',
      challenged: 'answered 402 with a payment challenge',
      paid: 'answered after a verified payment',
      refused: 'a payment credential was refused',
      rejected: 'the request itself was invalid (4xx)',
      retired: 'a retired endpoint (410)',
    } satisfies Record<keyof ByOutcome, string>,
  }
  return jsonResponse(request, body, { 'cache-control': 'no-store' })
}

/**
 * POST /internal/hits: a batch of usage counter hits from the gateway, which collects them per
 * isolate and sends them every few seconds (gateway/stats.ts), never one write per request. One
 * D1 batch of upserts with `n = n + ?`, so concurrent batches all count. Answers 204; a malformed
 * batch is a 400 (a gateway bug, not a client's), never a 500.
 */
import * as z from 'zod'
import { OUTCOMES } from '../../schema/routes.js'
import { hungUp } from '../http/hang-up.js'
import { badRequest, problemResponse } from '../http/problem.js'
import { readBody } from '../http/read-body.js'
import { today } from './aggregate.js'
import type { Env } from './env.js'

/** Distinct (endpoint, outcome, client) keys in one batch: far more than the gateway has. */
export const MAX_HITS_PER_BATCH = 512

export const HitBatch = z.strictObject({
  hits: z
    .array(
      z.strictObject({
        endpoint: z.string().regex(/^[\w.:/-]{1,64}$/),
        outcome: z.enum(OUTCOMES),
        client: z.string().regex(/^[\w.-]{1,32}$/),
        n: z.int().min(1).max(1_000_000),
      }),
    )
    .min(1)
    .max(MAX_HITS_PER_BATCH),
  /** Technologies asked for that no trap covers, with how often (gateway/hit-batch.ts). */
  uncovered: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[a-z0-9][a-z0-9._+-]{0,39}$/),
        n: z.int().min(1).max(1_000_000),
      }),
    )
    .max(MAX_HITS_PER_BATCH)
    .optional(),
})

const MAX_BATCH_BYTES = 2 * 128 * MAX_HITS_PER_BATCH

export const COUNT_UNCOVERED_SQL = `INSERT INTO uncovered_technologies (name, n, first_on) VALUES (?1, ?2, ?3)
  ON CONFLICT (name) DO UPDATE SET n = n + excluded.n`

export const COUNT_HITS_SQL = `INSERT INTO hits (endpoint, outcome, client, n, first_on) VALUES (?1, ?2, ?3, ?4, ?5)
  ON CONFLICT (endpoint, outcome, client) DO UPDATE SET n = n + excluded.n`

export async function recordHits(request: Request, env: Env): Promise<Response> {
  const body = await readBody(request, MAX_BATCH_BYTES)
  if (!body.ok && body.reason === 'hung-up') return hungUp(new URL(request.url).pathname)
  if (!body.ok) return problemResponse(badRequest(`a batch of hits is at most ${MAX_BATCH_BYTES} bytes`))
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder().decode(body.bytes))
  } catch {
    return problemResponse(badRequest('the body is not valid JSON'))
  }
  const batch = HitBatch.safeParse(json)
  if (!batch.success) {
    const fields = [...new Set(batch.error.issues.map((i) => i.path.join('.') || '(body)'))]
    return problemResponse(badRequest(`invalid hits: ${fields.join(', ')}`, { allowed_outcomes: OUTCOMES }))
  }
  const on = today()
  const upsert = env.DB.prepare(COUNT_HITS_SQL)
  const named = env.DB.prepare(COUNT_UNCOVERED_SQL)
  await env.DB.batch([
    ...batch.data.hits.map((h) => upsert.bind(h.endpoint, h.outcome, h.client, h.n, on)),
    ...(batch.data.uncovered ?? []).map((u) => named.bind(u.name, u.n, on)),
  ])
  return new Response(null, { status: 204 })
}

/**
 * POST /internal/hits: one usage counter hit from the gateway, sent after its response (waitUntil).
 * An upsert with `n = n + 1`, so concurrent hits all count. Answers 204; a malformed hit is a 400
 * (a gateway bug, not a client's), never a 500.
 */
import { z } from 'zod'
import { OUTCOMES } from '../../schema/routes.js'
import { badRequest, problemResponse } from '../http/problem.js'
import { today } from './aggregate.js'
import type { Env } from './env.js'
import { readBody } from './read-body.js'

export const Hit = z.strictObject({
  endpoint: z.string().regex(/^[\w.:/-]{1,64}$/),
  outcome: z.enum(OUTCOMES),
  client: z.string().regex(/^[\w.-]{1,32}$/),
})

const MAX_HIT_BYTES = 1024

export const COUNT_HIT_SQL = `INSERT INTO hits (endpoint, outcome, client, n, first_on) VALUES (?1, ?2, ?3, 1, ?4)
  ON CONFLICT (endpoint, outcome, client) DO UPDATE SET n = n + 1`

export async function recordHit(request: Request, env: Env): Promise<Response> {
  const body = await readBody(request, MAX_HIT_BYTES)
  if (!body.ok) return problemResponse(badRequest(`a hit is at most ${MAX_HIT_BYTES} bytes`))
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder().decode(body.bytes))
  } catch {
    return problemResponse(badRequest('the body is not valid JSON'))
  }
  const hit = Hit.safeParse(json)
  if (!hit.success) {
    const fields = [...new Set(hit.error.issues.map((i) => i.path.join('.') || '(body)'))]
    return problemResponse(badRequest(`invalid hit: ${fields.join(', ')}`, { allowed_outcomes: OUTCOMES }))
  }
  await env.DB.prepare(COUNT_HIT_SQL)
    .bind(hit.data.endpoint, hit.data.outcome, hit.data.client, today())
    .run()
  return new Response(null, { status: 204 })
}

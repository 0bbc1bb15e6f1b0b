/**
 * The paths this Worker answers. Public ones arrive forwarded unchanged by the gateway; /internal/*
 * come only from the gateway's own calls (this Worker has no route or workers.dev address).
 */
import { jsonResponse } from '../http/json.js'
import { notFound, problem, problemResponse } from '../http/problem.js'
import { readPublishedContributions } from './aggregate.js'
import type { Env } from './env.js'
import { recordHits } from './hits.js'
import { stats } from './stats.js'
import { submit } from './submit.js'

type Handler = (request: Request, env: Env) => Promise<Response>

/** Daily when deployed; a config value so `npm start` and the tests see new rows within seconds. */
const snapshotMs = (env: Env) => 1000 * Number(env.AGGREGATE_SNAPSHOT_SECONDS ?? 86_400)

const aggregates: Handler = async (request, env) =>
  jsonResponse(request, await readPublishedContributions(env.DB, snapshotMs(env)), {
    'cache-control': 'public, max-age=60',
  })

const contributions: Handler = async (request, env) =>
  jsonResponse(request, await readPublishedContributions(env.DB, snapshotMs(env)), {
    'cache-control': 'no-store',
  })

export const ROUTES: Record<string, { GET?: Handler; POST?: Handler }> = {
  '/v1/pricing/submit': { POST: submit },
  '/v1/pricing/aggregates': { GET: aggregates },
  '/v1/stats': { GET: stats },
  '/internal/contributions': { GET: contributions },
  '/internal/hits': { POST: recordHits },
}

/** The handler for a request, or the 404/405 problem. HEAD is served as GET (the body is dropped later). */
export function route(request: Request): Handler | Response {
  const path = new URL(request.url).pathname
  const methods = ROUTES[path]
  if (!methods) return problemResponse(notFound(`no such path: ${path}`))
  const method = request.method === 'HEAD' ? 'GET' : request.method
  const handler = method === 'GET' || method === 'POST' ? methods[method] : undefined
  if (handler) return handler
  const allow = (Object.keys(methods) as ('GET' | 'POST')[])
    .flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]))
    .join(', ')
  return problemResponse(
    problem(405, 'method-not-allowed', 'Method Not Allowed', `${request.method} is not allowed on ${path}`, {
      allowed: allow,
    }),
    { allow },
  )
}

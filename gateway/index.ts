/**
 * The gateway Worker: every route of schema/routes.ts, the 402 payment gate, MCP at POST /mcp,
 * the retired feed's 410s; the submissions Worker answers submit, aggregates and stats.
 */

import { type IRequest, Router } from 'itty-router'
import { CHALLENGE_TTL_MS } from '../schema/config.js'
import { MARKDOWN_CONTENT_TYPE } from '../schema/markdown.js'
import type { Outcome } from '../schema/routes.js'
import { ROUTES, type Route } from '../schema/routes.js'
import { paymentConfig } from './config.js'
import { PREPARE, prepare, retryAfter } from './datasets/prepare.js'
import { checkParams } from './datasets/query.js'
import type { Env } from './env.js'
import { prefersMarkdown } from './http/accept.js'
import { preflight, withCors } from './http/cors.js'
import { hungUp, isHangUp } from './http/hang-up.js'
import { jsonResponse, serializedResponse, serializeOnce } from './http/json.js'
import { privateIfPaymentAuthorization } from './http/private-cache.js'
import { notFound, problem, problemResponse } from './http/problem.js'
import { handleMcp } from './mcp/handler.js'
import { accountBacklog } from './payment/attempts.js'
import { normaliseQuery } from './payment/binding.js'
import { WALLET_OWED_PATH, walletOwedRoute } from './payment/evm/owed-route.js'
import { x402Declarations } from './payment/evm/x402-discovery.js'
import { x402Manifest } from './payment/evm/x402-manifest.js'
import { echoedExpires, ledgerOf, PAID_CACHE_CONTROL, requirePayment } from './payment/http.js'
import { receiptHeader } from './payment/receipt.js'
import { defaultsClock } from './payment/request-clock.js'
import { keySet, signedReceipt } from './payment/signed-receipt.js'
import { reconcilerMetric, refundOrphans } from './payment/stripe/reconciler.js'
import { cursorStoreOf } from './payment/stripe/reconciler-store.js'
import { pricingIndex } from './pricing-index.js'
import { retiredFeed } from './retired.js'
import { countHit } from './stats.js'

export { AttemptLimiter } from './payment/attempt-limiter.js'
export { PaymentLedger } from './payment/ledger.js'

type Handler = (req: IRequest, env: Env, ctx: ExecutionContext) => Promise<Response> | Response

/**
 * `Accept: text/markdown` on a route that renders Markdown, with no `format` named, asks for
 * `format=agents-md`; it then binds into the payment like the parameter would.
 */
function withAcceptedFormat(route: Route, req: IRequest, entries: [string, string][]): [string, string][] {
  const rendersMarkdown = route.params.some((p) => p.name === 'format')
  const wantsMarkdown = prefersMarkdown(req.headers.get('accept'))
  if (!rendersMarkdown || !wantsMarkdown || entries.some(([name]) => name === 'format')) return entries
  return [...entries, ['format', 'agents-md']]
}

/** Free and paid data routes: filters checked first, then (paid) the payment gate. */
function dataRoute(route: Route): Handler {
  return async (req, env, ctx) => {
    const url = new URL(req.url)
    const checked = checkParams(route, withAcceptedFormat(route, req, [...url.searchParams]))
    if ('status' in checked) return done(ctx, env, req, route, 'rejected', problemResponse(checked))
    // A clock-dependent default resolves against the challenge a credential answers (request-clock.ts).
    const clock = defaultsClock(echoedExpires(req), CHALLENGE_TTL_MS, Date.now())
    const prepared = await prepare(env.ASSETS, route.name, checked.filters, clock)
    if (!prepared) throw new Error(`no data for route ${route.name}`)
    if (!prepared.ok)
      return done(
        ctx,
        env,
        req,
        route,
        'rejected',
        problemResponse(prepared.problem, retryAfter(prepared.problem)),
      )
    const query = normaliseQuery(prepared.filters)
    const payload = () =>
      prepared.markdown
        ? serializeOnce(`${route.name}?${query}`, prepared.markdown, MARKDOWN_CONTENT_TYPE)
        : serializeOnce(`${route.name}?${query}`, prepared.payload)
    const uncovered = prepared.uncovered ?? []
    if (route.access === 'free') {
      const response = serializedResponse(req, await payload(), { 'cache-control': 'public, max-age=300' })
      return done(ctx, env, req, route, 'free', response, uncovered)
    }
    const config = paymentConfig(env)
    if (!config.ok) return notConfigured(config.problems)
    const binding = { via: 'http' as const, target: `GET ${route.path}`, query }
    const gate = await requirePayment(req, env, config.config, binding, route.summary)
    if (!gate.paid) return done(ctx, env, req, route, gate.outcome, gate.response)
    // A repeat under the Idempotency-Key of an answered request: the same bytes, digest and receipt.
    const kept = gate.repeat?.answer
    if (kept)
      return done(ctx, env, req, route, 'paid', new Response(kept.body, { headers: kept.headers }), uncovered)
    const serialized = await payload()
    const signed = await signedReceipt(
      config.config.receipts,
      gate.receipt,
      `GET ${route.path}${query ? `?${query}` : ''}`,
      serialized.body,
    )
    const response = serializedResponse(null, serialized, {
      'cache-control': PAID_CACHE_CONTROL,
      'content-digest': signed.digest,
      'payment-receipt': receiptHeader(signed.receipt),
      ...gate.headers,
    })
    // Kept for a re-send after the answer is on its way, not before it (a third round trip): a
    // copy or re-send that reaches the ledger first waits for it (ledger.ts answerSettled).
    if (gate.idempotencyKey !== undefined)
      ctx.waitUntil(
        ledgerOf(env).keepAnswer(gate.receipt.challengeId, gate.idempotencyKey, {
          body: serialized.body,
          headers: Object.fromEntries(response.headers),
        }),
      )
    return done(ctx, env, req, route, 'paid', response, uncovered)
  }
}

function notConfigured(problems: string[]) {
  return problemResponse(
    problem(503, 'not-configured', 'Payments Not Configured', 'this gateway cannot take payments yet', {
      problems,
      // The operator must act first: asking again will not help.
      retryable: false,
    }),
  )
}

function done(
  ctx: ExecutionContext,
  env: Env,
  req: Request,
  route: Route,
  outcome: Outcome,
  response: Response,
  uncovered: readonly string[] = [],
) {
  countHit(ctx, env, req, route.name, outcome, uncovered)
  return response
}

const staticFile: Handler = (req, env) => env.ASSETS.fetch(new Request(req.url, { headers: req.headers }))
function forwardToSubmissions(route: Route): Handler {
  return async (req, env, ctx) => {
    const response = await env.SUBMISSIONS.fetch(req as unknown as Request)
    return done(ctx, env, req, route, response.ok ? 'free' : 'rejected', response)
  }
}

function handlerFor(route: Route): Handler {
  if (route.access === 'retired')
    return (req, env, ctx) => done(ctx, env, req, route, 'retired', retiredFeed(env))
  if (route.name in PREPARE) return dataRoute(route)
  switch (route.name) {
    case 'index':
      return async (req, env, ctx) => {
        const index = await pricingIndex(env)
        if ('status' in index)
          return done(ctx, env, req, route, 'rejected', problemResponse(index, retryAfter(index)))
        const response = await jsonResponse(req, index, { 'cache-control': 'public, max-age=60' })
        return done(ctx, env, req, route, 'free', response)
      }
    case 'submit':
    case 'aggregates':
    case 'stats':
      return forwardToSubmissions(route)
    case 'mcp':
      return (req, env, ctx) => handleMcp(req as unknown as Request, env, ctx)
    case 'x402_manifest':
    case 'x402_manifest_json':
      return async (req, env, ctx) => {
        const config = paymentConfig(env)
        const declarations = await x402Declarations(env.ASSETS).catch(() => undefined)
        if (!declarations) {
          const unreadable = problem(
            503,
            'data-unavailable',
            'Data Unavailable',
            'the manifest cannot be read right now; try again shortly',
            { retryable: 'same-credential' },
          )
          return done(ctx, env, req, route, 'rejected', problemResponse(unreadable, retryAfter(unreadable)))
        }
        const manifest = x402Manifest(
          new URL(req.url).origin,
          declarations,
          config.ok ? config.config.evm : undefined,
        )
        const response = await jsonResponse(req, manifest, { 'cache-control': 'public, max-age=300' })
        return done(ctx, env, req, route, 'free', response)
      }
    case 'jwks':
      return async (req, env, ctx) => {
        const config = paymentConfig(env)
        const response = config.ok
          ? await jsonResponse(req, keySet(config.config.receipts), {
              'cache-control': 'public, max-age=300',
            })
          : notConfigured(config.problems)
        return done(ctx, env, req, route, config.ok ? 'free' : 'rejected', response)
      }
    default:
      return staticFile
  }
}

const router = Router<IRequest, [Env, ExecutionContext]>()
router.options('*', (req: IRequest) => preflight(req as unknown as Request))
for (const route of ROUTES) {
  const handler = handlerFor(route)
  router[route.method === 'GET' ? 'get' : 'post'](route.path, handler)
  if (route.method === 'GET') router.head(route.path, handler)
}
// The operator's list of wallet payments owed back (a secret bearer; otherwise a 404 like any path).
const walletOwed = (req: IRequest, env: Env) => {
  const config = paymentConfig(env)
  if (!config.ok) return notConfigured(config.problems)
  return walletOwedRoute(req as unknown as Request, env, config.config)
}
router.get(WALLET_OWED_PATH, walletOwed)
router.post(WALLET_OWED_PATH, walletOwed)
// Same path, other method: 405 naming the allowed ones.
router.all('*', (req: IRequest) => {
  const path = new URL(req.url).pathname
  const allowed = ROUTES.filter((r) => r.path === path).map((r) => r.method)
  if (!allowed.length) return undefined
  const allow = [...new Set(allowed.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]))), 'OPTIONS'].join(
    ', ',
  )
  return problemResponse(
    problem(405, 'method-not-allowed', 'Method Not Allowed', `${req.method} is not allowed on ${path}`, {
      allowed: allow,
    }),
    { allow },
  )
})
// Anything else is a 404 problem. The asset store has already served every static file before the
// Worker runs (static first), and the Worker never answers with an asset it was not routed to: the
// sealed bundles live among the assets.
router.all('*', (req: IRequest) =>
  problemResponse(notFound(`no such path: ${new URL(req.url).pathname}; see /openapi.json`)),
)

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    let response: Response
    try {
      response = (await router.fetch(request, env, ctx)) as Response
    } catch (error) {
      // A client that hung up while its body was read or forwarded is not a fault of ours.
      if (isHangUp(error)) return hungUp(new URL(request.url).pathname)
      console.error('unhandled', error instanceof Error ? error.message : 'unknown error')
      response = problemResponse(
        problem(500, 'internal', 'Internal Server Error', 'an unexpected error on our side'),
      )
    }
    // HEAD answers like GET without a body.
    if (request.method === 'HEAD') response = new Response(null, response)
    return withCors(request, privateIfPaymentAuthorization(request, response))
  },
  /** The Cron Trigger (wrangler.jsonc): refund every charge that was never delivered and can no longer be. */
  async scheduled(controller: ScheduledController, env: Env): Promise<void> {
    const config = paymentConfig(env)
    if (!config.ok) return
    const report = await refundOrphans(
      config.config,
      ledgerOf(env),
      cursorStoreOf(env.LEDGER),
      controller.scheduledTime,
    )
    // What reaches the reconciler is bounded per account: how near that bound the last hour came.
    const account = await accountBacklog(env.ATTEMPTS, env).catch(() => undefined)
    console.log('reconciler', JSON.stringify({ ...report, account }))
    // The metric an operator alerts on: blob1 other than `complete` (behind, refunds owed, the account at its bound, a backlog).
    env.RECONCILER_METRICS?.writeDataPoint(reconcilerMetric(report, account))
    if (report.bandComplete && (report.refundsOwed > 0 || report.backlog > 0))
      console.error(
        'reconciler-owed',
        JSON.stringify({
          refundsOwed: report.refundsOwed,
          unfinished: report.unfinished,
          backlog: report.backlog,
        }),
      )
    if (!report.bandComplete)
      console.error(
        'reconciler-behind',
        JSON.stringify({
          behindRuns: report.behindRuns,
          band: report.band,
          pages: report.pages,
          failure: report.failure ?? 'more intents in the band than one run reads; the next run resumes',
        }),
      )
  },
} satisfies ExportedHandler<Env>

/**
 * The local payment processor stand-in: the subset of Stripe's PaymentIntents API the gateway
 * uses, with shared-payment-token semantics, so `npm start` and the tests can pay without a
 * network. Development and test only; a deployed gateway refuses it.
 *
 * It behaves as Stripe does where the gateway depends on it:
 * - Idempotency: the first answer under an Idempotency-Key is stored, 5xx included, and replayed
 *   with `Idempotent-Replayed: true`; a second request while the first is still running under the
 *   same key gets 409 `idempotency_key_in_use` (nothing stored, safe to retry).
 * - PaymentIntents can be retrieved by id (consistent), listed newest first with `created` filters
 *   and `starting_after` paging (consistent, as Stripe's list endpoints are), and found by
 *   `metadata['challenge_id']` through search, which lags writes by `searchLagMs` (Stripe: usually
 *   under a minute, up to an hour during outages), so a search miss proves nothing.
 * - An intent can sit in `processing` or `requires_action` and complete later.
 * - Refunds: `POST /v1/refunds` with `payment_intent` (idempotent under its key like every POST; a
 *   second refund of a fully refunded intent is `charge_already_refunded`), `GET /v1/refunds/:id`.
 *
 * Tokens (see README): `spt_test_<anything>` pays once; `…decline…` is declined; `…action…` needs
 * an extra step; `…processing…` is processing; `…timeout…` never answers; `…error…` is an outage
 * (500, nothing charged); `…lost…` charges, then answers 500; `…stall…` is held until released
 * (or `stallMs`), then pays.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

import { STANDIN_SECRET } from '../schema/config.js'

/** How long a stall token is held when nobody releases it (npm start users). */
const DEFAULT_STALL_MS = 30_000

interface StoredAnswer {
  status: number
  body: unknown
  params: string
}

interface Intent {
  id: string
  object: 'payment_intent'
  amount: number
  amount_received: number
  currency: string
  status: string
  /** Seconds since the epoch, as Stripe states it. */
  created: number
  metadata: Record<string, string>
}

interface Refund {
  id: string
  object: 'refund'
  amount: number
  currency: string
  payment_intent: string
  status: 'succeeded'
  metadata: Record<string, string>
}

export interface StandinLedger {
  /** PaymentIntents that succeeded, by token. */
  succeeded: Map<string, string>
  /** Every call received (after idempotent replays are answered). */
  calls: number
  /** Calls answered from the idempotency store. */
  replays: number
  /** Refunds made, by PaymentIntent: every refund id, so a second refund would show. */
  refunds: Map<string, string[]>
}

export interface ProcessorStandin {
  url: string
  ledger: StandinLedger
  close(): Promise<void>
}

export interface StandinOptions {
  port?: number
  host?: string
  /** How long a `spt_test_stall…` request is held before it pays, unless released first. */
  stallMs?: number
  /** How long a new intent stays invisible to search (Stripe's index lag); tests change it at run time. */
  searchLagMs?: number
}

type Answer = { status: number; body: unknown }

export async function startProcessorStandin(options: StandinOptions = {}): Promise<ProcessorStandin> {
  const { port = 0, host = '127.0.0.1', stallMs = DEFAULT_STALL_MS } = options
  let searchLagMs = options.searchLagMs ?? 0
  const ledger: StandinLedger = { succeeded: new Map(), calls: 0, replays: 0, refunds: new Map() }
  const refunds = new Map<string, Refund>()
  /** When each intent was created (ms), for the search lag. */
  const createdAtMs = new Map<string, number>()
  const answers = new Map<string, StoredAnswer>()
  const running = new Set<string>()
  const intents = new Map<string, Intent>()
  /** Stalled requests by token, each waiting for its release. */
  const stalled = new Map<string, () => void>()
  let next = 1
  const held = new Set<ServerResponse>()

  const server: Server = createServer(async (req, res) => {
    try {
      await handle(req, res)
    } catch {
      send(res, 500, { error: { type: 'api_error', message: 'stand-in failure' } })
    }
  })

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://standin')
    if (req.method === 'GET' && url.pathname === '/__standin/ledger')
      return send(res, 200, {
        succeeded: Object.fromEntries(ledger.succeeded),
        calls: ledger.calls,
        replays: ledger.replays,
        stalled: [...stalled.keys()],
        refunds: Object.fromEntries(ledger.refunds),
        searchLagMs,
      })
    // Test control: how far search lags behind writes, e.g. `?search_lag_ms=3600000` for an outage.
    if (req.method === 'POST' && url.pathname === '/__standin/config') {
      const lag = Number(url.searchParams.get('search_lag_ms'))
      if (!Number.isFinite(lag) || lag < 0) return send(res, 400, { error: 'search_lag_ms must be >= 0' })
      searchLagMs = lag
      return send(res, 200, { searchLagMs })
    }
    // Test controls: release a stalled token; complete a processing or requires_action intent.
    const release = /^\/__standin\/release\/(spt_[A-Za-z0-9_]+)$/.exec(url.pathname)
    if (req.method === 'POST' && release) {
      const go = stalled.get(release[1] as string)
      go?.()
      return send(res, go ? 200 : 404, { released: !!go })
    }
    const complete = /^\/__standin\/complete\/(pi_[A-Za-z0-9_]+)$/.exec(url.pathname)
    if (req.method === 'POST' && complete) {
      const pi = intents.get(complete[1] as string)
      if (!pi) return send(res, 404, { completed: false })
      pi.status = 'succeeded'
      pi.amount_received = pi.amount
      return send(res, 200, pi)
    }
    if (req.headers.authorization !== `Bearer ${STANDIN_SECRET}`)
      return send(res, 401, { error: { type: 'invalid_request_error', message: 'invalid API key' } })
    if (req.method === 'GET' && url.pathname === '/v1/payment_intents/search')
      return send(res, 200, search(url.searchParams.get('query') ?? ''))
    if (req.method === 'GET' && url.pathname === '/v1/payment_intents') return list(url.searchParams, res)
    const refund = /^\/v1\/refunds\/(re_[A-Za-z0-9_]+)$/.exec(url.pathname)
    if (req.method === 'GET' && refund) {
      const found = refunds.get(refund[1] as string)
      return found
        ? send(res, 200, found)
        : send(res, 404, invalid('no such refund', 'resource_missing').body)
    }
    const retrieve = /^\/v1\/payment_intents\/(pi_[A-Za-z0-9_]+)$/.exec(url.pathname)
    if (req.method === 'GET' && retrieve) {
      const pi = intents.get(retrieve[1] as string)
      return pi
        ? send(res, 200, pi)
        : send(res, 404, invalid('no such payment_intent', 'resource_missing').body)
    }
    const operation =
      url.pathname === '/v1/payment_intents'
        ? create
        : url.pathname === '/v1/refunds'
          ? createRefund
          : undefined
    if (req.method !== 'POST' || !operation)
      return send(res, 404, { error: { type: 'invalid_request_error', message: 'unrecognised request URL' } })
    const raw = await readBody(req)
    const key = req.headers['idempotency-key']
    if (typeof key !== 'string') return operation(new URLSearchParams(raw), res)
    if (running.has(key))
      return send(res, 409, {
        error: {
          type: 'idempotency_error',
          code: 'idempotency_key_in_use',
          message: 'There is currently another in-progress request using this Idempotent Key.',
        },
      })
    const stored = answers.get(key)
    if (stored) {
      ledger.replays++
      if (stored.params !== raw)
        return send(res, 400, {
          error: { type: 'idempotency_error', message: 'keys reused with other parameters' },
        })
      return send(res, stored.status, stored.body, { 'idempotent-replayed': 'true' })
    }
    running.add(key)
    try {
      const answer = await operation(new URLSearchParams(raw), res)
      if (answer) answers.set(key, { ...answer, params: raw })
    } finally {
      running.delete(key)
    }
  }

  /** Creates and confirms an intent; answers the request unless the token never gets an answer. */
  async function createRefund(params: URLSearchParams, res: ServerResponse): Promise<Answer> {
    const pi = intents.get(params.get('payment_intent') ?? '')
    const answer: Answer = !pi
      ? invalid(`no such payment_intent: '${params.get('payment_intent')}'`, 'resource_missing')
      : pi.status !== 'succeeded'
        ? invalid(`the payment ${pi.id} has no successful charge to refund`, 'charge_not_refundable')
        : ledger.refunds.has(pi.id)
          ? invalid(`the charge of ${pi.id} has already been refunded`, 'charge_already_refunded')
          : { status: 200, body: newRefund(pi, params) }
    send(res, answer.status, answer.body)
    return answer
  }

  function newRefund(pi: Intent, params: URLSearchParams): Refund {
    const metadata = metadataOf(params)
    const refund: Refund = {
      id: `re_standin_${String(next++).padStart(6, '0')}`,
      object: 'refund',
      amount: pi.amount,
      currency: pi.currency,
      payment_intent: pi.id,
      status: 'succeeded',
      metadata,
    }
    refunds.set(refund.id, refund)
    ledger.refunds.set(pi.id, [...(ledger.refunds.get(pi.id) ?? []), refund.id])
    return refund
  }

  /** Newest first, `created[gte]`/`created[lte]` in seconds, `limit` (1–100), `starting_after`. */
  function list(params: URLSearchParams, res: ServerResponse) {
    const gte = Number(params.get('created[gte]') ?? Number.NEGATIVE_INFINITY)
    const lte = Number(params.get('created[lte]') ?? Number.POSITIVE_INFINITY)
    const limit = Number(params.get('limit') ?? 10)
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return send(res, 400, invalid('limit must be an integer between 1 and 100').body)
    let all = [...intents.values()].reverse().filter((pi) => pi.created >= gte && pi.created <= lte)
    const after = params.get('starting_after')
    if (after) {
      const at = all.findIndex((pi) => pi.id === after)
      if (at < 0) return send(res, 400, invalid(`no such object: '${after}'`, 'resource_missing').body)
      all = all.slice(at + 1)
    }
    return send(res, 200, {
      object: 'list',
      url: '/v1/payment_intents',
      data: all.slice(0, limit),
      has_more: all.length > limit,
    })
  }

  async function create(params: URLSearchParams, res: ServerResponse): Promise<Answer | null> {
    ledger.calls++
    const answer = await decide(params, res)
    if (answer) send(res, answer.status, answer.body)
    return answer
  }

  async function decide(params: URLSearchParams, res: ServerResponse): Promise<Answer | null> {
    const token = params.get('shared_payment_granted_token') ?? ''
    const amount = Number(params.get('amount'))
    if (!Number.isInteger(amount) || amount < 50 || !params.get('currency'))
      return invalid('amount must be an integer of at least 50 and currency is required')
    if (params.get('confirm') !== 'true') return invalid('confirm=true is required')
    if (!token.startsWith('spt_test_'))
      return invalid(`no such shared payment token: '${token}'`, 'resource_missing')
    if (token.startsWith('spt_test_timeout')) {
      held.add(res)
      // Never answered, and nothing stored: the key stays "in progress" until the stand-in stops.
      await new Promise<void>((resolve) => res.once('close', resolve))
      return null
    }
    if (token.startsWith('spt_test_error'))
      return { status: 500, body: { error: { type: 'api_error', message: 'stand-in outage' } } }
    if (token.startsWith('spt_test_stall'))
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, stallMs)
        stalled.set(token, () => {
          clearTimeout(timer)
          resolve()
        })
      }).finally(() => stalled.delete(token))
    if (token.startsWith('spt_test_decline'))
      return {
        status: 402,
        body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } },
      }
    if (ledger.succeeded.has(token))
      return invalid('this shared payment token was already used', 'shared_payment_granted_token_used')
    const pi = newIntent(params, amount, 'succeeded')
    if (token.startsWith('spt_test_action')) pi.status = 'requires_action'
    else if (token.startsWith('spt_test_processing')) pi.status = 'processing'
    else ledger.succeeded.set(token, pi.id)
    if (token.startsWith('spt_test_lost'))
      return {
        status: 500,
        body: { error: { type: 'api_error', message: 'stand-in failure after the charge' } },
      }
    return { status: 200, body: pi }
  }

  function newIntent(params: URLSearchParams, amount: number, status: string): Intent {
    const metadata = metadataOf(params)
    const now = Date.now()
    const pi: Intent = {
      id: `pi_standin_${String(next++).padStart(6, '0')}`,
      object: 'payment_intent',
      amount,
      amount_received: status === 'succeeded' ? amount : 0,
      currency: params.get('currency') ?? 'usd',
      status,
      created: Math.floor(now / 1000),
      metadata,
    }
    intents.set(pi.id, pi)
    createdAtMs.set(pi.id, now)
    return pi
  }

  /** A metadata search, `metadata['challenge_id']:'<id>'`, over what the lagging index has seen. */
  function search(query: string) {
    const m = /^metadata\['([a-z_]+)'\]:'([^']*)'$/.exec(query)
    const indexed = [...intents.values()].filter(
      (pi) => Date.now() - (createdAtMs.get(pi.id) ?? 0) >= searchLagMs,
    )
    const data = m ? indexed.filter((pi) => pi.metadata[m[1] as string] === m[2]) : []
    return { object: 'search_result', data, has_more: false }
  }

  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  return {
    url: `http://${host}:${actualPort}`,
    ledger,
    close: () =>
      new Promise<void>((resolve) => {
        for (const go of stalled.values()) go()
        for (const res of held) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The `metadata[key]=value` form fields of a request, as Stripe stores them on the object. */
function metadataOf(params: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {}
  for (const [k, v] of params) {
    const m = /^metadata\[(.+)\]$/.exec(k)
    if (m) metadata[m[1] as string] = v
  }
  return metadata
}

function invalid(message: string, code = 'parameter_invalid'): Answer {
  return { status: 400, body: { error: { type: 'invalid_request_error', code, message } } }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * The local payment processor stand-in: the subset of Stripe's PaymentIntents API the gateway
 * uses, with shared-payment-token semantics, so `npm start` and the tests can pay without a
 * network. Development and test only; a deployed gateway refuses it.
 *
 * It behaves as Stripe does where the gateway depends on it:
 * - Idempotency: the first answer under an Idempotency-Key is stored, 5xx included, and replayed
 *   with `Idempotent-Replayed: true`; a second request while the first is still running under the
 *   same key gets 409 `idempotency_key_in_use` (nothing stored, safe to retry).
 * - PaymentIntents can be retrieved by id (consistent), listed newest first by `created` with
 *   `created[gte]`/`created[lte]` filters, `limit` and `starting_after` paging (consistent, as
 *   Stripe's list endpoints are), and found by `metadata['challenge_id']` through search, which lags
 *   writes by `searchLagMs` (Stripe: usually under a minute, up to an hour during outages), so a
 *   search miss proves nothing. An intent's `created` is when its create request arrived, as at
 *   Stripe, even when the request is answered much later.
 * - An intent can sit in `processing` or `requires_action` and complete later.
 * - Refunds: `POST /v1/refunds` with `payment_intent` (idempotent under its key like every POST; a
 *   second refund of a fully refunded intent is `charge_already_refunded`), `GET /v1/refunds/:id`.
 *
 * Tokens (see gateway/payment/README.md): `spt_test_<anything>` pays once; `…decline…` is declined; `…action…` needs
 * an extra step; `…processing…` is processing; `…timeout…` never answers; `…error…` is an outage
 * (500, nothing charged); `…lost…` charges, then answers 500; `…stall…` is held until released
 * (or `stallMs`), then pays (`…stallaction…`: then needs an extra step). The token rides in `payment_method_data[shared_payment_granted_token]`
 * (Stripe's documented form) or top-level `shared_payment_granted_token` (the MPP method's);
 * `…nestedonly…` and `…toplevelonly…` refuse the other form as an unknown parameter.
 *
 * Test helpers: `POST /v1/test_helpers/shared_payment/granted_tokens` mints a test token (as
 * Stripe's test helper does); `POST /__standin/seed` adds many intents at once with chosen `created`
 * times (another product's traffic on the same account), without an HTTP call each.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

import { STANDIN_SECRET } from '../../schema/config.js'

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
  /** Every authenticated API request (creates, reads, lists, searches, refunds): what a caller costs. */
  apiCalls: number
  /** The field each create call carried its token in, in order, by token. */
  tokenFields: Record<string, string[]>
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

const NESTED_TOKEN = 'payment_method_data[shared_payment_granted_token]'
const TOP_LEVEL_TOKEN = 'shared_payment_granted_token'

/** `unstored`: refused in validation, before the endpoint runs, so nothing is kept under the key. */
type Answer = { status: number; body: unknown; unstored?: true }

export async function startProcessorStandin(options: StandinOptions = {}): Promise<ProcessorStandin> {
  const { port = 0, host = '127.0.0.1', stallMs = DEFAULT_STALL_MS } = options
  let searchLagMs = options.searchLagMs ?? 0
  /** Refund calls still to be answered with a 500 (an outage during the reconciler's run). */
  let failRefunds = 0
  /** How far the processor's clock runs ahead of ours (negative: behind): `created` and `Date` follow it. */
  let clockSkewMs = 0
  const ledger: StandinLedger = {
    succeeded: new Map(),
    calls: 0,
    replays: 0,
    refunds: new Map(),
    apiCalls: 0,
    tokenFields: {},
  }
  const refunds = new Map<string, Refund>()
  /** When each intent was created (ms), for the search lag. */
  const createdAtMs = new Map<string, number>()
  const answers = new Map<string, StoredAnswer>()
  const running = new Set<string>()
  const intents = new Map<string, Intent>()
  /** Every intent in list order, oldest first: by `created`, then by creation (`seq`). */
  const byCreated: Intent[] = []
  const seqOf = new Map<string, number>()
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
    if (clockSkewMs) res.setHeader('date', new Date(Date.now() + clockSkewMs).toUTCString())
    if (req.method === 'GET' && url.pathname === '/__standin/ledger')
      return send(res, 200, {
        succeeded: Object.fromEntries(ledger.succeeded),
        calls: ledger.calls,
        replays: ledger.replays,
        stalled: [...stalled.keys()],
        refunds: Object.fromEntries(ledger.refunds),
        apiCalls: ledger.apiCalls,
        tokenFields: ledger.tokenFields,
        intents: intents.size,
        searchLagMs,
      })
    if (req.method === 'POST' && url.pathname === '/__standin/seed') return seed(url.searchParams, res)
    // Test control: another product's seeded traffic leaves the account (so one test's volume does not
    // stay in every later test's windows).
    if (req.method === 'POST' && url.pathname === '/__standin/unseed') {
      const realm = url.searchParams.get('realm')
      if (!realm) return send(res, 400, { error: 'realm is required' })
      const gone = byCreated.filter(
        (pi) => pi.metadata.realm === realm && pi.metadata.challenge_id?.startsWith('seed-'),
      )
      for (const pi of gone) intents.delete(pi.id)
      const kept = byCreated.filter((pi) => intents.has(pi.id))
      byCreated.length = 0
      byCreated.push(...kept)
      return send(res, 200, { removed: gone.length })
    }
    // Test control: how far the processor's clock is off ours, e.g. `?clock_skew_s=300`.
    if (
      req.method === 'POST' &&
      url.pathname === '/__standin/config' &&
      url.searchParams.has('clock_skew_s')
    ) {
      const skew = Number(url.searchParams.get('clock_skew_s'))
      if (!Number.isInteger(skew)) return send(res, 400, { error: 'clock_skew_s must be whole seconds' })
      clockSkewMs = skew * 1000
      return send(res, 200, { clockSkewS: skew })
    }
    // Test control: how far search lags behind writes, e.g. `?search_lag_ms=3600000` for an outage.
    if (
      req.method === 'POST' &&
      url.pathname === '/__standin/config' &&
      url.searchParams.has('fail_refunds')
    ) {
      const count = Number(url.searchParams.get('fail_refunds'))
      if (!Number.isInteger(count) || count < 0) return send(res, 400, { error: 'fail_refunds must be >= 0' })
      failRefunds = count
      return send(res, 200, { failRefunds })
    }
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
    ledger.apiCalls++
    if (req.method === 'GET' && url.pathname === '/v1/payment_intents/search')
      return send(res, 200, search(url.searchParams.get('query') ?? ''))
    if (req.method === 'GET' && url.pathname === '/v1/payment_intents') return list(url.searchParams, res)
    // Stripe's refund list, filtered by payment_intent (newest first).
    if (req.method === 'GET' && url.pathname === '/v1/refunds') {
      const pi = url.searchParams.get('payment_intent')
      const data = [...refunds.values()].filter((r) => !pi || r.payment_intent === pi).reverse()
      return send(res, 200, { object: 'list', data, has_more: false })
    }
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
          : url.pathname === '/v1/test_helpers/shared_payment/granted_tokens'
            ? mintToken
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
      if (answer && !answer.unstored) answers.set(key, { ...answer, params: raw })
    } finally {
      running.delete(key)
    }
  }

  /** Creates and confirms an intent; answers the request unless the token never gets an answer. */
  async function createRefund(params: URLSearchParams, res: ServerResponse): Promise<Answer> {
    if (failRefunds > 0) {
      failRefunds--
      const failed: Answer = {
        status: 500,
        body: { error: { type: 'api_error', message: 'stand-in outage' } },
      }
      send(res, failed.status, failed.body)
      return failed
    }
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
    const bound = (name: string, absent: number) => {
      const raw = params.get(name)
      return raw === null ? absent : Number(raw)
    }
    const gte = bound('created[gte]', Number.NEGATIVE_INFINITY)
    const lte = bound('created[lte]', Number.POSITIVE_INFINITY)
    if (Number.isNaN(gte) || Number.isNaN(lte))
      return send(res, 400, invalid('created[gte] and created[lte] must be timestamps in seconds').body)
    const limit = Number(params.get('limit') ?? 10)
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return send(res, 400, invalid('limit must be an integer between 1 and 100').body)
    // The window, oldest first: [from, to). Newest first means reading it from `to` down.
    const from = firstAt((pi) => pi.created >= gte)
    let to = firstAt((pi) => pi.created > lte)
    const after = params.get('starting_after')
    if (after) {
      const cursor = intents.get(after)
      if (!cursor) return send(res, 400, invalid(`no such object: '${after}'`, 'resource_missing').body)
      // Everything older than the cursor (Stripe pages on the object's place, whatever the filters).
      to = Math.min(
        to,
        firstAt((pi) => !olderThan(pi, cursor)),
      )
    }
    const page: Intent[] = []
    for (let i = to - 1; i >= from && page.length < limit; i--) page.push(byCreated[i] as Intent)
    return send(res, 200, {
      object: 'list',
      url: '/v1/payment_intents',
      data: page,
      has_more: to - from > page.length,
    })
  }

  /** List order: by `created`, then by when the intent was made. */
  function olderThan(a: Intent, b: Intent): boolean {
    return (
      a.created < b.created || (a.created === b.created && (seqOf.get(a.id) ?? 0) < (seqOf.get(b.id) ?? 0))
    )
  }

  /** The first index in list order where `test` holds (it holds from there on). */
  function firstAt(test: (pi: Intent) => boolean): number {
    let lo = 0
    let hi = byCreated.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (test(byCreated[mid] as Intent)) hi = mid
      else lo = mid + 1
    }
    return lo
  }

  /** Adds an intent at its place in list order (nearly always the end). */
  function file(pi: Intent) {
    intents.set(pi.id, pi)
    seqOf.set(pi.id, seqOf.size)
    const at = firstAt((other) => olderThan(pi, other))
    if (at === byCreated.length) byCreated.push(pi)
    else byCreated.splice(at, 0, pi)
  }

  /**
   * Test helper: `count` intents of `realm` (`status`, default succeeded), their `created` spread evenly over
   * [created_gte, created_lte] (seconds; both default to now), as another product's traffic.
   */
  function seed(params: URLSearchParams, res: ServerResponse) {
    const count = Number(params.get('count'))
    if (!Number.isInteger(count) || count < 1 || count > 1_000_000)
      return send(res, 400, { error: 'count must be an integer from 1 to 1000000' })
    const now = Math.floor(Date.now() / 1000)
    const gte = Number(params.get('created_gte') ?? now)
    const lte = Number(params.get('created_lte') ?? gte)
    if (!Number.isInteger(gte) || !Number.isInteger(lte) || lte < gte)
      return send(res, 400, {
        error: 'created_gte and created_lte must be seconds, created_gte <= created_lte',
      })
    const realm = params.get('realm') ?? 'other-product.example'
    const status = params.get('status') ?? 'succeeded'
    if (!['succeeded', 'processing', 'requires_action'].includes(status))
      return send(res, 400, { error: 'status must be succeeded, processing or requires_action' })
    const made: Intent[] = []
    for (let i = 0; i < count; i++) {
      const created = count === 1 ? gte : gte + Math.floor(((lte - gte) * i) / (count - 1))
      const id = `pi_standin_${String(next++).padStart(6, '0')}`
      const pi: Intent = {
        id,
        object: 'payment_intent',
        amount: 50,
        amount_received: status === 'succeeded' ? 50 : 0,
        currency: 'usd',
        status,
        created,
        metadata: { challenge_id: `seed-${id}`, realm },
      }
      intents.set(id, pi)
      seqOf.set(id, seqOf.size)
      createdAtMs.set(id, created * 1000)
      made.push(pi)
    }
    // One sort for the whole batch instead of one insertion each.
    byCreated.push(...made)
    byCreated.sort((a, b) => (olderThan(a, b) ? -1 : olderThan(b, a) ? 1 : 0))
    return send(res, 200, { seeded: count, first: made[0]?.id, last: made.at(-1)?.id })
  }

  /**
   * Stripe's test helper for shared payment tokens (test mode only): a token for `payment_method`
   * within `usage_limits`. `pm_card_visa` pays; `pm_card_chargeDeclined` is declined.
   */
  async function mintToken(params: URLSearchParams, res: ServerResponse): Promise<Answer> {
    const missing = ['payment_method', 'usage_limits[currency]', 'usage_limits[max_amount]'].find(
      (name) => !params.get(name),
    )
    const maxAmount = Number(params.get('usage_limits[max_amount]'))
    const answer: Answer = missing
      ? invalid(`missing required param: ${missing}`, 'parameter_missing')
      : !Number.isInteger(maxAmount) || maxAmount < 1
        ? invalid('usage_limits[max_amount] must be a positive integer')
        : {
            status: 200,
            body: {
              id: `spt_test_${params.get('payment_method') === 'pm_card_chargeDeclined' ? 'decline_' : ''}granted_${String(next++).padStart(6, '0')}`,
              object: 'shared_payment.granted_token',
              created: Math.floor(Date.now() / 1000),
              livemode: false,
              deactivated_at: null,
              deactivated_reason: null,
              usage_limits: {
                currency: params.get('usage_limits[currency]'),
                max_amount: maxAmount,
                expires_at: Number(params.get('usage_limits[expires_at]')) || null,
              },
            },
          }
    send(res, answer.status, answer.body)
    return answer
  }

  async function create(params: URLSearchParams, res: ServerResponse): Promise<Answer | null> {
    ledger.calls++
    const answer = await decide(params, res, Date.now() + clockSkewMs)
    if (answer) send(res, answer.status, answer.body)
    return answer
  }

  /** `receivedAt`: when the request arrived, which Stripe states as the intent's `created`. */
  async function decide(
    params: URLSearchParams,
    res: ServerResponse,
    receivedAt: number,
  ): Promise<Answer | null> {
    const refused = unknownTokenField(params)
    if (refused) return refused
    const token = params.get(NESTED_TOKEN) ?? params.get(TOP_LEVEL_TOKEN) ?? ''
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
    if (token.startsWith('spt_test_decline')) {
      // As Stripe does when a confirm is declined: the intent exists (requires_payment_method) and
      // the error names it.
      const declined = newIntent(params, amount, 'requires_payment_method', receivedAt)
      return {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            code: 'card_declined',
            message: 'Your card was declined.',
            payment_intent: declined,
          },
        },
      }
    }
    if (ledger.succeeded.has(token))
      return invalid('this shared payment token was already used', 'shared_payment_granted_token_used')
    const pi = newIntent(params, amount, 'succeeded', receivedAt)
    // `…stallaction…`: held like a stall, then left waiting for an extra step (an unfinished intent).
    if (token.startsWith('spt_test_action') || token.startsWith('spt_test_stallaction'))
      pi.status = 'requires_action'
    else if (token.startsWith('spt_test_processing')) pi.status = 'processing'
    else ledger.succeeded.set(token, pi.id)
    if (token.startsWith('spt_test_lost'))
      return {
        status: 500,
        body: { error: { type: 'api_error', message: 'stand-in failure after the charge' } },
      }
    return { status: 200, body: pi }
  }

  /**
   * Stripe's answer to a parameter its API version does not know: a 400 raised before anything
   * runs. A `…nestedonly…` token plays a Stripe that knows only the documented nested field, a
   * `…toplevelonly…` token one that knows only the MPP method's top-level field.
   */
  function unknownTokenField(params: URLSearchParams): Answer | undefined {
    const token = params.get(NESTED_TOKEN) ?? params.get(TOP_LEVEL_TOKEN) ?? ''
    const field = params.has(NESTED_TOKEN) ? NESTED_TOKEN : TOP_LEVEL_TOKEN
    ledger.tokenFields[token] = [...(ledger.tokenFields[token] ?? []), field]
    const refusedName = token.includes('nestedonly')
      ? TOP_LEVEL_TOKEN
      : token.includes('toplevelonly')
        ? NESTED_TOKEN
        : undefined
    if (!refusedName || !params.has(refusedName)) return undefined
    return {
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'parameter_unknown',
          param: refusedName,
          message: `Received unknown parameter: ${refusedName}`,
        },
      },
      unstored: true,
    }
  }

  function newIntent(params: URLSearchParams, amount: number, status: string, now: number): Intent {
    const metadata = metadataOf(params)
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
    file(pi)
    createdAtMs.set(pi.id, Date.now())
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

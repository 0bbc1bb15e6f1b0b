/**
 * The card processor: Stripe's PaymentIntents API over fetch. One create call per credential
 * (confirmed at once, with an idempotency key so a retry can never charge twice), the
 * look-ups that reconcile a payment whose outcome was lost (retrieve by id; the list endpoint over
 * the window in which the intent can have been created, matched on the challenge id in metadata),
 * and refunds. Search is used only to prove an intent exists where that window is too dense to read
 * on a buyer's request: Stripe's index lags writes (up to an hour in an outage), so a hit proves
 * the intent exists and a miss proves nothing.
 *
 * Every answer is classified by what it means for the money: only a definitive card outcome is a
 * refusal; a conflict, a rate limit, a 5xx, a timeout or a `processing` intent means "not known yet".
 */

import type { SettleOutcome as ProcessorOutcome } from '../outcome.js'

export interface ProcessorConfig {
  url: string
  secret: string
  timeoutMs: number
  /** How long search may trail a write before a miss counts as absence (SEARCH_INDEX_LAG_MS). */
  searchLagMs?: number
}

/** Stripe's search index usually trails writes by under a minute: a miss counts only after this. */
export const SEARCH_INDEX_LAG_MS = 60_000

export interface IntentRequest {
  amount: string
  currency: string
  spt: string
  challengeId: string
  /** This service's realm: the reconciler refunds only intents this service created. */
  realm: string
}

/** The metadata every intent of this service carries. */
export interface IntentMetadata {
  challenge_id?: string
  machine_payment?: string
  realm?: string
}

/** An intent as a list page shows it. */
export interface ListedIntent {
  id: string
  status: string
  created: number
  metadata: IntentMetadata
}

export const STRIPE_VERSION = '2026-07-29.preview'

export function idempotencyKey(challengeId: string, spt: string): string {
  return `mpp_${challengeId}_${spt}`
}

type Answer =
  | { ok: true; status: number; json: StripeJson; replayed: boolean; skewS?: number }
  | { ok: false; detail: string }
interface StripeJson {
  id?: unknown
  status?: unknown
  data?: unknown
  has_more?: unknown
  error?: { code?: unknown; type?: unknown; param?: unknown; payment_intent?: { id?: unknown } }
}

async function call(
  config: ProcessorConfig,
  path: string,
  init: { method: 'GET' | 'POST'; body?: URLSearchParams; idempotencyKey?: string },
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${config.secret}`,
    'stripe-version': STRIPE_VERSION,
  }
  if (init.body) headers['content-type'] = 'application/x-www-form-urlencoded'
  if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey
  let response: Response
  try {
    response = await fetch(`${config.url}${path}`, {
      method: init.method,
      headers,
      ...(init.body ? { body: init.body } : {}),
      signal: AbortSignal.timeout(config.timeoutMs),
    })
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    return {
      ok: false,
      detail: timedOut ? 'the processor did not answer in time' : 'the processor is unreachable',
    }
  }
  try {
    const json = (await response.json()) as StripeJson
    // The processor's clock, as its own `Date` states it (whole seconds), against ours.
    const date = Date.parse(response.headers.get('date') ?? '')
    return {
      ok: true,
      status: response.status,
      json,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      ...(Number.isNaN(date) ? {} : { skewS: Math.round((date - Date.now()) / 1000) }),
    }
  } catch {
    return { ok: false, detail: `the processor answered ${response.status} without JSON` }
  }
}

/** What an intent's status means for the payment. */
export function classifyIntent(json: StripeJson): ProcessorOutcome {
  const id = typeof json.id === 'string' ? json.id : ''
  if (!id) return { kind: 'unknown', detail: 'the processor answered without an intent id' }
  switch (json.status) {
    case 'succeeded':
      return { kind: 'succeeded', id }
    case 'requires_action':
    case 'processing':
      return { kind: 'incomplete', id, status: json.status }
    case 'canceled':
    case 'requires_payment_method':
      return {
        kind: 'declined',
        detail: `the payment ended ${json.status}, nothing was charged`,
        createdIntent: true,
      }
    default:
      return { kind: 'unknown', detail: `the payment is ${String(json.status)}` }
  }
}

function classifyAnswer(answer: Answer): ProcessorOutcome {
  if (!answer.ok) return { kind: 'unknown', detail: answer.detail }
  const { status, json, replayed } = answer
  if (status >= 200 && status < 300) return classifyIntent(json)
  const skew = answer.skewS === undefined ? {} : { skewS: answer.skewS }
  const code = typeof json.error?.code === 'string' ? json.error.code : undefined
  // 409: a request under this key is still running; 429: rate limited; 401/403: our key; 5xx: outage.
  if (status === 409 || status === 429 || status === 401 || status === 403 || status >= 500)
    return {
      kind: 'unknown',
      detail: `the processor answered ${status}${code ? ` (${code})` : ''}`,
      storedFailure: replayed && status >= 500,
      ...skew,
    }
  if (json.error?.type === 'idempotency_error')
    return { kind: 'unknown', detail: 'the processor refused the idempotency key' }
  return {
    kind: 'declined',
    detail: `the processor refused the token (${code ?? 'payment_failed'})`,
    createdIntent: typeof json.error?.payment_intent?.id === 'string',
  }
}

/**
 * Where the granted token goes in the create call, in the order tried. Stripe documents the nested
 * form (changelog 2026-04-22); the MPP Stripe method and mppx send it at the top level. Stripe
 * rejects an unknown parameter (400 `parameter_unknown`) before the endpoint runs and stores no
 * result under the idempotency key, so sending the other form under the same key cannot charge twice.
 */
export const TOKEN_FIELDS = [
  'payment_method_data[shared_payment_granted_token]',
  'shared_payment_granted_token',
] as const
type TokenField = (typeof TOKEN_FIELDS)[number]

/** The form the processor last accepted, tried first from then on (one extra call per isolate at most). */
let acceptedField: TokenField = TOKEN_FIELDS[0]

function refusesField(answer: Answer, field: TokenField): boolean {
  return (
    answer.ok &&
    answer.status === 400 &&
    answer.json.error?.code === 'parameter_unknown' &&
    answer.json.error.param === field
  )
}

export async function createPaymentIntent(
  config: ProcessorConfig,
  req: IntentRequest,
): Promise<ProcessorOutcome> {
  const order = [acceptedField, ...TOKEN_FIELDS.filter((f) => f !== acceptedField)]
  let answer: Answer = { ok: false, detail: 'no token form was tried' }
  for (const field of order) {
    answer = await call(config, '/v1/payment_intents', {
      method: 'POST',
      body: intentBody(req, field),
      idempotencyKey: idempotencyKey(req.challengeId, req.spt),
    })
    if (!refusesField(answer, field)) {
      if (answer.ok && answer.status < 400) acceptedField = field
      break
    }
  }
  return classifyAnswer(answer)
}

function intentBody(req: IntentRequest, tokenField: TokenField): URLSearchParams {
  return new URLSearchParams({
    amount: req.amount,
    currency: req.currency,
    [tokenField]: req.spt,
    confirm: 'true',
    'automatic_payment_methods[enabled]': 'true',
    'automatic_payment_methods[allow_redirects]': 'never',
    'metadata[challenge_id]': req.challengeId,
    'metadata[machine_payment]': 'true',
    'metadata[realm]': req.realm,
  })
}

export async function retrievePaymentIntent(config: ProcessorConfig, id: string): Promise<ProcessorOutcome> {
  const answer = await call(config, `/v1/payment_intents/${encodeURIComponent(id)}`, { method: 'GET' })
  if (!answer.ok) return { kind: 'unknown', detail: answer.detail }
  // A look-up that fails says nothing about the payment.
  if (answer.status !== 200) return { kind: 'unknown', detail: `the processor answered ${answer.status}` }
  return classifyIntent(answer.json)
}

/** A range of `created` times, in seconds, both ends included (the list's `created[gte]`/`created[lte]`). */
export interface CreatedWindow {
  gte: number
  lte: number
}

/** One page of intents created within `window`, newest first, after `startingAfter`. */
async function listPage(
  config: ProcessorConfig,
  window: CreatedWindow,
  startingAfter?: string,
): Promise<{ intents: ListedIntent[]; hasMore: boolean } | { unknown: string }> {
  const query = new URLSearchParams({
    'created[gte]': String(window.gte),
    'created[lte]': String(window.lte),
    limit: '100',
  })
  if (startingAfter) query.set('starting_after', startingAfter)
  const answer = await call(config, `/v1/payment_intents?${query}`, { method: 'GET' })
  if (!answer.ok) return { unknown: answer.detail }
  if (answer.status !== 200 || !Array.isArray(answer.json.data))
    return { unknown: `the processor's list answered ${answer.status}` }
  return { intents: answer.json.data as ListedIntent[], hasMore: answer.json.has_more === true }
}

/**
 * How a walk through the list ended: read whole, stopped by the visitor, cut at its page limit, or
 * failed. `after`: the last intent read, from which a later walk over the same window resumes.
 */
export type ListWalk = (
  | { end: 'complete' | 'stopped' | 'truncated' }
  | { end: 'unknown'; detail: string }
) & {
  after?: string
  pages: number
}

export interface WalkOptions {
  /** Resume after this intent (the `after` of an earlier walk over the same window). */
  startingAfter?: string
  /** Called after each page is visited, with the last intent read: where to resume. */
  onPage?: (after: string) => void | Promise<void>
}

/**
 * Visits every intent created within `window`, newest first, through the consistent list
 * endpoint, reading at most `maxPages` pages of 100; `visit` returns true to stop.
 */
export async function walkPaymentIntents(
  config: ProcessorConfig,
  window: CreatedWindow,
  maxPages: number,
  visit: (intent: ListedIntent) => boolean | Promise<boolean>,
  options: WalkOptions = {},
): Promise<ListWalk> {
  let after = options.startingAfter
  let pages = 0
  while (pages < maxPages) {
    const listed = await listPage(config, window, after)
    pages++
    if ('unknown' in listed) return { end: 'unknown', detail: listed.unknown, pages, ...cursor(after) }
    for (const intent of listed.intents) if (await visit(intent)) return { end: 'stopped', pages }
    after = listed.intents.at(-1)?.id ?? after
    if (after) await options.onPage?.(after)
    if (!listed.hasMore) return { end: 'complete', pages, ...cursor(after) }
  }
  return { end: 'truncated', pages, ...cursor(after) }
}

const cursor = (after: string | undefined) => (after === undefined ? {} : { after })

/**
 * Pages one buyer's request may read (100 intents each). The window is the few minutes around the
 * first attempt, a few pages on a busy account; past this, search stands in for the rest.
 */
const BUYER_WALK_PAGES = 10

/**
 * How long a buyer is asked to wait when its charge could only be looked up through search and
 * search has not caught up: Stripe's index usually trails writes by under a minute.
 */
export const SEARCH_RETRY_AFTER_S = 15

/**
 * The intent created for a challenge: first from the consistent list of intents created within
 * `window`; where that window holds more than a buyer's request may read, a search hit (checked
 * by retrieving the intent) proves the intent exists, and a miss proves nothing (the buyer is
 * asked to retry). `null` only when the whole window was read and no intent carries the challenge id.
 */
export async function findPaymentIntent(
  config: ProcessorConfig,
  challengeId: string,
  window: CreatedWindow,
  /** Where an earlier look at this same window stopped: the intents before it were read. */
  startingAfter?: string,
): Promise<ProcessorOutcome | null> {
  let match: ListedIntent | undefined
  const walk = await walkPaymentIntents(
    config,
    window,
    BUYER_WALK_PAGES,
    (intent) => {
      if (intent.metadata?.challenge_id === challengeId) match = intent
      return match !== undefined
    },
    startingAfter === undefined ? {} : { startingAfter },
  )
  if (match) return classifyIntent(match)
  const resume = walk.after ?? startingAfter
  if (walk.end === 'unknown')
    return { kind: 'unknown', detail: walk.detail, ...(resume ? { resumeAfter: resume } : {}) }
  if (walk.end === 'complete') return null
  const found = await searchPaymentIntent(config, challengeId)
  const resumeAfter = resume ? { resumeAfter: resume } : {}
  if ('unknown' in found) return { kind: 'unknown', detail: found.unknown, ...resumeAfter }
  // The index's copy may trail the intent's state: the consistent read decides.
  if (found.id) return retrievePaymentIntent(config, found.id)
  return {
    kind: 'unknown',
    detail:
      "too many payments were made on the processor's account around this one to list them all in one request, and its search has not indexed this payment yet; each retry reads on from where the last stopped, and the payment may not exist",
    retryAfterS: SEARCH_RETRY_AFTER_S,
    ...resumeAfter,
  }
}

/** The intent search finds for a challenge id, if the index has it yet (Stripe search query language). */
export async function searchPaymentIntent(
  config: ProcessorConfig,
  challengeId: string,
): Promise<{ id?: string } | { unknown: string }> {
  const quoted = challengeId.replace(/\\/g, '\\\\').replace(/'/g, "\\'")
  const query = new URLSearchParams({ query: `metadata['challenge_id']:'${quoted}'`, limit: '10' })
  const answer = await call(config, `/v1/payment_intents/search?${query}`, { method: 'GET' })
  if (!answer.ok) return { unknown: answer.detail }
  if (answer.status !== 200 || !Array.isArray(answer.json.data))
    return { unknown: `the processor's search answered ${answer.status}` }
  const hit = (answer.json.data as ListedIntent[]).find((pi) => pi.metadata?.challenge_id === challengeId)
  return hit ? { id: hit.id } : {}
}

export type RefundOutcome = { ok: true; id: string } | { ok: false; detail: string }

/**
 * Refunds an intent in full, once. The key is the intent's, numbered by attempt: the processor
 * stores a failed call's answer (a 500 included) under its key and replays it for a day, so a later
 * attempt takes a new key. That cannot refund twice: a second full refund is refused as
 * `charge_already_refunded`, which means the refund exists (made by an earlier attempt, or outside
 * this service, as from the dashboard), so it is looked up and named.
 */
export async function refundPaymentIntent(
  config: ProcessorConfig,
  intentId: string,
  challengeId: string,
  attempt = 0,
): Promise<RefundOutcome> {
  const body = new URLSearchParams({
    payment_intent: intentId,
    reason: 'requested_by_customer',
    'metadata[challenge_id]': challengeId,
    'metadata[why]': 'charged but never delivered',
  })
  const answer = await call(config, '/v1/refunds', {
    method: 'POST',
    body,
    idempotencyKey: attempt === 0 ? `refund_${intentId}` : `refund_${intentId}_${attempt}`,
  })
  if (!answer.ok) return { ok: false, detail: answer.detail }
  if (answer.status === 200 && typeof answer.json.id === 'string') return { ok: true, id: answer.json.id }
  const code = typeof answer.json.error?.code === 'string' ? answer.json.error.code : answer.status
  if (code === 'charge_already_refunded') return existingRefund(config, intentId)
  return { ok: false, detail: `the processor refused the refund (${code})` }
}

/** The refund an intent already has (the refund list, filtered by intent). */
async function existingRefund(config: ProcessorConfig, intentId: string): Promise<RefundOutcome> {
  const query = new URLSearchParams({ payment_intent: intentId, limit: '1' })
  const answer = await call(config, `/v1/refunds?${query}`, { method: 'GET' })
  if (!answer.ok) return { ok: false, detail: answer.detail }
  const first = Array.isArray(answer.json.data)
    ? (answer.json.data[0] as { id?: unknown } | undefined)
    : undefined
  return answer.status === 200 && typeof first?.id === 'string'
    ? { ok: true, id: first.id }
    : {
        ok: false,
        detail: `the processor says the charge is refunded but lists no refund (${answer.status})`,
      }
}

/**
 * The card processor: Stripe's PaymentIntents API over fetch. One create call per credential
 * (confirmed at once, with an idempotency key so a retry can never charge twice), and the two
 * look-ups that reconcile a payment whose outcome was lost: retrieve by id, and search by the
 * challenge id the intent carries in its metadata.
 *
 * Every answer is classified by what it means for the money: only a definitive card outcome is a
 * refusal; a conflict, a rate limit, a 5xx, a timeout or a `processing` intent means "not known yet".
 */

export interface ProcessorConfig {
  url: string
  secret: string
  timeoutMs: number
  /**
   * How long after a failed create call its absence from search is trusted: Stripe's search index
   * lags writes (documented as usually under a minute), so "not found" is a fact only after this.
   */
  searchSettleMs: number
}

export interface IntentRequest {
  amount: string
  currency: string
  spt: string
  challengeId: string
}

export type ProcessorOutcome =
  | { kind: 'succeeded'; id: string }
  /** The intent exists and may still complete: requires_action or processing. */
  | { kind: 'incomplete'; id: string; status: 'requires_action' | 'processing' }
  /** A definitive refusal: the card or the token was refused, or the intent was abandoned. */
  | { kind: 'declined'; detail: string }
  /**
   * Whether money moved is unknown. `storedFailure`: the processor replayed a failure it stored
   * under this idempotency key, so the same key can never succeed.
   */
  | { kind: 'unknown'; detail: string; storedFailure?: boolean }

export const STRIPE_VERSION = '2026-07-29.preview'

export function idempotencyKey(challengeId: string, spt: string): string {
  return `mpp_${challengeId}_${spt}`
}

type Answer =
  | { ok: true; status: number; json: StripeJson; replayed: boolean }
  | { ok: false; detail: string }
interface StripeJson {
  id?: unknown
  status?: unknown
  data?: unknown
  error?: { code?: unknown; type?: unknown }
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
    return {
      ok: true,
      status: response.status,
      json,
      replayed: response.headers.get('idempotent-replayed') === 'true',
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
      return { kind: 'declined', detail: `the payment ended ${json.status}, nothing was charged` }
    default:
      return { kind: 'unknown', detail: `the payment is ${String(json.status)}` }
  }
}

function classifyAnswer(answer: Answer): ProcessorOutcome {
  if (!answer.ok) return { kind: 'unknown', detail: answer.detail }
  const { status, json, replayed } = answer
  if (status >= 200 && status < 300) return classifyIntent(json)
  const code = typeof json.error?.code === 'string' ? json.error.code : undefined
  // 409: a request under this key is still running; 429: rate limited; 401/403: our key; 5xx: outage.
  if (status === 409 || status === 429 || status === 401 || status === 403 || status >= 500)
    return {
      kind: 'unknown',
      detail: `the processor answered ${status}${code ? ` (${code})` : ''}`,
      storedFailure: replayed && status >= 500,
    }
  if (json.error?.type === 'idempotency_error')
    return { kind: 'unknown', detail: 'the processor refused the idempotency key' }
  return { kind: 'declined', detail: `the processor refused the token (${code ?? 'payment_failed'})` }
}

export async function createPaymentIntent(
  config: ProcessorConfig,
  req: IntentRequest,
): Promise<ProcessorOutcome> {
  const body = new URLSearchParams({
    amount: req.amount,
    currency: req.currency,
    shared_payment_granted_token: req.spt,
    confirm: 'true',
    'automatic_payment_methods[enabled]': 'true',
    'automatic_payment_methods[allow_redirects]': 'never',
    'metadata[challenge_id]': req.challengeId,
    'metadata[machine_payment]': 'true',
  })
  return classifyAnswer(
    await call(config, '/v1/payment_intents', {
      method: 'POST',
      body,
      idempotencyKey: idempotencyKey(req.challengeId, req.spt),
    }),
  )
}

export async function retrievePaymentIntent(config: ProcessorConfig, id: string): Promise<ProcessorOutcome> {
  const answer = await call(config, `/v1/payment_intents/${encodeURIComponent(id)}`, { method: 'GET' })
  if (!answer.ok) return { kind: 'unknown', detail: answer.detail }
  // A look-up that fails says nothing about the payment.
  if (answer.status !== 200) return { kind: 'unknown', detail: `the processor answered ${answer.status}` }
  return classifyIntent(answer.json)
}

/** The intent created for a challenge, if the processor has one: `null` when it has none. */
export async function findPaymentIntent(
  config: ProcessorConfig,
  challengeId: string,
): Promise<ProcessorOutcome | null> {
  const query = new URLSearchParams({ query: `metadata['challenge_id']:'${challengeId}'` })
  const answer = await call(config, `/v1/payment_intents/search?${query}`, { method: 'GET' })
  if (!answer.ok) return { kind: 'unknown', detail: answer.detail }
  if (answer.status !== 200 || !Array.isArray(answer.json.data))
    return { kind: 'unknown', detail: `the processor's search answered ${answer.status}` }
  const intents = answer.json.data as StripeJson[]
  // A challenge has at most one intent (one idempotency key per credential, one credential per challenge).
  const first = intents[0]
  return first ? classifyIntent(first) : null
}

/**
 * The card processor: one Stripe call, POST /v1/payment_intents with the shared payment token,
 * confirmed at once, with an idempotency key so a retry can never charge twice.
 */

export interface ProcessorConfig {
  url: string
  secret: string
  timeoutMs: number
}

export interface IntentRequest {
  amount: string
  currency: string
  spt: string
  challengeId: string
}

export type ProcessorOutcome =
  | { kind: 'succeeded'; id: string }
  | { kind: 'requires_action'; id: string }
  | { kind: 'declined'; detail: string }
  /** The processor did not answer, or failed: whether money moved is unknown until a retry. */
  | { kind: 'unavailable'; detail: string }

export const STRIPE_VERSION = '2026-07-29.preview'

export function idempotencyKey(challengeId: string, spt: string): string {
  return `mpp_${challengeId}_${spt}`
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
  let response: Response
  try {
    response = await fetch(`${config.url}/v1/payment_intents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.secret}`,
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': idempotencyKey(req.challengeId, req.spt),
        'stripe-version': STRIPE_VERSION,
      },
      body,
      signal: AbortSignal.timeout(config.timeoutMs),
    })
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    return {
      kind: 'unavailable',
      detail: timedOut ? 'the processor did not answer in time' : 'the processor is unreachable',
    }
  }
  let json: { id?: unknown; status?: unknown; error?: { message?: unknown; code?: unknown } }
  try {
    json = (await response.json()) as typeof json
  } catch {
    return { kind: 'unavailable', detail: `the processor answered ${response.status} without JSON` }
  }
  if (response.status >= 500 || response.status === 429 || response.status === 401)
    return { kind: 'unavailable', detail: `the processor answered ${response.status}` }
  if (!response.ok) {
    const code = typeof json.error?.code === 'string' ? json.error.code : 'payment_failed'
    return { kind: 'declined', detail: `the processor refused the token (${code})` }
  }
  const id = typeof json.id === 'string' ? json.id : ''
  if (json.status === 'succeeded' && id) return { kind: 'succeeded', id }
  if (json.status === 'requires_action') return { kind: 'requires_action', id }
  return { kind: 'declined', detail: `the payment ended ${String(json.status)}, not succeeded` }
}

/**
 * Settlement through an x402 facilitator over HTTP (POST /verify, then POST /settle), bounded in
 * time. The Worker holds no key: the facilitator submits `transferWithAuthorization`. What comes
 * back is one of three things: settled (a transaction), refused (the facilitator answered that it
 * will not settle this authorization), or unknown (no answer, an error status, a malformed answer),
 * which only the chain can resolve (chain.ts).
 */
import type { EvmConfig } from './config.js'

export type FacilitatorOutcome =
  | { kind: 'settled'; transaction: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'unknown'; detail: string }

async function post(c: EvmConfig, path: string, body: unknown): Promise<Record<string, unknown> | string> {
  let response: Response
  try {
    response = await fetch(`${c.facilitatorUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(c.timeoutMs),
    })
  } catch {
    return `the facilitator did not answer ${path} within ${c.timeoutMs} ms`
  }
  if (!response.ok) return `the facilitator answered ${path} with HTTP ${response.status}`
  try {
    const json = (await response.json()) as unknown
    if (json && typeof json === 'object' && !Array.isArray(json)) return json as Record<string, unknown>
  } catch {}
  return `the facilitator's answer to ${path} was not a JSON object`
}

/** Verifies, then settles, one payment (x402 v2 bodies). */
export async function verifyAndSettle(
  c: EvmConfig,
  paymentPayload: unknown,
  paymentRequirements: unknown,
): Promise<FacilitatorOutcome> {
  const body = { x402Version: 2, paymentPayload, paymentRequirements }
  const verified = await post(c, '/verify', body)
  if (typeof verified === 'string') return { kind: 'unknown', detail: verified }
  if (verified.isValid !== true)
    return { kind: 'refused', reason: String(verified.invalidMessage ?? verified.invalidReason ?? 'invalid') }
  const settled = await post(c, '/settle', body)
  if (typeof settled === 'string') return { kind: 'unknown', detail: settled }
  if (settled.success === true && typeof settled.transaction === 'string' && settled.transaction)
    return { kind: 'settled', transaction: settled.transaction }
  // "Not settled yet" is no refusal: a facilitator that broadcast the transfer and stopped waiting for
  // its receipt answers success: false with the transaction (x402's `settlement_pending`).
  const broadcast = typeof settled.transaction === 'string' && settled.transaction !== ''
  if (settled.success === false && (broadcast || settled.errorReason === 'settlement_pending'))
    return {
      kind: 'unknown',
      detail: `the facilitator broadcast the transfer${broadcast ? ` (${String(settled.transaction)})` : ''} but has not seen it mined`,
    }
  if (settled.success === false)
    return { kind: 'refused', reason: String(settled.errorMessage ?? settled.errorReason ?? 'not settled') }
  return { kind: 'unknown', detail: 'the facilitator answered /settle without a transaction' }
}

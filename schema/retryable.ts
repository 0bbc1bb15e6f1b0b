/**
 * What a refused client may do next: the `retryable` member of every refusal's problem body (402,
 * 409, 429, 503, over HTTP and in the MCP problem), stated once for the gateway, openapi.json,
 * llms.txt and gateway/payment/README.md. Three answers, because an agent must tell "pay again" from "ask again
 * with what you have" from "stop": mixing up the first two is how one answer gets paid for twice.
 */

export type Retryable = 'pay-again' | 'same-credential' | false

/** Each value and what it asks of the client. */
export const RETRYABLE_MEANING: Record<`${Retryable}`, string> = {
  'pay-again':
    "this credential will never be accepted and nothing was charged for it: pay the fresh challenge this 402 carries (WWW-Authenticate, or the MCP payment-required _meta), or, after a 429's or 503's Retry-After, the one a new request without a credential gets, and send the new credential",
  'same-credential':
    'send the same request again with the same credential and Idempotency-Key, after Retry-After when given; never pay again (that could pay twice for one answer)',
  false:
    'stop: neither this credential nor a new payment gets this answer back (a new payment buys a second copy)',
}

/** One paragraph for llms.txt and openapi.json. */
export const RETRYABLE_POLICY = `Every refusal (402, 409, 429, 503; over MCP the problem in _meta) carries "retryable": ${Object.entries(
  RETRYABLE_MEANING,
)
  .map(([value, meaning]) => `${value === 'false' ? 'false' : `"${value}"`} = ${meaning}`)
  .join(
    '; ',
  )}. Only a 402 with retryable "pay-again" carries a fresh challenge; a credential whose payment is settled or may still settle is never offered one.`

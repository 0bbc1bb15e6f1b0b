/**
 * CORS for browser agents: any origin, the payment headers exposed, on every path but one.
 *
 * MCP 2026-07-28 sends Mcp-Method (and Mcp-Name on tools/call) on every request and refuses a request
 * without them, so a preflight that does not allow them shuts every browser out of that revision.
 * Last-Event-ID is what a client sends to resume a stream; Mcp-Protocol-Version is exposed so a page
 * can read which revision answered.
 *
 * POST /v1/pricing/submit is left out on purpose: with CORS open, any web page could make its
 * visitors submit rows, multiplying one person's reach past the per-client limit (and past the
 * distinct-submitter rule). A JSON POST needs a preflight, which gets no CORS approval here; the
 * one cross-site POST a browser sends without asking (text/plain, form encodings) is refused 415.
 */

export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'WWW-Authenticate, Payment-Receipt, PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE, Retry-After, ETag, Content-Digest, Deprecation, Sunset, Link, Mcp-Protocol-Version',
}

/** Paths no browser page may call across origins (the operator's list is for a command, never a page). */
const SAME_ORIGIN_ONLY = new Set(['/v1/pricing/submit', '/v1/operator/wallet-owed'])
const crossOriginAllowed = (url: string) => !SAME_ORIGIN_ONLY.has(new URL(url).pathname)

export function preflight(request: Request): Response {
  if (!crossOriginAllowed(request.url))
    return new Response(null, { status: 204, headers: { allow: 'POST, OPTIONS' } })
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
      'access-control-allow-headers':
        'Authorization, Payment-Authorization, PAYMENT-SIGNATURE, X-PAYMENT, Accept-Payment, Content-Type, Idempotency-Key, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID',
      'access-control-max-age': '86400',
    },
  })
}

/** Copies a response with the CORS headers added (responses from fetch have immutable headers). */
export function withCors(request: Request, response: Response): Response {
  if (!crossOriginAllowed(request.url)) return response
  const copy = new Response(response.body, response)
  for (const [k, v] of Object.entries(CORS_HEADERS)) copy.headers.set(k, v)
  return copy
}

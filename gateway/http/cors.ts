/**
 * CORS for browser agents: any origin, the payment headers exposed.
 */

export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'WWW-Authenticate, Payment-Receipt, Retry-After, ETag',
}

export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
      'access-control-allow-headers':
        'Authorization, Payment-Authorization, Accept-Payment, Content-Type, Idempotency-Key, Mcp-Protocol-Version, Mcp-Session-Id',
      'access-control-max-age': '86400',
    },
  })
}

/** Copies a response with the CORS headers added (responses from fetch have immutable headers). */
export function withCors(response: Response): Response {
  const copy = new Response(response.body, response)
  for (const [k, v] of Object.entries(CORS_HEADERS)) copy.headers.set(k, v)
  return copy
}

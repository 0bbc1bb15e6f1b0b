/**
 * Origin validation for POST /mcp (MCP requires a 403 on an invalid Origin).
 *
 * Policy: a request without Origin is not from a browser page and is served. A browser agent on any
 * https site may call, since nothing here rides on ambient authority: no cookies, no session, every
 * paid call carries its own single-use credential; the same data is open to every origin over CORS.
 * Refused: the opaque `null` origin (sandboxed frames, files), plain-http sites other than loopback
 * (a page an attacker on the network can rewrite), and anything that is not an origin at all.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

export function originAllowed(origin: string | null): boolean {
  if (origin === null) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.origin !== origin) return false
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname)
}

export function forbiddenOrigin(origin: string): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `Origin ${JSON.stringify(origin)} may not call this server: use an https origin, or loopback over http`,
      },
    },
    { status: 403 },
  )
}

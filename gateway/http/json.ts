/**
 * JSON responses with an ETag, answering If-None-Match with 304.
 */

export async function jsonResponse(
  request: Request,
  value: unknown,
  headers: Record<string, string>,
  status = 200,
): Promise<Response> {
  const body = JSON.stringify(value)
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body))
  const etag = `"${[...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('')}"`
  const all = { 'content-type': 'application/json; charset=utf-8', etag, ...headers }
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: all })
  return new Response(body, { status, headers: all })
}

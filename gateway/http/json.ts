/**
 * JSON responses with an ETag, answering If-None-Match with 304.
 */

export interface Serialized {
  body: string
  etag: string
  /** Absent: JSON. Markdown answers carry their own type. */
  contentType?: string
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** A value as JSON, or text already rendered (Markdown) under its own content type. */
export async function serialize(value: unknown, textType?: string): Promise<Serialized> {
  const body = textType ? String(value) : JSON.stringify(value)
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body))
  const etag = `"${[...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('')}"`
  return { body, etag, ...(textType ? { contentType: textType } : {}) }
}

/** Built data never changes within an isolate, so each distinct answer is serialised once. */
const MAX_CACHED = 500
const cache = new Map<string, Promise<Serialized>>()

export function serializeOnce(key: string, build: () => unknown, textType?: string): Promise<Serialized> {
  let hit = cache.get(key)
  if (!hit) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string)
    hit = serialize(build(), textType)
    cache.set(key, hit)
  }
  return hit
}

export async function jsonResponse(
  request: Request,
  value: unknown,
  headers: Record<string, string>,
  status = 200,
): Promise<Response> {
  return serializedResponse(request, await serialize(value), headers, status)
}

/** `request` null: answer unconditionally (a paid answer is never a 304: the buyer paid for the body). */
export function serializedResponse(
  request: Request | null,
  { body, etag, contentType }: Serialized,
  headers: Record<string, string>,
  status = 200,
): Response {
  const all = { 'content-type': contentType ?? JSON_TYPE, etag, ...headers }
  if (request?.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: all })
  return new Response(body, { status, headers: all })
}

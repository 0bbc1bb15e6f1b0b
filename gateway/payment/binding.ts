/**
 * Request binding: a challenge pays for exactly one query. The `opaque` parameter carries the
 * normalised request (HTTP method, path and query, or MCP tool and arguments); it is bound into
 * the challenge id, and a credential is accepted only for the request it names.
 */

import { decodeText, encodeBytes, encodeText } from '../../schema/base64url.js'
import { canonicalize } from '../../schema/jcs.js'

export interface Binding {
  via: 'http' | 'mcp'
  /** `GET /v1/fde-lessons` over HTTP, the tool name over MCP. */
  target: string
  /** The normalised filters, e.g. `topic=retry` (empty when none). */
  query: string
}

/** Filters sorted by name, empty ones dropped, so equivalent requests bind identically. */
export function normaliseQuery(filters: Record<string, string | undefined>): string {
  return Object.entries(filters)
    .filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '')
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&')
}

/**
 * The `opaque` of a new challenge: the binding plus a random nonce, so every challenge issued has
 * its own id even for the same request in the same second (two buyers never share one).
 */
export function opaqueFor(binding: Binding): string {
  const nonce = encodeBytes(crypto.getRandomValues(new Uint8Array(16)))
  return encodeText(canonicalize({ nonce, query: binding.query, target: binding.target, via: binding.via }))
}

/** Whether an echoed `opaque` names this request (its id, checked before, proves we issued it). */
export function opaqueBinds(opaque: string | undefined, binding: Binding): boolean {
  if (!opaque) return false
  try {
    const bound = JSON.parse(decodeText(opaque)) as Record<string, unknown>
    return (
      typeof bound.nonce === 'string' &&
      bound.via === binding.via &&
      bound.target === binding.target &&
      bound.query === binding.query
    )
  } catch {
    return false
  }
}

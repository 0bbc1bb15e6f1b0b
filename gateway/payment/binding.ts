/**
 * Request binding: a challenge pays for exactly one query. The `opaque` parameter carries the
 * normalised request (HTTP method, path and query, or MCP tool and arguments); it is bound into
 * the challenge id, and a credential is accepted only for the request it names.
 */

import { canonicalize } from '../../schema/jcs.js'
import { encodeText } from './base64url.js'

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

export function opaqueFor(binding: Binding): string {
  return encodeText(canonicalize({ query: binding.query, target: binding.target, via: binding.via }))
}

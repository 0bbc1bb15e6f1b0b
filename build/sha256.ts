/**
 * Canonical JSON: object keys sorted at every depth, so equal data always gives equal bytes and hashes.
 */
import { createHash } from 'node:crypto'

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    )
  return value
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * The Idempotency-Key a paid request may carry (HTTP header, or `_meta["idempotency-key"]` over
 * MCP): repeated with the same credential within ANSWER_REPLAY_HOURS (schema/money-back.ts), the
 * request gets its original answer again.
 * The IETF draft writes the header as a structured-field string ("…"); a bare value is taken too.
 */
import { IDEMPOTENCY_KEY_RULE } from '../../schema/money-back.js'

export { IDEMPOTENCY_KEY_RULE }
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key'
export const IDEMPOTENCY_KEY_META = 'idempotency-key'

const KEY = /^[\x21\x23-\x5b\x5d-\x7e]{1,255}$/

/** The key, `undefined` when absent, or `null` when present but not a valid key. */
export function parseIdempotencyKey(raw: unknown): string | undefined | null {
  if (raw === undefined || raw === null) return undefined
  if (typeof raw !== 'string') return null
  const trimmed = raw.trim()
  const value =
    trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed
  return KEY.test(value) ? value : null
}

/**
 * Submit flood control: a one-minute window per client that opens at the client's first attempt,
 * counted in D1 so every isolate shares it. Default 30 attempts per client per window (var
 * SUBMIT_LIMIT_PER_MINUTE); the 31st inside the window gets 429 with Retry-After = seconds left in
 * it. The window opens with the client, not on the wall clock's minute, so a burst is counted in one
 * window wherever it falls (a fixed minute let a burst across hh:mm:59 → hh:mm+1:00 through twice).
 * Attempts are counted before the body is read, so invalid floods are limited too.
 *
 * The client is CF-Connecting-IP (set by Cloudflare, not by the caller; an IPv6 address counts by its
 * /64, what one subscriber usually gets), or `local` when absent (wrangler dev, tests). Only
 * SHA-256 of the client is stored, with its window's opening time (ms), and the rows of closed
 * windows are deleted by the next attempt of anyone.
 */

import { ipPrefix } from '../http/ip-prefix.js'
import { sha256Hex } from '../sha256-hex.js'

export const WINDOW_SECONDS = 60
export const DEFAULT_LIMIT_PER_MINUTE = 30

export type SlotTaken = { ok: true } | { ok: false; retryAfter: number }

/**
 * What the limiter asks of its database: statements bound and run together in one batch. A
 * D1Database is one; written out so a test in Node can pass the one Miniflare hands it.
 */
export interface BatchDatabase<Statement> {
  prepare(query: string): { bind(...values: unknown[]): Statement }
  batch(statements: Statement[]): Promise<{ results: unknown[] }[]>
}

export function limitPerMinute(configured: string | undefined): number {
  const n = Number(configured)
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_LIMIT_PER_MINUTE
}

/** The client's network at the given prefix lengths; `local` with no address, the value as given if unparsable. */
function clientNetwork(request: Request, v4Bits: number, v6Bits: number): string {
  const ip = request.headers.get('cf-connecting-ip')?.trim()
  if (!ip) return 'local'
  return ipPrefix(ip, v4Bits, v6Bits) ?? ip
}

/** Whom the flood limit counts: an IPv4 address or an IPv6 /64. */
export const clientKey = (request: Request) => clientNetwork(request, 32, 64)

/**
 * Who a submission counts as for the disclosure rule: the client's network (IPv4 /24, IPv6 /48),
 * not its address, so one party with several cheap addresses or /64s counts once.
 */
export const submitterNetwork = (request: Request) => clientNetwork(request, 24, 48)

/**
 * Counts one attempt made at `now` (ms since the epoch; the caller's clock, so tests choose it).
 * One batch is one transaction: closed windows go, the client's window opens if none is open, and
 * `n = n + 1 RETURNING` counts the attempt, so concurrent attempts each count once.
 */
export async function takeSubmitSlot<Statement>(
  db: BatchDatabase<Statement>,
  client: string,
  limit: number,
  now: number,
): Promise<SlotTaken> {
  const windowMs = WINDOW_SECONDS * 1000
  const hash = await sha256Hex(`submit-window:${client}`)
  const [, , counted] = await db.batch([
    db.prepare('DELETE FROM submit_windows WHERE window_start <= ?1').bind(now - windowMs),
    db
      .prepare(
        `INSERT INTO submit_windows (client_hash, window_start, n) SELECT ?1, ?2, 0
         WHERE NOT EXISTS (SELECT 1 FROM submit_windows WHERE client_hash = ?1)`,
      )
      .bind(hash, now),
    db
      .prepare('UPDATE submit_windows SET n = n + 1 WHERE client_hash = ?1 RETURNING n, window_start')
      .bind(hash),
  ])
  const row = counted?.results[0] as { n: number; window_start: number } | undefined
  if (!row || row.n <= limit) return { ok: true }
  return { ok: false, retryAfter: Math.max(1, Math.ceil((row.window_start + windowMs - now) / 1000)) }
}

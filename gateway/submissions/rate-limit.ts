/**
 * Submit flood control: a fixed one-minute window per client, counted in D1 so every isolate shares
 * it. Default 30 attempts per client per minute (var SUBMIT_LIMIT_PER_MINUTE); the 31st inside the
 * same minute gets 429 with Retry-After = seconds left in the window. Attempts are counted before the
 * body is read, so invalid floods are limited too.
 *
 * The client is CF-Connecting-IP (set by Cloudflare, not by the caller; an IPv6 address counts by its
 * /64, what one subscriber usually gets), or `local` when absent (wrangler dev, tests). Only
 * SHA-256(window, client) is stored, and rows of past windows are deleted as new windows start.
 */

import { ipPrefix } from '../http/ip-prefix.js'
import { sha256Hex } from '../sha256-hex.js'

export const WINDOW_SECONDS = 60
export const DEFAULT_LIMIT_PER_MINUTE = 30

export type SlotTaken = { ok: true } | { ok: false; retryAfter: number }

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

/** Counts one attempt; `n = n + 1 RETURNING n` is atomic, so concurrent attempts each count once. */
export async function takeSubmitSlot(
  db: D1Database,
  client: string,
  limit: number,
  now = Date.now(),
): Promise<SlotTaken> {
  const window = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS
  const hash = await sha256Hex(`${window}:${client}`)
  const [, counted] = await db.batch<{ n: number }>([
    db.prepare('DELETE FROM submit_windows WHERE window_start < ?1').bind(window),
    db
      .prepare(
        `INSERT INTO submit_windows (client_hash, window_start, n) VALUES (?1, ?2, 1)
         ON CONFLICT (client_hash, window_start) DO UPDATE SET n = n + 1 RETURNING n`,
      )
      .bind(hash, window),
  ])
  const n = counted?.results[0]?.n ?? 1
  if (n <= limit) return { ok: true }
  return { ok: false, retryAfter: Math.max(1, Math.ceil(window + WINDOW_SECONDS - now / 1000)) }
}

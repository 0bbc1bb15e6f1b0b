/**
 * A sliding window of failed payment attempts, as the times kept for it (oldest first): at `limit`
 * within `windowMs`, further claims wait until the oldest leaves the window. Only failures count,
 * so a buyer who pays successfully at any rate is never slowed; a claim at the processor holds a
 * place until it ends, so at most `limit` are there at once. Pure: the limiter keeps the times.
 */
/** A made-up token costs one processor call; ten a minute is far past any honest buyer's bad luck. */
export const FAILED_PAYMENTS_PER_MINUTE = 10
/**
 * New processor intents of one client that did not complete (refused, waiting for an extra step,
 * or processing; never the processor's own failures), per hour: far more than an honest buyer's, and few enough that one
 * client cannot bury the account's real orphans under its own.
 */
export const UNFINISHED_PAYMENTS_PER_HOUR = 100

export interface Budget {
  limit: number
  windowMs: number
  /** A shared address: past its limit, room for one more claim per this long. */
  roomMs?: number
}

/** What a limiter keeps of one window: failure times (oldest first), and when its room was last taken. */
export interface Kept {
  times: number[]
  room?: number
}

/** A place reserved for a claim at the processor (attempt-limiter.ts): it lapses at `until`. */
export interface Hold {
  id: string
  until: number
  /** When it was taken. */
  at: number
  /** The rooms it took (past a shared address's bound), with what each held before (null: none). */
  rooms: Record<string, number | null>
}

/** A window with its live holds as places taken: each frees by `until` at the latest (released or counted). */
export function withHolds(kept: Kept | undefined, holds: Hold[], b: Budget): Kept {
  const times = [...(kept?.times ?? []), ...holds.map((h) => h.until - b.windowMs)].sort((x, y) => x - y)
  return { times, ...(kept?.room === undefined ? {} : { room: kept.room }) }
}

/** Milliseconds until a claim is allowed, 0 when one is allowed now. */
export function waitMs(kept: Kept | undefined, b: Budget, now: number): number {
  const live = (kept?.times ?? []).filter((t) => t > now - b.windowMs)
  if (live.length < b.limit) return 0
  // Only the newest `limit` are kept (spent), so the oldest kept is the one that frees a place.
  const full = (live[live.length - b.limit] as number) + b.windowMs - now
  if (b.roomMs === undefined) return full
  return Math.max(0, Math.min(full, (kept?.room ?? Number.NEGATIVE_INFINITY) + b.roomMs - now))
}

/** What to keep after a failure at `now`: the times still in the window, at most `limit`; a claim past the limit took the room. */
export function spent(kept: Kept | undefined, b: Budget, now: number): Kept {
  const live = (kept?.times ?? []).filter((t) => t > now - b.windowMs)
  const room = live.length >= b.limit ? now : kept?.room
  return { times: [...live, now].slice(-b.limit), ...(room === undefined ? {} : { room }) }
}

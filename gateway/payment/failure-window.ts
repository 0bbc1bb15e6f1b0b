/**
 * A sliding window of failed payment attempts for one client: at `limit` failures within
 * `windowMs`, further attempts are turned away until the oldest failure leaves the window.
 * Only failures count, so a buyer who pays successfully at any rate is never slowed.
 */
/** A made-up token costs one processor call; ten a minute is far past any honest buyer's bad luck. */
export const FAILED_PAYMENTS_PER_MINUTE = 10
/**
 * New processor intents of one client that did not complete (refused, waiting for an extra step,
 * or processing; never the processor's own failures), per hour: far more than an honest buyer's, and few enough that one
 * client cannot bury the account's real orphans under its own.
 */
export const UNFINISHED_PAYMENTS_PER_HOUR = 100

export class FailureWindow {
  private failures: number[] = []

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until another attempt is allowed, or 0 when one is allowed now. */
  retryAfterS(now: number): number {
    this.failures = this.failures.filter((t) => t > now - this.windowMs)
    if (this.failures.length < this.limit) return 0
    return Math.max(1, Math.ceil(((this.failures[0] as number) + this.windowMs - now) / 1000))
  }

  fail(now: number): void {
    this.failures.push(now)
  }
}

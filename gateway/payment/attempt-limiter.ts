/**
 * Failed payment attempts per client, one Durable Object per client (named by a hash of its
 * address, never the address). Kept in memory only: nothing about a client is written to disk,
 * and an evicted object forgets, which errs on the side of the buyer.
 */
import { DurableObject } from 'cloudflare:workers'
import { FAILED_PAYMENTS_PER_MINUTE, FailureWindow } from './failure-window.js'

export class AttemptLimiter extends DurableObject<{ FAILED_PAYMENTS_PER_MINUTE?: string }> {
  private readonly window = new FailureWindow(
    Number(this.env.FAILED_PAYMENTS_PER_MINUTE ?? FAILED_PAYMENTS_PER_MINUTE),
    60_000,
  )

  retryAfterS(): number {
    return this.window.retryAfterS(Date.now())
  }

  fail(): void {
    this.window.fail(Date.now())
  }
}

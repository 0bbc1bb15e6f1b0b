/**
 * Payment attempts per client, one Durable Object per client (named by a hash of its address,
 * never the address), over two budgets: the processor's fresh refusals (a made-up or stolen card,
 * per minute), and every new processor intent that did not complete (per hour): a card that
 * always needs an extra step or always stays processing costs the buyer nothing, yet each try adds
 * an intent to the processor account that the reconciler and every retry must read past. Kept in
 * memory only: nothing about a client is written to disk, and an evicted object forgets, which
 * errs on the side of the buyer.
 */
import { DurableObject } from 'cloudflare:workers'
import { FAILED_PAYMENTS_PER_MINUTE, FailureWindow, UNFINISHED_PAYMENTS_PER_HOUR } from './failure-window.js'

interface LimiterEnv {
  FAILED_PAYMENTS_PER_MINUTE?: string
  UNFINISHED_PAYMENTS_PER_HOUR?: string
}

export class AttemptLimiter extends DurableObject<LimiterEnv> {
  private readonly refused = new FailureWindow(
    Number(this.env.FAILED_PAYMENTS_PER_MINUTE ?? FAILED_PAYMENTS_PER_MINUTE),
    60_000,
  )
  private readonly unfinished = new FailureWindow(
    Number(this.env.UNFINISHED_PAYMENTS_PER_HOUR ?? UNFINISHED_PAYMENTS_PER_HOUR),
    60 * 60_000,
  )

  retryAfterS(): number {
    const now = Date.now()
    return Math.max(this.refused.retryAfterS(now), this.unfinished.retryAfterS(now))
  }

  fail(): void {
    this.refused.fail(Date.now())
  }

  leftUnfinished(): void {
    this.unfinished.fail(Date.now())
  }
}

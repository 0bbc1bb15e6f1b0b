/**
 * Keeps the failure windows of one budget (a client, an IPv6 /48, or the whole account; attempts.ts
 * names them), one Durable Object each, named by a hash of the key, never the address. The times
 * live in the object's storage, so an evicted or restarted object still knows them; an alarm
 * deletes everything once the newest time has left its window, so nothing about a client is kept
 * longer than its budget needs it (an hour at most). The arithmetic is failure-window.ts's.
 */
import { DurableObject } from 'cloudflare:workers'
import { type Budget, type Kept, spent, waitMs } from './failure-window.js'

export class AttemptLimiter extends DurableObject {
  /** Seconds until a claim is allowed under every named window, 0 when one is allowed now. */
  async waitS(budgets: Record<string, Budget>): Promise<number> {
    const kept = await this.ctx.storage.get<Kept>(Object.keys(budgets))
    const now = Date.now()
    const ms = Object.entries(budgets).map(([name, b]) => waitMs(kept.get(name), b, now))
    return Math.ceil(Math.max(0, ...ms) / 1000)
  }

  /** Counts a failure in the named window. */
  async spend(name: string, b: Budget): Promise<void> {
    const now = Date.now()
    const until = Math.max((await this.ctx.storage.get<number>('until')) ?? 0, now + b.windowMs)
    await this.ctx.storage.put({
      [name]: spent(await this.ctx.storage.get<Kept>(name), b, now),
      until,
    })
    await this.ctx.storage.setAlarm(until)
  }

  /** Failures in the named window now (the account's backlog, for the reconciler's metric). */
  async count(name: string, windowMs: number): Promise<number> {
    const now = Date.now()
    return ((await this.ctx.storage.get<Kept>(name))?.times ?? []).filter((t) => t > now - windowMs).length
  }

  override async alarm(): Promise<void> {
    const until = (await this.ctx.storage.get<number>('until')) ?? 0
    if (Date.now() >= until) await this.ctx.storage.deleteAll()
    else await this.ctx.storage.setAlarm(until)
  }
}

/**
 * Keeps the failure windows of one budget (a client, an IPv6 /48, or the whole account; attempts.ts
 * names them), one Durable Object each, named by a hash of the key, never the address. The times
 * live in the object's storage, so an evicted or restarted object still knows them; an alarm
 * deletes everything once the newest time (or hold) has left its window, so nothing about a client
 * is kept longer than its budget needs it (an hour at most). The arithmetic is failure-window.ts's.
 *
 * A new claim reserves its place (a hold) before its processor call, in one call that checks and
 * reserves: claims sent at once cannot all see the same room. The hold becomes a count if the
 * claim ends unfinished or refused, is released otherwise, and lapses on its own at `until`.
 */
import { DurableObject } from 'cloudflare:workers'
import { type Budget, type Hold, type Kept, spent, waitMs, withHolds } from './failure-window.js'

export class AttemptLimiter extends DurableObject {
  /**
   * Reserves a place under every named window for hold `id` until `holdMs` from now; answers 0, or
   * the seconds to wait (nothing reserved). Atomic: no other call runs between its read and write.
   */
  reserve(budgets: Record<string, Budget>, id: string, holdMs: number): Promise<number> {
    return this.alone(() => this.reserveNow(budgets, id, holdMs))
  }

  private async reserveNow(budgets: Record<string, Budget>, id: string, holdMs: number): Promise<number> {
    const wait = await this.waitS(budgets)
    if (wait > 0) return wait
    const now = Date.now()
    const kept = await this.ctx.storage.get<Kept>(Object.keys(budgets))
    const holds = (await this.holds()).filter((h) => h.until > now)
    // A place past the bound is a shared address's room: taken now, given back if the hold is released.
    const rooms: Record<string, number | null> = {}
    const put: Record<string, unknown> = {}
    for (const [name, b] of Object.entries(budgets)) {
      const k = kept.get(name)
      if (withHolds(k, holds, b).times.filter((t) => t > now - b.windowMs).length < b.limit) continue
      rooms[name] = k?.room ?? null
      put[name] = { times: k?.times ?? [], room: now }
    }
    const until = now + holdMs
    await this.ctx.storage.put({ ...put, holds: [...holds, { id, until, at: now, rooms }] })
    await this.extend(until)
    return 0
  }

  /** Seconds until a claim is allowed under every named window (holds count), 0 when one is now; reserves nothing. */
  async waitS(budgets: Record<string, Budget>): Promise<number> {
    const now = Date.now()
    const kept = await this.ctx.storage.get<Kept>(Object.keys(budgets))
    const holds = (await this.holds()).filter((h) => h.until > now)
    const ms = Object.entries(budgets).map(([name, b]) => waitMs(withHolds(kept.get(name), holds, b), b, now))
    return Math.ceil(Math.max(0, ...ms) / 1000)
  }

  /** Gives back hold `id`, and the room it took; a hold already counted or lapsed is nothing. */
  release(id: string): Promise<void> {
    return this.alone(() => this.releaseNow(id))
  }

  private async releaseNow(id: string): Promise<void> {
    const holds = await this.holds()
    const hold = holds.find((h) => h.id === id)
    if (!hold) return
    const put: Record<string, unknown> = { holds: holds.filter((h) => h !== hold) }
    for (const [name, room] of Object.entries(hold.rooms)) {
      const k = await this.ctx.storage.get<Kept>(name)
      if (k?.room === hold.at) put[name] = { times: k.times, ...(room === null ? {} : { room }) }
    }
    await this.ctx.storage.put(put)
  }

  /** Counts a failure in the named window, in place of hold `id` if one was taken. */
  spend(name: string, b: Budget, id?: string): Promise<void> {
    return this.alone(() => this.spendNow(name, b, id))
  }

  private async spendNow(name: string, b: Budget, id?: string): Promise<void> {
    const now = Date.now()
    const holds = (await this.holds()).filter((h) => h.id !== id)
    await this.ctx.storage.put({ [name]: spent(await this.ctx.storage.get<Kept>(name), b, now), holds })
    await this.extend(now + b.windowMs)
  }

  /** Failures in the named window now (the account's backlog, for the reconciler's metric). */
  async count(name: string, windowMs: number): Promise<number> {
    const now = Date.now()
    return ((await this.ctx.storage.get<Kept>(name))?.times ?? []).filter((t) => t > now - windowMs).length
  }

  /**
   * Runs a read-then-write with no other call in between: storage's own gates were seen to let 4 of
   * 9 reserves made at once through a budget of 3, so each change to the windows runs alone.
   */
  private alone<T>(change: () => Promise<T>): Promise<T> {
    return this.ctx.blockConcurrencyWhile(change)
  }

  override async alarm(): Promise<void> {
    const until = (await this.ctx.storage.get<number>('until')) ?? 0
    if (Date.now() >= until) await this.ctx.storage.deleteAll()
    else await this.ctx.storage.setAlarm(until)
  }

  private async holds(): Promise<Hold[]> {
    return (await this.ctx.storage.get<Hold[]>('holds')) ?? []
  }

  /** Everything is kept until `until` at least, then deleted by the alarm. */
  private async extend(until: number): Promise<void> {
    const kept = Math.max((await this.ctx.storage.get<number>('until')) ?? 0, until)
    await this.ctx.storage.put('until', kept)
    await this.ctx.storage.setAlarm(kept)
  }
}

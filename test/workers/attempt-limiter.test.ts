/**
 * The attempt limiter keeps its windows in Durable Object storage (#36 L1): an object evicted from
 * memory and built again over the same storage still limits, and an alarm deletes what it keeps
 * once the newest failure has left its window. Inside workerd, on the real object's storage and alarm.
 *
 * Eviction is driven, never waited for: a second instance of the class is built over the same state,
 * which is what workerd does after evicting an idle object. Alarms are driven too: each one lies
 * ahead, and time passing is the stored times moved back (as the ledger retention tests do).
 */
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { AttemptLimiter } from '../../gateway/payment/attempt-limiter.js'
import type { Budget, Hold, Kept } from '../../gateway/payment/failure-window.js'

const HOUR = 60 * 60 * 1000
const hourly: Budget = { limit: 3, windowMs: HOUR }
const namespace = (env as unknown as { ATTEMPTS: DurableObjectNamespace<AttemptLimiter> }).ATTEMPTS
const limiter = () => namespace.get(namespace.newUniqueId())

/** Every stored time (and the alarm's `until`) moved back by `ms`: the clock moved on. */
const aged = (ms: number) => (_: AttemptLimiter, state: DurableObjectState) =>
  (async () => {
    const kept = await state.storage.get<Kept>('unfinished')
    const until = await state.storage.get<number>('until')
    await state.storage.put({
      unfinished: { ...kept, times: (kept?.times ?? []).map((t) => t - ms) },
      until: (until ?? 0) - ms,
    })
  })()

describe('the attempt limiter', () => {
  it('behavior: an object built again over the same storage (eviction) still limits', async () => {
    const stub = limiter()
    for (let i = 0; i < hourly.limit; i++) await stub.spend('unfinished', hourly)
    expect(await stub.waitS({ unfinished: hourly })).toBeGreaterThan(HOUR / 1000 - 60)
    // What workerd does after evicting the idle object: a new instance, its memory empty.
    const afterEviction = await runInDurableObject(stub, (_, state) =>
      new AttemptLimiter(state, env as never).waitS({ unfinished: hourly }),
    )
    expect(afterEviction).toBeGreaterThan(HOUR / 1000 - 60)
  })

  it('behavior: the alarm keeps the windows until the newest failure leaves them, then deletes them', async () => {
    const stub = limiter()
    for (let i = 0; i < hourly.limit; i++) await stub.spend('unfinished', hourly)
    const alarm = await runInDurableObject(stub, (_, state) => state.storage.getAlarm())
    expect(alarm).toBe(await runInDurableObject(stub, (_, state) => state.storage.get<number>('until')))
    // Run before its time (an alarm may fire early): nothing goes, and it waits for its time again.
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    expect(await stub.waitS({ unfinished: hourly })).toBeGreaterThan(0)
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(alarm)
    // An hour passes: the window is spent, the alarm deletes every key.
    await runInDurableObject(stub, aged(HOUR))
    await runInDurableObject(stub, (_, state) => state.storage.setAlarm(Date.now() + HOUR))
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    expect(await runInDurableObject(stub, async (_, state) => (await state.storage.list()).size)).toBe(0)
    expect(await stub.waitS({ unfinished: hourly })).toBe(0)
  })

  it('behavior: a shared address past its bound has room for one more claim, then waits for the room, not the hour', async () => {
    const shared: Budget = { ...hourly, roomMs: 5 * 60_000 }
    const stub = limiter()
    for (let i = 0; i < shared.limit; i++) await stub.spend('unfinished', shared)
    expect(await stub.waitS({ unfinished: shared })).toBe(0)
    await stub.spend('unfinished', shared)
    const wait = await stub.waitS({ unfinished: shared })
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(5 * 60)
    // The same times under the unshared budget: the hour.
    expect(await stub.waitS({ unfinished: hourly })).toBeGreaterThan(HOUR / 1000 - 60)
    expect(await stub.count('unfinished', HOUR)).toBe(shared.limit)
  })
})

describe('places held for claims at the processor', () => {
  it('behavior: claims reserved at once get at most the budget, and one call checks and reserves', async () => {
    const stub = limiter()
    const waits = await Promise.all(
      Array.from({ length: 9 }, (_, i) => stub.reserve({ unfinished: hourly }, `h${i}`, 60_000)),
    )
    expect(waits.filter((w) => w === 0)).toHaveLength(hourly.limit)
    // The places free when the holds do (a minute at most), not after the hour.
    for (const w of waits.filter((w) => w > 0)) expect(w).toBeLessThanOrEqual(60)
  })

  it('behavior: a released hold gives its place back; a counted one keeps it, once', async () => {
    const stub = limiter()
    for (const id of ['a', 'b', 'c']) expect(await stub.reserve({ unfinished: hourly }, id, 60_000)).toBe(0)
    await stub.release('a')
    expect(await stub.reserve({ unfinished: hourly }, 'd', 60_000)).toBe(0)
    await stub.spend('unfinished', hourly, 'b')
    await stub.release('b')
    expect(await stub.count('unfinished', HOUR)).toBe(1)
    expect(await stub.reserve({ unfinished: hourly }, 'e', 60_000)).toBeGreaterThan(0)
  })

  it('behavior: a hold never released lapses on its own, and the alarm deletes it', async () => {
    const stub = limiter()
    for (const id of ['a', 'b', 'c']) expect(await stub.reserve({ unfinished: hourly }, id, 60_000)).toBe(0)
    expect(await stub.waitS({ unfinished: hourly })).toBeGreaterThan(0)
    // The requests died: a minute passes (every hold and `until` moved back).
    await runInDurableObject(stub, async (_, state) => {
      const holds = (await state.storage.get<Hold[]>('holds')) ?? []
      await state.storage.put({
        holds: holds.map((h) => ({ ...h, until: h.until - 60_000 })),
        until: ((await state.storage.get<number>('until')) ?? 0) - 60_000,
      })
    })
    expect(await stub.waitS({ unfinished: hourly })).toBe(0)
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    expect(await runInDurableObject(stub, async (_, state) => (await state.storage.list()).size)).toBe(0)
  })

  it('behavior: a shared address room taken by a hold is given back when the hold is released', async () => {
    const shared: Budget = { ...hourly, roomMs: 5 * 60_000 }
    const stub = limiter()
    for (let i = 0; i < shared.limit; i++) await stub.spend('unfinished', shared)
    expect(await stub.reserve({ unfinished: shared }, 'room', 60_000)).toBe(0)
    // The room is held: a second claim at once waits.
    expect(await stub.reserve({ unfinished: shared }, 'next', 60_000)).toBeGreaterThan(0)
    // The first bought its answer: the room is there again.
    await stub.release('room')
    expect(await stub.reserve({ unfinished: shared }, 'next', 60_000)).toBe(0)
  })
})

/**
 * A paid call in two round trips (#45 item 4), inside workerd: the Worker asks the ledger once, and
 * the ledger reserves a new claim's places (and a wallet authorization's claim) in one parallel
 * call to the objects that keep them; what the claim cost is counted, and its places given back,
 * only after the answer. Copies of a new claim sent at once wait on it as copies, however few places
 * its client has left. The ledger is the real one with its calls written down (counting-ledger.ts);
 * processor, facilitator and chain are stand-ins (fetch).
 */
import { env, runInDurableObject } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import type { AttemptLimiter } from '../../gateway/payment/attempt-limiter.js'
import { issueChallenge } from '../../gateway/payment/challenge.js'
import { FAILED_PAYMENTS_PER_MINUTE } from '../../gateway/payment/failure-window.js'
import type { SettleInput } from '../../gateway/payment/ledger.js'
import { cardOffer } from '../../gateway/payment/methods.js'
import { type Ledger, pay } from '../../gateway/payment/pay.js'
import { sha256Hex } from '../../gateway/sha256-hex.js'
import { RESENDS_PER_MINUTE } from '../../schema/config.js'
import { testPayment } from '../support/payment-config.js'
import type { CountingLedger, ObjectCall } from './counting-ledger.js'
import { cardSettle } from './ledger-fixtures.js'
import { standins, walletClaim } from './wallet-fixtures.js'

const bindings = env as unknown as {
  COUNTED_LEDGER: DurableObjectNamespace<CountingLedger>
  ATTEMPTS: DurableObjectNamespace<AttemptLimiter>
}
const real = globalThis.fetch
afterEach(() => {
  globalThis.fetch = real
})

/** A processor that charges every card at once, counting its create calls. */
function chargingProcessor() {
  const seen = { creates: 0 }
  globalThis.fetch = (async () => {
    seen.creates++
    return new Response(JSON.stringify({ id: 'pi_1', status: 'succeeded' }))
  }) as typeof fetch
  return seen
}

/** A client key of its own per test (client-key.ts: a Worker zone's), so no budget is shared. */
const freshClient = () => `worker:round-trips-${crypto.randomUUID()}`

/** The longest run of calls in which each starts only after the one before it ended. */
function inSequence(calls: ObjectCall[]): number {
  const byEnd = [...calls].sort((a, b) => (a.end ?? 0) - (b.end ?? 0))
  const depth = new Map<ObjectCall, number>()
  for (const call of byEnd)
    depth.set(
      call,
      1 + Math.max(0, ...byEnd.filter((c) => (c.end ?? Infinity) < call.start).map((c) => depth.get(c) ?? 0)),
    )
  return Math.max(0, ...depth.values())
}

/** The ledger's calls to other objects made before its (first) answer, and those made after. */
async function callsAround(ledger: DurableObjectStub<CountingLedger>) {
  return runInDurableObject(ledger, (object: CountingLedger) => {
    const answered = object.answers[0] ?? Infinity
    return {
      before: object.calls.filter((c) => c.start < answered),
      after: object.calls.filter((c) => c.start > answered),
    }
  })
}

describe('a paid call in two round trips', () => {
  it('behavior: a card call: one ledger call from the Worker, and one parallel round of reserves inside it; places given back after the answer', async () => {
    const processor = chargingProcessor()
    const config = { ...testPayment, processor: { ...testPayment.processor, url: 'https://processor.test' } }
    const binding = { via: 'http' as const, target: 'GET /v1/fde-lessons', query: 'topic=retry' }
    const ledger = bindings.COUNTED_LEDGER.get(bindings.COUNTED_LEDGER.newUniqueId())
    // The Worker's side, written down as the ledger's: each call it makes to the ledger object.
    const workerCalls: string[] = []
    const counted: Ledger = {
      settle: (challengeId, input) => {
        workerCalls.push('ledger.settle')
        return ledger.settle({ challengeId, ...input })
      },
      keepAnswer: async () => {},
      refundIfOrphaned: async () => 'not-found' as never,
    }
    const challenge = await issueChallenge(config, cardOffer(config), binding, 'Lessons')
    const settled = await pay(
      config,
      counted,
      { challenge, payload: { spt: 'spt_test_ok' } },
      binding,
      // An IPv6 client: its /64, its /48 and the account, three places reserved.
      '2001:db8:45:4::/64',
    )
    expect(settled.ok).toBe(true)
    expect(processor.creates).toBe(1)
    expect(workerCalls).toEqual(['ledger.settle'])
    const { before, after } = await callsAround(ledger)
    expect(before.map((c) => c.what)).toEqual(['limiter.reserve', 'limiter.reserve', 'limiter.reserve'])
    // Every object call on the path is one round trip: the Worker's one call, and the reserves inside it.
    expect(workerCalls.length + inSequence(before)).toBe(2)
    // Nothing is given back before the answer: held until now, then the three places go back.
    expect(after).toEqual([])
    await runInDurableObject(ledger, (object: CountingLedger) => {
      object.letAfterAnswersGo()
      return object.afterAnswersDone()
    })
    const released = (await callsAround(ledger)).after.map((c) => c.what)
    expect(released).toEqual(['limiter.release', 'limiter.release', 'limiter.release'])
  })

  it('behavior: a wallet claim reserves its places and claims its authorization in the same round', async () => {
    standins('settle')
    const ledger = bindings.COUNTED_LEDGER.get(bindings.COUNTED_LEDGER.newUniqueId())
    const expiresAt = Date.now() + 60_000
    const input: SettleInput = {
      ...walletClaim(`wallet-${crypto.randomUUID()}`, expiresAt),
      client: freshClient(),
      tokenClaim: { token: `token-${crypto.randomUUID()}`, keepUntil: expiresAt },
    }
    const settled = await ledger.settle(input)
    expect(settled.ok).toBe(true)
    const { before } = await callsAround(ledger)
    expect(before.map((c) => c.what).sort()).toEqual([
      'limiter.reserve',
      'limiter.reserve',
      'token.claimToken',
    ])
    expect(inSequence(before)).toBe(1)
    await runInDurableObject(ledger, (object: CountingLedger) => object.letAfterAnswersGo())
  })

  it('refusal: an authorization already given for another challenge is refused before any settlement, and its places go back', async () => {
    standins('settle')
    const token = `token-${crypto.randomUUID()}`
    const expiresAt = Date.now() + 60_000
    const claim = (challengeId: string): SettleInput => ({
      ...walletClaim(challengeId, expiresAt),
      client: freshClient(),
      tokenClaim: { token, keepUntil: expiresAt },
    })
    const first = bindings.COUNTED_LEDGER.get(bindings.COUNTED_LEDGER.newUniqueId())
    expect((await first.settle(claim('first'))).ok).toBe(true)
    const second = bindings.COUNTED_LEDGER.get(bindings.COUNTED_LEDGER.newUniqueId())
    let settles = 0
    globalThis.fetch = (async () => {
      settles++
      return new Response('{}')
    }) as typeof fetch
    expect(await second.settle(claim('second'))).toMatchObject({ ok: false, reason: 'token-taken' })
    expect(settles).toBe(0)
    const given = await runInDurableObject(second, async (object: CountingLedger) => {
      object.letAfterAnswersGo()
      await object.afterAnswersDone()
      return object.calls.filter((c) => c.what === 'limiter.release').length
    })
    expect(given).toBe(2)
    await runInDurableObject(first, (object: CountingLedger) => object.letAfterAnswersGo())
  })
})

describe('a new claim whose objects fail', () => {
  for (const failing of ['limiter.reserve', 'token.claimToken'])
    it(`money: ${failing} fails: nothing is claimed or charged, every place taken goes back, and the same credential can pay after`, async () => {
      standins('settle')
      let calls = 0
      const stand = globalThis.fetch
      globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
        calls++
        return stand(...args)
      }) as typeof fetch
      const ledger = bindings.COUNTED_LEDGER.get(bindings.COUNTED_LEDGER.newUniqueId())
      const expiresAt = Date.now() + 60_000
      const input: SettleInput = {
        ...walletClaim(`failing-${crypto.randomUUID()}`, expiresAt),
        // An IPv6 client: three places, so one failing reserve leaves two taken.
        client: '2001:db8:45:5::/64',
        tokenClaim: { token: `token-${crypto.randomUUID()}`, keepUntil: expiresAt },
      }
      await runInDurableObject(ledger, (object: CountingLedger) => {
        object.failing.add(failing)
        object.letAfterAnswersGo()
      })
      const failed = await ledger.settle(input).then(
        () => 'settled',
        (error: Error) => error.message,
      )
      expect(failed).toMatch(/could not be reached/)
      expect(calls).toBe(0)
      const { taken, given } = await runInDurableObject(ledger, async (object: CountingLedger) => {
        await object.afterAnswersDone()
        const reserves = object.calls.filter((c) => c.what === 'limiter.reserve')
        return {
          taken: failing === 'limiter.reserve' ? reserves.length - 1 : reserves.length,
          given: object.calls.filter((c) => c.what === 'limiter.release').length,
        }
      })
      expect(taken).toBeGreaterThan(0)
      expect(given).toBe(taken)
      // Nothing was claimed: the same credential, its objects reachable again, pays.
      expect((await ledger.settle(input)).ok).toBe(true)
    })
})

describe('copies of a new claim', () => {
  it(`money: 11 copies sent at once with one place left for their client: one charge, one reserve per object, no 429 for want of a place; each gets the one answer or the re-send rate's`, async () => {
    const processor = chargingProcessor()
    const client = freshClient()
    // The client's own object: every place but one already held by claims of its own.
    const own = bindings.ATTEMPTS.get(bindings.ATTEMPTS.idFromName(await sha256Hex(`attempts:${client}`)))
    const perMinute = { limit: FAILED_PAYMENTS_PER_MINUTE, windowMs: 60_000 }
    for (let i = 1; i < FAILED_PAYMENTS_PER_MINUTE; i++)
      expect(await own.reserve({ refused: perMinute }, `held-${i}`, 60_000)).toBe(0)
    const ledger = bindings.COUNTED_LEDGER.get(bindings.COUNTED_LEDGER.newUniqueId())
    const input = cardSettle(
      Date.now() + 60_000,
      { url: 'https://processor.test', secret: 's', timeoutMs: 5_000 },
      {
        client,
        idempotencyKey: 'k',
      },
    )
    const copies = Array.from({ length: 11 }, () => ledger.settle(input))
    const first = await copies[0]
    expect(first?.ok).toBe(true)
    // The first request's face keeps its answer; copies under the same key are given that answer.
    await ledger.keepAnswer('k', { body: '{"answer":1}', headers: {} })
    const results = await Promise.all(copies)
    expect(processor.creates).toBe(1)
    expect(results.filter((r) => !r.ok && r.reason === 'limited')).toEqual([])
    const answered = results.filter((r) => r.ok)
    expect(answered).toHaveLength(1 + RESENDS_PER_MINUTE)
    for (const r of answered) expect(r.ok && r.receipt).toEqual(first?.ok && first.receipt)
    for (const r of results.filter((x) => !x.ok)) expect(r).toMatchObject({ reason: 'resend-limited' })
    const reserves = await runInDurableObject(ledger, (object: CountingLedger) => {
      object.letAfterAnswersGo()
      return object.calls.filter((c) => c.what === 'limiter.reserve').length
    })
    // The client's object and its account's: once each, for the one claim.
    expect(reserves).toBe(2)
  })
})

/**
 * Budgets that bound a client (#36 L1): the unfinished-intent budget survives a restart of the
 * Workers (the limiter's memory is gone, its storage is not); an IPv6 /48 is one budget beside each
 * of its /64s; a neighbour behind one shared IPv4 is not shut out for an hour by another client's
 * unfinished intents; and the whole processor account has a bound of its own, refused with 503.
 *
 * One service with small budgets. The tests run in order and share the account's count: 3 (the
 * /64) + 6 (the /48) + 4 (the shared IPv4) unfinished intents before the account test, whose bound
 * is the 14th.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHARED_ADDRESS_ROOM_MS } from '../../schema/config.js'
import { freePort, type RunningService, startService } from '../../scripts/local/service.js'
import { authorization, challengeFrom, token } from '../support/service.js'

const PER_CLIENT = 3
const PER_48 = 5
const ACCOUNT = 14
/** The room a shared address (IPv4, IPv6 /48) keeps past its bound: one more claim per this many seconds. */
const ROOM_S = SHARED_ADDRESS_ROOM_MS / 1000
let service: RunningService
let stateDir: string

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'rpi-budgets-'))
  service = await startService({
    port: await freePort(),
    stateDir,
    vars: {
      UNFINISHED_PAYMENTS_PER_HOUR: String(PER_CLIENT),
      UNFINISHED_PAYMENTS_PER_HOUR_PER_48: String(PER_48),
      ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR: String(ACCOUNT),
    },
  })
})

afterAll(async () => {
  await service?.stop()
  await rm(stateDir, { recursive: true, force: true })
})

const path = '/v1/fde-playbooks?topic=rollback'
const get = (headers: Record<string, string>) => fetch(`${service.url}${path}`, { headers })

/** A new claim from `ip`, paid with a stand-in token of `kind` (`action`: one unfinished intent, 402). */
async function claim(ip: string, kind = 'action') {
  const client = { 'cf-connecting-ip': ip }
  const challenge = challengeFrom(await get(client))
  const response = await get({ ...client, authorization: authorization(challenge, { spt: token(kind) }) })
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
  return { status: response.status, retryAfter: Number(response.headers.get('retry-after')), body }
}

describe('budgets that bound a client', () => {
  it('behavior: an IPv6 /64 at its budget stays limited after the Workers restart (storage, not memory)', async () => {
    const ip = '2001:db8:1:1::1'
    for (let i = 0; i < PER_CLIENT; i++) expect((await claim(ip)).status).toBe(402)
    expect((await claim(ip)).status).toBe(429)
    // Every object's memory is gone; what the limiter keeps in storage is not.
    await service.stopWorkers()
    await service.startWorkers()
    const after = await claim(ip)
    expect(after.status).toBe(429)
    expect(after.retryAfter).toBeGreaterThan(ROOM_S)
  })

  it('behavior: one IPv6 /48 spread over many /64s is one budget beside each /64 budget', async () => {
    // One unfinished intent from each of PER_48 /64s: each /64 is far from its own budget.
    for (let n = 1; n <= PER_48; n++) expect((await claim(`2001:db8:2:${n}::1`)).status).toBe(402)
    // The /48 is shared (a provider's customers, a campus): one more claim gets its room...
    expect((await claim('2001:db8:2:ff::1')).status).toBe(402)
    // ...and the next /64 of the same /48 is refused before any processor call.
    const limited = await claim('2001:db8:2:100::1')
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({ status: 429, retryable: 'same-credential' })
    expect(limited.retryAfter).toBeGreaterThan(0)
    expect(limited.retryAfter).toBeLessThanOrEqual(ROOM_S)
  })

  it('behavior: a neighbour behind a shared IPv4 buys at once, and waits minutes, never the hour', async () => {
    const shared = '198.18.5.5'
    for (let i = 0; i < PER_CLIENT; i++) expect((await claim(shared)).status).toBe(402)
    // The address is at its bound; a neighbour's first purchase still goes through.
    expect((await claim(shared, 'ok')).status).toBe(200)
    // The room holds one more unfinished claim; after that, the wait is the room's, not the hour.
    expect((await claim(shared)).status).toBe(402)
    const limited = await claim(shared, 'ok')
    expect(limited.status).toBe(429)
    expect(limited.retryAfter).toBeGreaterThan(0)
    expect(limited.retryAfter).toBeLessThanOrEqual(ROOM_S)
    // The challenge (30 minutes) outlives that wait: the same credential, sent again then.
    expect(limited.body).toMatchObject({ retryable: 'same-credential' })
  })

  it('behavior: the whole account has a bound of unfinished intents; past it every new claim gets 503', async () => {
    // 13 unfinished so far; a fresh client makes the 14th.
    expect((await claim('198.18.9.1')).status).toBe(402)
    const calls = service.processor.ledger.calls
    const busy = await claim('198.18.9.2', 'ok')
    expect(busy.status).toBe(503)
    expect(String(busy.body.type)).toMatch(/\/payments-busy$/)
    // No processor call was made: nothing was claimed or charged.
    expect(service.processor.ledger.calls).toBe(calls)
    // The wait is until the oldest of those intents leaves the hour: never past it.
    expect(busy.retryAfter).toBeGreaterThan(0)
    expect(busy.retryAfter).toBeLessThanOrEqual(60 * 60)
    // That wait outlives the 30-minute challenge, so the advice is a fresh payment after it.
    expect(busy.body).toMatchObject({ status: 503, retryable: 'pay-again' })
  })
})

/**
 * One client cannot add processor intents without bound (#30 L2): every new claim whose processor
 * call did not complete (waiting for an extra step, processing, refused, unanswered) counts against
 * an hourly budget, apart from the per-minute budget of refusals; past it, new claims get 429. A
 * credential the ledger knows is never limited, a retry of one costs nothing, and a payment that
 * succeeds counts nothing. Runs its own service with a small budget (the default is 100 an hour).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, type RunningService, startService } from '../../scripts/local/service.js'
import { authorization, challengeFrom, token } from '../support/service.js'

const BUDGET = 6
let service: RunningService
let stateDir: string

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'rpi-unfinished-'))
  service = await startService({
    port: await freePort(),
    stateDir,
    vars: { UNFINISHED_PAYMENTS_PER_HOUR: String(BUDGET) },
  })
})

afterAll(async () => {
  await service?.stop()
  await rm(stateDir, { recursive: true, force: true })
})

const path = '/v1/fde-playbooks?topic=rollback'
const get = (headers: Record<string, string>) => fetch(`${service.url}${path}`, { headers })
const processorCalls = () => service.processor.ledger.calls

/** A fresh challenge for `client`, paid with a stand-in token of `kind`. */
async function credential(client: Record<string, string>, kind: string) {
  const challenge = challengeFrom(await get(client))
  return { ...client, authorization: authorization(challenge, { spt: token(kind) }) }
}

describe('intents that do not complete', () => {
  it('behavior: past the hourly budget a client gets 429 for new claims, while its known credentials still settle', async () => {
    // An IPv6 /64, one host: no room kept for neighbours, as for a shared IPv4 (client-budgets.test.ts).
    const client = { 'cf-connecting-ip': '2001:db8:18:1::1' }
    // One processing payment: one intent. Retries of it add none and count nothing.
    const pending = await credential(client, 'processing')
    const first = await get(pending)
    expect(first.status).toBe(503)
    const intent = /pi_[A-Za-z0-9_]+/.exec(((await first.json()) as { detail: string }).detail)?.[0]
    for (let i = 0; i < BUDGET; i++) expect((await get(pending)).status).toBe(503)
    // A payment that succeeds counts nothing.
    expect((await get(await credential(client, 'ok'))).status).toBe(200)
    // The rest of the budget, alternating an extra step and processing: one intent each.
    for (let i = 1; i < BUDGET; i++) {
      const r = await get(await credential(client, i % 2 ? 'action' : 'processing'))
      expect(r.status).toBe(i % 2 ? 402 : 503)
    }
    // One more new claim: refused before the processor is called.
    const calls = processorCalls()
    const limited = await get(await credential(client, 'action'))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(limited.headers.get('www-authenticate')).toBeNull()
    // The wait (most of an hour) outlives the challenge (#36 L3): the credential will be dead by then,
    // and nothing was claimed or charged, so the advice is a new payment after the wait.
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(30 * 60)
    expect(await limited.json()).toMatchObject({ status: 429, retryable: 'pay-again' })
    expect(processorCalls()).toBe(calls)
    // A known credential is never limited: the processing payment completes and is delivered.
    await fetch(`${service.processor.url}/__standin/complete/${intent}`, { method: 'POST' })
    expect((await get(pending)).status).toBe(200)
    // Another client is another budget.
    expect((await get(await credential({ 'cf-connecting-ip': '2001:db8:19:1::1' }, 'action'))).status).toBe(
      402,
    )
  })

  it("behavior: the processor's own failures (a 500 before any payment) never spend a client's budget (#36 L1)", async () => {
    const client = { 'cf-connecting-ip': '198.18.0.7' }
    // More outage answers than the whole budget: each nothing charged, none the buyer's doing.
    for (let i = 0; i <= BUDGET; i++) expect((await get(await credential(client, 'error'))).status).toBe(503)
    // Its next purchase is not turned away.
    expect((await get(await credential(client, 'ok'))).status).toBe(200)
  })
})

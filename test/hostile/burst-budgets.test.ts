/**
 * A burst of simultaneous new claims is held to the budgets (#36 L1): a client's, and the whole
 * account's. The check and the count are one step (a place reserved in the limiter before the
 * processor call), so claims sent at once cannot all see the same room.
 *
 * Deterministic: every claim pays with a `…stallaction…` token, which the processor stand-in holds
 * until released and then leaves waiting for an extra step (an unfinished intent). The test waits
 * until every claim is either held at the stand-in or answered, then releases the held ones.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHALLENGE_TTL_MS } from '../../schema/config.js'
import { freePort, type RunningService, startService } from '../../scripts/local/service.js'
import { authorization, challengeFrom, token, until } from '../support/service.js'

const PER_CLIENT = 3
const ACCOUNT = 3
const BURST = 9
/** A wait past the challenge's life is advice to pay a fresh one. */
const CHALLENGE_S = CHALLENGE_TTL_MS / 1000
let service: RunningService
let stateDir: string

/** A service of its own for each describe, so each bound is reproduced alone. */
function serviceWith(vars: Record<string, string>) {
  beforeAll(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'rpi-burst-'))
    service = await startService({
      port: await freePort(),
      stateDir,
      // Held claims wait on the test, not the clock: the processor call never times out first.
      vars: { ...vars, PROCESSOR_TIMEOUT_MS: '600000' },
    })
  })
  afterAll(async () => {
    await service?.stop()
    await rm(stateDir, { recursive: true, force: true })
  })
}

const path = '/v1/fde-playbooks?topic=rollback'
const get = (headers: Record<string, string>) => fetch(`${service.url}${path}`, { headers })
const standin = async () =>
  (await (await fetch(`${service.processor.url}/__standin/ledger`)).json()) as { stalled: string[] }

interface Answer {
  status: number
  retryAfter: number
  body: Record<string, unknown>
}

/**
 * Sends one new claim from each of `ips` at once (each on its own challenge), waits until every one
 * is held at the processor or answered, releases the held ones, and returns every answer.
 */
async function burst(ips: string[]) {
  const calls = service.processor.ledger.calls
  const claims = await Promise.all(
    ips.map(async (ip) => ({ ip, challenge: challengeFrom(await get({ 'cf-connecting-ip': ip })) })),
  )
  const tokens = claims.map(() => token('stallaction'))
  let answered = 0
  const pending = claims.map(async ({ ip, challenge }, i): Promise<Answer> => {
    const response = await get({
      'cf-connecting-ip': ip,
      authorization: authorization(challenge, { spt: tokens[i] as string }),
    })
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
    answered++
    return { status: response.status, retryAfter: Number(response.headers.get('retry-after')), body }
  })
  const held = () => standin().then((s) => s.stalled.filter((t) => tokens.includes(t)))
  await until(async () => (await held()).length + answered === ips.length)
  const reached = service.processor.ledger.calls - calls
  for (const t of await held())
    await fetch(`${service.processor.url}/__standin/release/${t}`, { method: 'POST' })
  return { answers: await Promise.all(pending), reached }
}

describe('a burst of new claims is held to a client budget', () => {
  serviceWith({ UNFINISHED_PAYMENTS_PER_HOUR: String(PER_CLIENT) })

  it('behavior: 9 claims at once from one IPv6 /64 over a budget of 3: 3 reach the processor, 6 get 429', async () => {
    const ips = Array.from({ length: BURST }, (_, i) => `2001:db8:7:1::${i + 1}`)
    const { answers, reached } = await burst(ips)
    expect(reached).toBe(PER_CLIENT)
    // The three that reached it are left waiting for an extra step: unfinished, nothing charged.
    expect(answers.filter((a) => a.status === 402)).toHaveLength(PER_CLIENT)
    const limited = answers.filter((a) => a.status === 429)
    expect(limited).toHaveLength(BURST - PER_CLIENT)
    for (const a of limited) {
      // Refused while the others were still at the processor: the wait is until their places are
      // settled one way or the other, well within the challenge, so the same credential then.
      expect(a.retryAfter).toBeGreaterThan(0)
      expect(a.retryAfter).toBeLessThan(CHALLENGE_S)
      expect(a.body).toMatchObject({ status: 429, retryable: 'same-credential' })
    }
    // Now three are counted: the next claim from the /64 waits for the hour, past its challenge.
    const after = await burst([ips[0] as string])
    expect(after.reached).toBe(0)
    expect(after.answers[0]).toMatchObject({ status: 429, body: { retryable: 'pay-again' } })
    expect(after.answers[0]?.retryAfter).toBeGreaterThan(CHALLENGE_S)
    expect(after.answers[0]?.retryAfter).toBeLessThanOrEqual(60 * 60)
  })
})

describe('a burst of new claims is held to the account bound', () => {
  serviceWith({ ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR: String(ACCOUNT) })

  it('behavior: claims at once from many clients over the account bound: only the bound reach the processor, the rest 503', async () => {
    // One client per /48, each far from its own budgets.
    const ips = Array.from({ length: BURST }, (_, i) => `2001:db8:${100 + i}:1::1`)
    const { answers, reached } = await burst(ips)
    expect(reached).toBe(ACCOUNT)
    expect(answers.filter((a) => a.status === 402)).toHaveLength(ACCOUNT)
    const busy = answers.filter((a) => a.status === 503)
    expect(busy).toHaveLength(BURST - ACCOUNT)
    for (const a of busy) {
      expect(String(a.body.type)).toMatch(/\/payments-busy$/)
      expect(a.retryAfter).toBeGreaterThan(0)
      expect(a.retryAfter).toBeLessThan(CHALLENGE_S)
      expect(a.body).toMatchObject({ status: 503, retryable: 'same-credential' })
    }
  })
})

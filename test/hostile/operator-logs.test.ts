/**
 * What the operator's logs say is true (#30 item 7): overlapping reconciler runs report only the
 * refunds each one made (I4), and a client that hangs up in the middle of its body is logged as
 * such, never as an unhandled error with a 500 built for nobody (I7). Runs its own service, whose
 * Workers' console lines reach this process through Miniflare's log handler.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { freePort, type RunningService, startService } from '../../scripts/local/service.js'
import { hangUpMidBody } from '../support/hang-up.js'
import { authorization, challengeFrom, token } from '../support/service.js'

let service: RunningService
let stateDir: string
const lines: string[] = []

beforeAll(async () => {
  for (const level of ['log', 'info', 'warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '))
    })
  stateDir = await mkdtemp(join(tmpdir(), 'rpi-logs-'))
  service = await startService({ port: await freePort(), stateDir, verbose: true })
})

afterAll(async () => {
  await service?.stop()
  await rm(stateDir, { recursive: true, force: true })
  vi.restoreAllMocks()
})

async function until(check: () => boolean | Promise<boolean>) {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50))
}

describe('the reconciler report', () => {
  it('behavior: three overlapping runs report one refund between them, the one the processor made', async () => {
    const path = '/v1/fde-lessons?topic=retry'
    const challenge = challengeFrom(await fetch(`${service.url}${path}`))
    const spt = token('lost')
    // Charged, the answer lost, the buyer never back.
    const lost = await fetch(`${service.url}${path}`, {
      headers: { authorization: authorization(challenge, { spt }) },
    })
    expect(lost.status).toBe(503)
    const intent = service.processor.ledger.succeeded.get(spt) as string
    const later = Date.parse(challenge.expires as string) + 25 * 60 * 60_000
    const reports = () => lines.filter((l) => l.includes('reconciler {'))
    const before = reports().length
    await Promise.all(
      [0, 1, 2].map(async () => {
        const r = await fetch(`${service.url}/cdn-cgi/local/scheduled?time=${later}`)
        await r.text()
      }),
    )
    await until(() => reports().length >= before + 3)
    const refundedNow = reports()
      .slice(before)
      .map((l) => JSON.parse(l.slice(l.indexOf('{'))) as { 'refunded-now': number })
      .reduce((sum, report) => sum + report['refunded-now'], 0)
    expect(service.processor.ledger.refunds.get(intent)).toHaveLength(1)
    expect(refundedNow).toBe(1)
  })
})

describe('a client that hangs up mid-body', () => {
  /** Declares a body, sends part of it, then closes the connection without reading an answer. */
  const hangUp = (path: string, headers: Record<string, string>) =>
    hangUpMidBody(service.url, path, headers, '{"jsonrpc":"2.0",')

  it('behavior: is logged as a hang-up, never as unhandled, on /mcp and on submit', async () => {
    const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    const hangUps = () => lines.filter((l) => /hung up/.test(l)).length
    const unhandled = () => lines.filter((l) => /unhandled/.test(l))
    const before = hangUps()
    await hangUp('/mcp', json)
    await hangUp('/v1/pricing/submit', { ...json, 'cf-connecting-ip': '198.18.7.1' })
    await until(() => hangUps() >= before + 2 || unhandled().length > 0)
    expect(unhandled()).toEqual([])
    // And the service still answers.
    expect((await fetch(`${service.url}/v1/catalogue`)).status).toBe(200)
  })
})

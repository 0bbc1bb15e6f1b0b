/**
 * The operator's wallet book at the service (#42 M3, I-items): a claim turned away by its budgets
 * files no note, nor does one settled at once, so the list reads from the chain only the refused
 * claims that passed their budgets; asked as of a later time the list only reads (the same answer
 * twice); its parameters and the repayment call are refused clearly when wrong.
 *
 * One service of its own, so the notes counted are this test's only.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAILED_PAYMENTS_PER_MINUTE } from '../../gateway/payment/failure-window.js'
import { freePort, type RunningService, startService } from '../../scripts/local/service.js'
import { walletClaimAt } from '../support/wallet.js'

let service: RunningService
let stateDir: string
let operator: string

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'rpi-book-'))
  service = await startService({ port: await freePort(), stateDir })
  operator = (await readFile(join(stateDir, 'operator-token'), 'utf8')).trim()
})

afterAll(async () => {
  await service?.stop()
  await rm(stateDir, { recursive: true, force: true })
})

const path = '/v1/fde-playbooks'
const later = () => new Date(Date.now() + 26 * 60 * 60 * 1000).toISOString()
const owed = (query = '', init: RequestInit = {}) =>
  fetch(`${service.url}/v1/operator/wallet-owed${query}`, {
    ...init,
    headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
  })

const walletClaim = async (ip: string, funded: boolean) =>
  (await walletClaimAt(service.url, service.facilitator.url, path, ip, funded)).status

describe("the operator's wallet book", () => {
  it('money: only refused claims that passed their budgets are filed; budget refusals and paid claims are not', async () => {
    const beyond = 5
    const statuses: number[] = []
    for (let i = 0; i < FAILED_PAYMENTS_PER_MINUTE + beyond; i++)
      statuses.push(await walletClaim('198.51.100.77', false))
    expect(statuses.filter((s) => s === 402)).toHaveLength(FAILED_PAYMENTS_PER_MINUTE)
    expect(statuses.filter((s) => s === 429)).toHaveLength(beyond)
    for (let i = 0; i < 3; i++) expect(await walletClaim('198.51.100.78', true)).toBe(200)
    const report = (await (await owed(`?at=${later()}`)).json()) as { checked: number; owed: unknown[] }
    expect(report.checked).toBe(FAILED_PAYMENTS_PER_MINUTE)
    expect(report.owed).toEqual([])
  })

  it('behavior: asked as of a later time the list only reads: the same report twice', async () => {
    const at = later()
    const first = await (await owed(`?at=${at}`)).json()
    const second = await (await owed(`?at=${at}`)).json()
    expect(second).toEqual(first)
  })

  it('behavior: the list is for a command, not a page: no CORS approval, and no preflight approval either', async () => {
    const r = await owed()
    expect(r.status).toBe(200)
    expect(r.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await fetch(`${service.url}/v1/operator/wallet-owed`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-headers': 'authorization' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('refusal: a wrong limit, or a repayment without its transaction or for no debt, is a 4xx naming the field', async () => {
    const limit = await owed('?limit=0')
    expect(limit.status).toBe(400)
    expect(await limit.json()).toMatchObject({ field: 'limit' })
    const noTx = await owed('', { method: 'POST', body: JSON.stringify({ challengeId: 'x' }) })
    expect(noTx.status).toBe(400)
    expect(await noTx.json()).toMatchObject({ field: 'transaction' })
    const none = await owed('', {
      method: 'POST',
      body: JSON.stringify({ challengeId: 'no-such', transaction: `0x${'ab'.repeat(32)}` }),
    })
    expect(none.status).toBe(404)
  })
})

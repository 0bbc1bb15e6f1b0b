/**
 * The account bound cannot be filled for free (#42 M2, red team 6 `c1-account-busy`): a refused
 * claim counts as an unfinished intent only when the processor names an intent it created, so
 * made-up card tokens and an empty wallet's refused authorizations leave the bound empty; and each
 * rail has its own account bound, so card intents left unfinished never shut out a wallet buyer.
 *
 * One service with a small account bound; many client addresses, as the red team used.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, type RunningService, startService } from '../../scripts/local/service.js'
import { authorization, challengeFrom, token } from '../support/service.js'
import { walletClaimAt } from '../support/wallet.js'

const ACCOUNT = 6
/** Clients in the flood: each sends one made-up card token and one empty wallet's authorization. */
const FLOOD_CLIENTS = 4 * ACCOUNT
let service: RunningService
let stateDir: string

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'rpi-flood-'))
  service = await startService({
    port: await freePort(),
    stateDir,
    vars: { ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR: String(ACCOUNT) },
  })
})

afterAll(async () => {
  await service?.stop()
  await rm(stateDir, { recursive: true, force: true })
})

const path = '/v1/fde-playbooks?topic=rollback'
const get = (headers: Record<string, string>) => fetch(`${service.url}${path}`, { headers })

async function cardClaim(ip: string, spt: string) {
  const client = { 'cf-connecting-ip': ip }
  const challenge = challengeFrom(await get(client))
  return get({ ...client, authorization: authorization(challenge, { spt }) })
}

const walletClaim = (ip: string, funded: boolean) =>
  walletClaimAt(service.url, service.facilitator.url, path, ip, funded)

describe('the account bound cannot be filled for free', () => {
  it('money: a flood of made-up card tokens and empty wallets fills no bound; a newcomer pays on each rail', async () => {
    for (let i = 0; i < FLOOD_CLIENTS; i++) {
      const ip = `198.51.100.${i + 1}`
      expect((await cardClaim(ip, `spt_made_up_${i}_${process.pid}`)).status).toBe(402)
      expect((await walletClaim(ip, false)).status).toBe(402)
    }
    const card = await cardClaim('203.0.113.10', token('ok'))
    expect(card.status, await card.clone().text()).toBe(200)
    const wallet = await walletClaim('203.0.113.11', true)
    expect(wallet.status, await wallet.clone().text()).toBe(200)
  })

  it('money: card intents left unfinished fill only the card account bound; a wallet newcomer still pays', async () => {
    for (let i = 0; i < ACCOUNT; i++)
      expect((await cardClaim(`192.0.2.${i + 1}`, token('action'))).status).toBe(402)
    const busy = await cardClaim('192.0.2.200', token('action'))
    expect(busy.status).toBe(503)
    expect(String(((await busy.json()) as { type?: string }).type)).toMatch(/payments-busy$/)
    const wallet = await walletClaim('192.0.2.201', true)
    expect(wallet.status, await wallet.clone().text()).toBe(200)
  })
})

/**
 * Wallet payments owed back (#35 item 3): a wallet payment settled on the chain whose answer was
 * never fetched cannot be refunded by the service (no key). Once its answer can no longer be had,
 * the operator's command lists it with what is owed and prepares the transfer back; answered and
 * never-used payments are not listed, and a refused one is listed if its authorization was used after all.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Credential } from 'mppx'
import { encodeFunctionData, erc20Abi } from 'viem'
import { describe, expect, inject, it } from 'vitest'
import { describeOwed, fetchOwed } from '../../scripts/deploy/wallet-owed.js'
import { base, get } from '../support/service.js'
import {
  authorizationFor,
  burnNonce,
  evmChallenge,
  freshBuyer,
  LOCAL_RECIPIENT,
  LOCAL_TOKEN,
  setBalance,
  setFault,
  settlementsFrom,
  sign,
  walletCredential,
  x402Accepted,
} from '../support/wallet.js'

const PATH = '/v1/fde-playbooks'
const operatorToken = () => readFileSync(join(inject('stateDir'), 'operator-token'), 'utf8').trim()
/** Past every delivery window opened now: the challenge's 30 minutes and the 24 hours after. */
const later = () => new Date(Date.now() + 26 * 60 * 60 * 1000).toISOString()

async function payWith(fault: 'lost' | 'silent' | null, retry = false) {
  const buyer = freshBuyer()
  if (fault) await setFault(buyer.address, fault)
  const challenge = evmChallenge(await get(PATH))
  const headers = {
    authorization: await walletCredential(buyer, challenge),
    'idempotency-key': `o-${buyer.address}`,
  }
  const first = await get(PATH, { headers })
  if (retry) {
    await setFault(buyer.address, null)
    expect((await get(PATH, { headers })).status).toBe(200)
  }
  return { buyer, challenge, first }
}

describe('wallet payments owed back', () => {
  it('refusal: without the operator secret the list does not exist', async () => {
    expect((await get('/v1/operator/wallet-owed')).status).toBe(404)
    expect(
      (await get('/v1/operator/wallet-owed', { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(404)
  })

  it('money: a settled payment whose answer was never fetched is listed with the transfer that returns it', async () => {
    const lost = await payWith('lost')
    expect(lost.first.status).toBe(503)
    const [settled] = await settlementsFrom(lost.buyer.address)
    const answered = await payWith(null)
    expect(answered.first.status).toBe(200)
    const unused = await payWith('silent')
    expect(unused.first.status).toBe(503)
    const recovered = await payWith('lost', true)

    // Still fetchable now: nothing is owed yet.
    const now = await fetchOwed(base(), operatorToken())
    expect(now.owed.map((o) => o.challengeId)).not.toContain(lost.challenge.id)

    const report = await fetchOwed(base(), operatorToken(), later())
    const ids = report.owed.map((o) => o.challengeId)
    expect(ids).toContain(lost.challenge.id)
    for (const other of [answered, unused, recovered]) expect(ids).not.toContain(other.challenge.id)
    const owed = report.owed.find((o) => o.challengeId === lost.challenge.id)
    expect(owed).toMatchObject({
      payer: lost.buyer.address,
      amount: '500000',
      transaction: settled?.transaction,
    })
    const transfer = report.transfers.find((t) => t.challengeId === lost.challenge.id)
    expect(transfer?.from.toLowerCase()).toBe(LOCAL_RECIPIENT.toLowerCase())
    expect(transfer?.data).toBe(
      encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [lost.buyer.address, 500000n] }),
    )
    expect(describeOwed(report)).toMatch(new RegExp(`${lost.challenge.id}.*500000 base units`))
  })

  it('money: a refused payment that a facilitator settles after all is listed as owed', async () => {
    const buyer = freshBuyer()
    await setBalance(buyer.address, 0n)
    const challenge = evmChallenge(await get(PATH))
    const a = authorizationFor(buyer, challenge)
    const signature = await sign(buyer, a)
    const credential = Credential.serialize(
      Credential.from({ challenge, payload: { type: 'authorization', ...a, signature } }),
    )
    expect((await get(PATH, { headers: { authorization: credential } })).status).toBe(402)
    // Funded again, and the authorization (still valid) submitted by someone holding it.
    await setBalance(buyer.address, 10n ** 8n)
    const requirements = {
      ...x402Accepted((await get(PATH)).headers.get('payment-required') as string),
      extra: { name: LOCAL_TOKEN.name, version: LOCAL_TOKEN.version },
    }
    const settled = await fetch(`${inject('facilitatorUrl')}/settle`, {
      method: 'POST',
      body: JSON.stringify({
        x402Version: 2,
        paymentRequirements: requirements,
        paymentPayload: { x402Version: 2, accepted: requirements, payload: { authorization: a, signature } },
      }),
    })
    expect(await settled.json()).toMatchObject({ success: true })
    const report = await fetchOwed(base(), operatorToken(), later())
    expect(report.owed.map((o) => o.challengeId)).toContain(challenge.id)
  })

  for (const how of ['cancel', 'self'] as const)
    it(`money: a refused payment whose nonce was then burned (${how}) is never owed: nothing arrived (H2)`, async () => {
      const buyer = freshBuyer()
      await setBalance(buyer.address, 0n)
      const challenge = evmChallenge(await get(PATH))
      const credential = await walletCredential(buyer, challenge)
      expect((await get(PATH, { headers: { authorization: credential } })).status).toBe(402)
      await burnNonce(buyer.address, authorizationFor(buyer, challenge).nonce, how)
      const report = await fetchOwed(base(), operatorToken(), later())
      expect(report.owed.map((o) => o.challengeId)).not.toContain(challenge.id)
      expect(report.transfers.map((t) => t.challengeId)).not.toContain(challenge.id)
    })
})

/**
 * Helpers for wallet-rail tests: a buyer with a freshly generated key, the facilitator stand-in's
 * settlements and test controls, and hand-made EIP-3009 credentials for the refusal cases.
 */
import { Challenge, Credential } from 'mppx'
import { assets } from 'mppx/evm'
import { type Hex, keccak256, toHex } from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { inject } from 'vitest'
import { TRANSFER_TYPES } from '../../schema/eip3009.js'
import { LOCAL_RECIPIENT, LOCAL_TOKEN } from '../../scripts/local/facilitator-standin.js'

export { LOCAL_RECIPIENT, LOCAL_TOKEN }

/** The local token as mppx's evm client knows it: Base Sepolia USDC, which the stand-in chain mirrors. */
export const LOCAL_ASSET = assets.baseSepolia.USDC

export const freshBuyer = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey())

export interface Settlement {
  transaction: string
  from: string
  to: string
  value: string
  nonce: string
  token: string
}

const facilitator = (path: string, body?: unknown) =>
  fetch(
    `${inject('facilitatorUrl')}${path}`,
    body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) },
  )

/** Every settlement's transaction hash on the stand-in chain. */
export async function allSettlements(): Promise<string[]> {
  const { settlements } = (await (await facilitator('/__standin/ledger')).json()) as {
    settlements: Settlement[]
  }
  return settlements.map((s) => s.transaction)
}

/** Every settlement the stand-in chain holds from `payer`. */
export async function settlementsFrom(payer: string): Promise<Settlement[]> {
  const { settlements } = (await (await facilitator('/__standin/ledger')).json()) as {
    settlements: Settlement[]
  }
  return settlements.filter((s) => s.from.toLowerCase() === payer.toLowerCase())
}

export async function setFault(
  payer: string,
  fault: 'stall' | 'fail' | 'lost' | 'silent' | 'pending' | 'fake' | null,
) {
  await facilitator('/__standin/fault', { address: payer, fault })
}
/** Mines the payer's broadcast transactions (those a `pending` fault left unmined). */
export async function mine(payer: string) {
  await facilitator('/__standin/mine', { address: payer })
}
/**
 * Uses the payer's nonce without paying the recipient, as the holder of the payer's key can for the
 * gas of one transaction: `cancel` (cancelAuthorization) or `self` (a 0-value transfer to the payer).
 */
export async function burnNonce(payer: string, nonce: string, how: 'cancel' | 'self') {
  const r = (await (await facilitator('/__standin/burn', { address: payer, nonce, how })).json()) as {
    ok: boolean
  }
  if (!r.ok) throw new Error('the stand-in refused to burn the nonce')
}
export async function release(payer: string) {
  await facilitator('/__standin/release', { address: payer })
}
export async function setBalance(payer: string, amount: bigint) {
  await facilitator('/__standin/balance', { address: payer, amount: amount.toString() })
}

/** The `evm` challenge of a 402 (the second WWW-Authenticate beside the card's). */
export function evmChallenge(response: Response) {
  const challenge = Challenge.fromResponseList(response).find((c) => c.method === 'evm')
  if (!challenge) throw new Error('no evm challenge')
  return challenge
}

const TYPES = TRANSFER_TYPES

export interface Authorization {
  from: Hex
  to: Hex
  value: string
  validAfter: string
  validBefore: string
  nonce: Hex
}

/** Signs an EIP-3009 authorization under a domain (the local token's unless overridden). */
export async function sign(
  account: PrivateKeyAccount,
  a: Authorization,
  domain: Partial<{ name: string; version: string; chainId: number; verifyingContract: Hex }> = {},
) {
  return account.signTypedData({
    domain: {
      name: LOCAL_TOKEN.name,
      version: LOCAL_TOKEN.version,
      chainId: LOCAL_TOKEN.chainId,
      verifyingContract: LOCAL_TOKEN.address as Hex,
      ...domain,
    },
    types: TYPES,
    primaryType: 'TransferWithAuthorization',
    message: {
      ...a,
      value: BigInt(a.value),
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
    },
  })
}

/** The authorization an honest MPP `evm` client signs for `challenge`, with `overrides`. */
export function authorizationFor(
  account: PrivateKeyAccount,
  challenge: ReturnType<typeof evmChallenge>,
  overrides: Partial<Authorization> = {},
): Authorization {
  return {
    from: account.address,
    to: LOCAL_RECIPIENT as Hex,
    value: '500000',
    validAfter: '0',
    validBefore: String(Math.floor(Date.now() / 1000) + 300),
    nonce: keccak256(toHex(`${challenge.id}${challenge.realm}`)),
    ...overrides,
  }
}

/** `Authorization: Payment …` carrying an EIP-3009 authorization for `challenge`. */
export async function walletCredential(
  account: PrivateKeyAccount,
  challenge: ReturnType<typeof evmChallenge>,
  overrides: Partial<Authorization> = {},
  domain = {},
) {
  const a = authorizationFor(account, challenge, overrides)
  return Credential.serialize(
    Credential.from({
      challenge,
      payload: { type: 'authorization', ...a, signature: await sign(account, a, domain) },
    }),
  )
}

/** The requirements a 402's PAYMENT-REQUIRED header offers on the x402 wire (its one `accepts` entry). */
export function x402Accepted(required: string): Record<string, unknown> & { payTo: Hex; amount: string } {
  return JSON.parse(Buffer.from(required, 'base64').toString('utf8')).accepts[0]
}

/** PAYMENT-SIGNATURE: base64 (standard, as x402 writes it) of the x402 v2 payment payload for `accepted`. */
export const paymentSignature = (accepted: unknown, payload: unknown) =>
  Buffer.from(JSON.stringify({ x402Version: 2, accepted, payload })).toString('base64')

/**
 * A signed x402 payment as an x402 client makes it for `accepted`: its amount to its payTo, valid
 * for 300 s, with a nonce of its own (derived from `nonceSeed`); and its PAYMENT-SIGNATURE header.
 */
export async function x402Payment(
  account: PrivateKeyAccount,
  accepted: { payTo: Hex; amount: string },
  nonceSeed: string,
) {
  const authorization: Authorization = {
    from: account.address,
    to: accepted.payTo,
    value: accepted.amount,
    validAfter: '0',
    validBefore: String(Math.floor(Date.now() / 1000) + 300),
    nonce: keccak256(toHex(nonceSeed)),
  }
  const signature = await sign(account, authorization)
  return { authorization, signature, header: paymentSignature(accepted, { authorization, signature }) }
}

/**
 * A new wallet claim from `ip` at a service of the test's own (`base`, its facilitator stand-in at
 * `facilitatorUrl`): a fresh buyer, emptied first unless `funded`; answers the paid request's status.
 */
export async function walletClaimAt(
  base: string,
  facilitatorUrl: string,
  path: string,
  ip: string,
  funded: boolean,
) {
  const buyer = freshBuyer()
  if (!funded)
    await fetch(`${facilitatorUrl}/__standin/balance`, {
      method: 'POST',
      body: JSON.stringify({ address: buyer.address, amount: '0' }),
    })
  const client = { 'cf-connecting-ip': ip }
  const challenge = evmChallenge(await fetch(`${base}${path}`, { headers: client }))
  return fetch(`${base}${path}`, {
    headers: { ...client, authorization: await walletCredential(buyer, challenge) },
  })
}

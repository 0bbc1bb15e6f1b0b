/**
 * The Worker's EIP-3009 check (noble) against viem, the library the buyers sign with: the digest
 * matches viem's hashTypedData, the signer recovers, and every field that binds the payment is checked.
 */

import { getAddress, hashTypedData, keccak256, toBytes } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { authorizationDigest, signer, toHex } from '../../gateway/payment/evm/authorization.js'
import {
  AUTHORIZATION_CANCELED_TOPIC,
  AUTHORIZATION_STATE_SELECTOR,
  AUTHORIZATION_USED_TOPIC,
  TRANSFER_TOPIC,
} from '../../gateway/payment/evm/chain.js'
import { challengeNonce, checkAuthorization } from '../../gateway/payment/evm/check.js'
import { checksum, type EvmConfig, readEvmConfig } from '../../gateway/payment/evm/config.js'
import { atomicAmount } from '../../gateway/payment/evm/request.js'
import { TRANSFER_TYPES } from '../../schema/eip3009.js'

const config: EvmConfig = {
  chainId: 84532,
  token: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  tokenName: 'USDC',
  tokenVersion: '2',
  decimals: 6,
  recipient: getAddress('0x00000000000000000000000000000000000000aa'),
  facilitatorUrl: 'http://127.0.0.1:1',
  rpcUrl: 'http://127.0.0.1:1/rpc',
  timeoutMs: 1000,
  maxTimeoutSeconds: 300,
}
const types = TRANSFER_TYPES

async function signed(overrides: Partial<Record<string, string>> = {}, domain = {}) {
  const account = privateKeyToAccount(generatePrivateKey())
  const now = Math.floor(Date.now() / 1000)
  const a = {
    from: account.address as string,
    to: config.recipient,
    value: '500000',
    validAfter: '0',
    validBefore: String(now + 300),
    nonce: challengeNonce('challenge-1', 'example.test'),
    ...overrides,
  }
  const d = {
    name: 'USDC',
    version: '2',
    chainId: 84532,
    verifyingContract: config.token as `0x${string}`,
    ...domain,
  }
  const message = {
    from: a.from as `0x${string}`,
    to: a.to as `0x${string}`,
    value: BigInt(a.value),
    validAfter: BigInt(a.validAfter),
    validBefore: BigInt(a.validBefore),
    nonce: a.nonce as `0x${string}`,
  }
  const signature = await account.signTypedData({
    domain: d,
    types,
    primaryType: 'TransferWithAuthorization',
    message,
  })
  return {
    a,
    signature,
    digest: hashTypedData({ domain: d, types, primaryType: 'TransferWithAuthorization', message }),
  }
}

describe('EIP-3009 authorization check', () => {
  it('behavior: the digest is the one viem signs', async () => {
    const { a, digest } = await signed()
    const ours = authorizationDigest(
      { name: 'USDC', version: '2', chainId: 84532, verifyingContract: config.token },
      a,
    )
    expect(`0x${toHex(ours)}`).toBe(digest)
  })

  it('behavior: a good authorization passes and names chain, token, payer and nonce', async () => {
    const { a, signature } = await signed()
    const r = checkAuthorization(
      config,
      a,
      signature,
      Date.now(),
      challengeNonce('challenge-1', 'example.test'),
    )
    expect(r).toMatchObject({ ok: true })
    if (r.ok)
      expect(r.checked.token).toBe(`84532:${config.token.toLowerCase()}:${a.from.toLowerCase()}:${a.nonce}`)
  })

  const cases: [string, Partial<Record<string, string>>, object, RegExp][] = [
    ['wrong recipient', { to: getAddress('0x00000000000000000000000000000000000000bb') }, {}, /must pay/],
    ['wrong amount', { value: '400000' }, {}, /exactly 500000/],
    ['another challenge', { nonce: challengeNonce('challenge-2', 'example.test') }, {}, /nonce/],
    ['expired', { validBefore: String(Math.floor(Date.now() / 1000) - 1) }, {}, /expired/],
    ['not yet valid', { validAfter: String(Math.floor(Date.now() / 1000) + 60) }, {}, /not valid yet/],
    ['wrong chain', {}, { chainId: 8453 }, /signature/],
    ['wrong token', {}, { verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' }, /signature/],
    ['wrong domain name', {}, { name: 'USD Coin' }, /signature/],
  ]
  for (const [name, overrides, domain, detail] of cases)
    it(`refusal: ${name}`, async () => {
      const { a, signature } = await signed(overrides, domain)
      const r = checkAuthorization(
        config,
        a,
        signature,
        Date.now(),
        challengeNonce('challenge-1', 'example.test'),
      )
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.detail).toMatch(detail)
    })

  it('behavior: the signer of 20 fresh keys is recovered exactly', async () => {
    for (let i = 0; i < 20; i++) {
      const { a, signature, digest } = await signed()
      const bytes = Uint8Array.from(Buffer.from(digest.slice(2), 'hex'))
      expect(signer(bytes, signature)).toBe(a.from.toLowerCase())
    }
  })

  it('refusal: the high-s twin of a valid signature, r = 0 and a recovery byte of 29 recover no one', async () => {
    const { signature, digest } = await signed()
    const bytes = Uint8Array.from(Buffer.from(digest.slice(2), 'hex'))
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const r = signature.slice(2, 66)
    const s = BigInt(`0x${signature.slice(66, 130)}`)
    const v = Number.parseInt(signature.slice(130), 16)
    const twin = `0x${r}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`
    expect(signer(bytes, twin)).toBeUndefined()
    expect(signer(bytes, `0x${'0'.repeat(64)}${signature.slice(66)}`)).toBeUndefined()
    expect(signer(bytes, `${signature.slice(0, 130)}1d`)).toBeUndefined()
  })

  it('behavior: the chain-read constants are the keccak of their signatures', () => {
    expect(AUTHORIZATION_STATE_SELECTOR).toBe(
      keccak256(toBytes('authorizationState(address,bytes32)')).slice(0, 10),
    )
    expect(AUTHORIZATION_USED_TOPIC).toBe(keccak256(toBytes('AuthorizationUsed(address,bytes32)')))
    expect(AUTHORIZATION_CANCELED_TOPIC).toBe(keccak256(toBytes('AuthorizationCanceled(address,bytes32)')))
    expect(TRANSFER_TOPIC).toBe(keccak256(toBytes('Transfer(address,address,uint256)')))
  })

  it('refusal: a signature by someone other than `from`', async () => {
    const { a, signature } = await signed()
    const other = privateKeyToAccount(generatePrivateKey()).address
    const r = checkAuthorization(config, { ...a, from: other }, signature, Date.now(), a.nonce)
    expect(r).toMatchObject({ ok: false, problem: 'verification-failed' })
  })

  it('refusal: malformed fields name the field', () => {
    const r = checkAuthorization(
      config,
      { from: '0x1', to: config.recipient, value: '1', validAfter: '0', validBefore: '1', nonce: '0x' },
      '0x',
      Date.now(),
    )
    expect(r).toMatchObject({
      ok: false,
      problem: 'invalid-payload',
      detail: 'payload.from must be a 20-byte 0x address',
    })
  })
})

describe('wallet rail configuration', () => {
  it('behavior: the amount comes from the one price and the decimals', () => {
    expect(atomicAmount(6)).toBe('500000')
    expect(atomicAmount(18)).toBe('500000000000000000')
  })
  it('behavior: Base USDC is the default token, checksummed addresses', () => {
    const c = readEvmConfig(
      {
        EVM_RECIPIENT: '0x00000000000000000000000000000000000000aa',
        FACILITATOR_URL: 'https://f.example',
        EVM_RPC_URL: 'https://rpc.example',
      },
      true,
    )
    expect(c).toMatchObject({
      chainId: 8453,
      token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      tokenName: 'USD Coin',
      decimals: 6,
    })
    const lower = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
    expect(checksum(lower)).toBe(getAddress(lower))
  })
  it('refusal: a deployed gateway refuses a loopback facilitator', () => {
    const c = readEvmConfig(
      {
        EVM_RECIPIENT: '0x00000000000000000000000000000000000000aa',
        FACILITATOR_URL: 'http://127.0.0.1:9',
        EVM_RPC_URL: 'https://rpc.example',
      },
      true,
    )
    expect(c).toEqual(['a deployed gateway needs a real FACILITATOR_URL, not the local stand-in'])
  })
  it('behavior: no recipient, no wallet rail', () => {
    expect(readEvmConfig({}, true)).toBeUndefined()
  })
})

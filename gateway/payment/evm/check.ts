/**
 * The wallet rail's credential check, in the Worker, before anything is claimed or settled: the
 * EIP-3009 authorization pays this offer's amount to this recipient in this token on this chain,
 * inside its validity window, signed by the address it names. On the MPP wire its nonce is the
 * challenge's hash (draft-evm-charge), so the signature itself names the challenge.
 */
import { keccak_256 } from '@noble/hashes/sha3'
import {
  authorizationDigest,
  malformedField,
  signer,
  type TransferAuthorization,
  toHex,
} from './authorization.js'
import type { EvmConfig } from './config.js'
import { atomicAmount } from './request.js'

export interface CheckedAuthorization {
  authorization: TransferAuthorization
  signature: string
  /** The payment's identity (coord: payment identity): chain, token, payer and nonce. */
  token: string
}

export type EvmCheck =
  | { ok: true; checked: CheckedAuthorization }
  | {
      ok: false
      problem: 'invalid-payload' | 'verification-failed' | 'payment-expired'
      detail: string
      /** Past its validBefore, with everything else in order: it pays nothing new, but a payment it made may be found. */
      lapsed?: CheckedAuthorization
    }

/** keccak256(challenge id ‖ realm): the nonce an MPP `evm` authorization must carry. */
export function challengeNonce(id: string, realm: string): string {
  return `0x${toHex(keccak_256(new TextEncoder().encode(`${id}${realm}`)))}`
}

export const authorizationIdentity = (c: EvmConfig, a: TransferAuthorization) =>
  `${c.chainId}:${c.token.toLowerCase()}:${a.from.toLowerCase()}:${a.nonce.toLowerCase()}`

/**
 * Checks an authorization against the offer. `nonce` is the challenge's hash on the MPP wire and
 * undefined on the x402 wire (whose clients pick a random nonce; the echoed requirements bind it).
 */
export function checkAuthorization(
  c: EvmConfig,
  a: TransferAuthorization,
  signature: unknown,
  nowMs: number,
  nonce?: string,
): EvmCheck {
  const malformed = malformedField(a, signature)
  if (malformed) return { ok: false, problem: 'invalid-payload', detail: `payload.${malformed}` }
  const sig = signature as string
  if (a.to.toLowerCase() !== c.recipient.toLowerCase())
    return { ok: false, problem: 'verification-failed', detail: `the authorization must pay ${c.recipient}` }
  if (a.value !== atomicAmount(c.decimals))
    return {
      ok: false,
      problem: 'verification-failed',
      detail: `the authorization must be for exactly ${atomicAmount(c.decimals)} base units of ${c.token}`,
    }
  if (nonce !== undefined && a.nonce.toLowerCase() !== nonce)
    return {
      ok: false,
      problem: 'verification-failed',
      detail: "the authorization's nonce must be keccak256(challenge id ‖ realm) of the challenge it answers",
    }
  const now = BigInt(Math.floor(nowMs / 1000))
  // The token contract requires validAfter < block time < validBefore.
  if (BigInt(a.validAfter) >= now)
    return {
      ok: false,
      problem: 'verification-failed',
      detail: 'the authorization is not valid yet (validAfter)',
    }
  const digest = authorizationDigest(
    { name: c.tokenName, version: c.tokenVersion, chainId: c.chainId, verifyingContract: c.token },
    a,
  )
  if (signer(digest, sig) !== a.from.toLowerCase())
    return {
      ok: false,
      problem: 'verification-failed',
      detail: `the signature is not from ${a.from} over this token's EIP-712 domain (chain ${c.chainId}, ${c.token})`,
    }
  // The token's ECRecover takes v = 27 or 28 only: a client's 0/1 (the same signature) is sent as 27/28.
  const checked = { authorization: a, signature: tokenV(sig), token: authorizationIdentity(c, a) }
  // Checked last: a lapsed authorization that is otherwise sound names the payment it may have made.
  if (BigInt(a.validBefore) <= now)
    return {
      ok: false,
      problem: 'payment-expired',
      detail: 'the authorization has expired (validBefore)',
      lapsed: checked,
    }
  return { ok: true, checked }
}

/** The signature with its recovery byte as the token contract reads it (27 or 28). */
function tokenV(signature: string): string {
  const v = Number.parseInt(signature.slice(-2), 16)
  return v < 27 ? `${signature.slice(0, -2)}${(v + 27).toString(16)}` : signature
}

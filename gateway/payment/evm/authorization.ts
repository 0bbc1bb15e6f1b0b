/**
 * EIP-3009 `TransferWithAuthorization`: the EIP-712 digest a buyer signs and the address that
 * signed it, checked in the Worker with @noble/curves and @noble/hashes (the libraries viem itself
 * uses). Only the curve's point arithmetic is taken (abstract/weierstrass, about 8 KiB gzip with
 * keccak), not the whole secp256k1 module (signing, Schnorr, hash-to-curve: about 14 KiB) nor viem's
 * tree-shaken typed-data code (about 23 KiB). Pure crypto: no RPC, no key.
 */
import { invert, mod } from '@noble/curves/abstract/modular'
import { keccak_256 } from '@noble/hashes/sha3'
import { TRANSFER_TYPE_STRING } from '../../../schema/eip3009.js'
import { Fp, generatorTimes, N, Point, pointTimes } from './secp256k1.js'

export interface TokenDomain {
  /** The token contract's EIP-712 domain name and version (Base USDC: "USD Coin", "2"). */
  name: string
  version: string
  chainId: number
  /** The token contract. */
  verifyingContract: string
}

export interface TransferAuthorization {
  from: string
  to: string
  value: string
  validAfter: string
  validBefore: string
  /** 32 bytes, 0x-hex. */
  nonce: string
}

const text = new TextEncoder()
const keccak = (...parts: Uint8Array[]) => keccak_256(concat(parts))

const DOMAIN_TYPE = keccak(
  text.encode('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
)
const TRANSFER_TYPE = keccak(text.encode(TRANSFER_TYPE_STRING))

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const BYTES32 = /^0x[0-9a-fA-F]{64}$/
const UINT = /^\d{1,78}$/
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/

/** Why an authorization's fields cannot be hashed, or undefined when they can. */
export function malformedField(a: TransferAuthorization, signature: unknown): string | undefined {
  if (!ADDRESS.test(String(a.from))) return 'from must be a 20-byte 0x address'
  if (!ADDRESS.test(String(a.to))) return 'to must be a 20-byte 0x address'
  for (const name of ['value', 'validAfter', 'validBefore'] as const)
    if (!UINT.test(String(a[name])) || BigInt(a[name]) >= 2n ** 256n)
      return `${name} must be a uint256 in decimal digits`
  if (!BYTES32.test(String(a.nonce))) return 'nonce must be 32 bytes of 0x hex'
  if (typeof signature !== 'string' || !SIGNATURE.test(signature))
    return 'signature must be a 65-byte 0x hex secp256k1 signature (r, s, v)'
  return undefined
}

/** The domain separators computed so far, by domain: a deployment has one token, so one entry. */
const separators = new Map<string, Uint8Array>()

/** The EIP-712 domain separator of the token's domain, computed once per domain. */
function domainSeparator(domain: TokenDomain): Uint8Array {
  const key = `${domain.name}\n${domain.version}\n${domain.chainId}\n${domain.verifyingContract.toLowerCase()}`
  let separator = separators.get(key)
  if (!separator) {
    separator = keccak(
      DOMAIN_TYPE,
      keccak(text.encode(domain.name)),
      keccak(text.encode(domain.version)),
      uint(BigInt(domain.chainId)),
      address(domain.verifyingContract),
    )
    if (separators.size >= 8) separators.clear()
    separators.set(key, separator)
  }
  return separator
}

/** The EIP-712 digest of the authorization under the token's domain. */
export function authorizationDigest(domain: TokenDomain, a: TransferAuthorization): Uint8Array {
  const struct = keccak(
    TRANSFER_TYPE,
    address(a.from),
    address(a.to),
    uint(BigInt(a.value)),
    uint(BigInt(a.validAfter)),
    uint(BigInt(a.validBefore)),
    hex(a.nonce),
  )
  return keccak(new Uint8Array([0x19, 0x01]), domainSeparator(domain), struct)
}

/**
 * The lowercased address that signed `digest`, or undefined for a signature that recovers to none.
 * High-s signatures are refused, as the token contracts' ECDSA library refuses them.
 */
export function signer(digest: Uint8Array, signature: string): string | undefined {
  const body = signature.slice(2)
  const r = BigInt(`0x${body.slice(0, 64)}`)
  const s = BigInt(`0x${body.slice(64, 128)}`)
  const v = Number.parseInt(body.slice(128, 130), 16)
  const recovery = v >= 27 ? v - 27 : v
  if (recovery !== 0 && recovery !== 1) return undefined
  if (r <= 0n || r >= N || s <= 0n || s > N >> 1n) return undefined
  try {
    // ECDSA public key recovery (SEC 1 §4.1.6): Q = r⁻¹(sR − eG), R the curve point with x = r.
    // R = (r, y) with y of the parity the recovery bit names (r < n < p, so x = r).
    const root = Fp.sqrt(Fp.add(Fp.pow(r, 3n), 7n))
    const R = Point.fromAffine({ x: r, y: (root & 1n) === BigInt(recovery) ? root : Fp.neg(root) })
    R.assertValidity()
    const rInv = invert(r, N)
    const e = mod(BigInt(`0x${toHex(digest)}`), N)
    const Q = generatorTimes(mod(-e * rInv, N)).add(pointTimes(R, mod(s * rInv, N)))
    if (Q.equals(Point.ZERO)) return undefined
    const hash = keccak_256(Q.toRawBytes(false).slice(1))
    return `0x${toHex(hash.slice(12))}`
  } catch {
    return undefined
  }
}

function uint(n: bigint): Uint8Array {
  const out = new Uint8Array(32)
  for (let i = 31; i >= 0 && n > 0n; i--) {
    out[i] = Number(n & 0xffn)
    n >>= 8n
  }
  return out
}

function address(a: string): Uint8Array {
  const out = new Uint8Array(32)
  out.set(hex(a), 12)
  return out
}

function hex(s: string): Uint8Array {
  const body = s.slice(2)
  const out = new Uint8Array(body.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(body.slice(i * 2, i * 2 + 2), 16)
  return out
}

/** Each byte's two hex digits, looked up rather than formatted per byte. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'))

export function toHex(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += HEX[b]
  return out
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

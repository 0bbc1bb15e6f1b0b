/**
 * Where the wallet rail (method "evm", and its x402 twin) is paid: the token, its chain and EIP-712
 * domain, its decimals, the recipient, and the facilitator that settles. Configured per deployment;
 * Base's USDC is the default token. No private key: the facilitator submits the transfer.
 */
import { keccak_256 } from '@noble/hashes/sha3'
import { toHex } from './authorization.js'

export interface EvmConfig {
  chainId: number
  /** The token contract, EIP-55 checksummed. */
  token: string
  /** The token's EIP-712 domain name and version. */
  tokenName: string
  tokenVersion: string
  decimals: number
  /** Who is paid, EIP-55 checksummed. */
  recipient: string
  /** The x402 facilitator's base URL (POST /verify, POST /settle). */
  facilitatorUrl: string
  /** A JSON-RPC endpoint of the chain, read for an authorization's state (used or not). */
  rpcUrl: string
  /** How long one facilitator or RPC call may take before its outcome counts as unknown. */
  timeoutMs: number
  /** How long after its challenge an x402 authorization may stay valid (maxTimeoutSeconds). */
  maxTimeoutSeconds: number
}

/** Base mainnet USDC (Circle), the production default. */
export const BASE_USDC = {
  chainId: 8453,
  token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  tokenName: 'USD Coin',
  tokenVersion: '2',
  decimals: 6,
} as const

export interface EvmVars {
  EVM_CHAIN_ID?: string
  EVM_TOKEN?: string
  EVM_TOKEN_NAME?: string
  EVM_TOKEN_VERSION?: string
  EVM_TOKEN_DECIMALS?: string
  EVM_RECIPIENT?: string
  FACILITATOR_URL?: string
  EVM_RPC_URL?: string
  FACILITATOR_TIMEOUT_MS?: string
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * The wallet rail's settings, undefined when the deployment offers no wallet rail (no recipient),
 * or the problems that keep it from taking payments.
 */
export function readEvmConfig(vars: EvmVars, deployed: boolean): EvmConfig | undefined | string[] {
  if (!vars.EVM_RECIPIENT) return undefined
  const problems: string[] = []
  const chainId = Number(vars.EVM_CHAIN_ID ?? BASE_USDC.chainId)
  const decimals = Number(vars.EVM_TOKEN_DECIMALS ?? BASE_USDC.decimals)
  const token = vars.EVM_TOKEN ?? BASE_USDC.token
  if (!Number.isSafeInteger(chainId) || chainId <= 0) problems.push('EVM_CHAIN_ID must be a positive integer')
  // The price is in cents: fewer than 2 decimals could not carry it.
  if (!Number.isInteger(decimals) || decimals < 2 || decimals > 36)
    problems.push('EVM_TOKEN_DECIMALS must be an integer from 2 to 36')
  if (!ADDRESS.test(token)) problems.push('EVM_TOKEN must be a 0x token contract address')
  if (!ADDRESS.test(vars.EVM_RECIPIENT)) problems.push('EVM_RECIPIENT must be a 0x address')
  if (!vars.FACILITATOR_URL) problems.push('FACILITATOR_URL is not set')
  if (!vars.EVM_RPC_URL) problems.push('EVM_RPC_URL is not set')
  if (deployed)
    for (const [name, url] of [
      ['FACILITATOR_URL', vars.FACILITATOR_URL],
      ['EVM_RPC_URL', vars.EVM_RPC_URL],
    ] as const)
      if (url && /^https?:\/\/(127\.|localhost[:/]|\[::1\])/.test(url))
        problems.push(`a deployed gateway needs a real ${name}, not the local stand-in`)
  if (problems.length) return problems
  const usesBaseUsdc = token.toLowerCase() === BASE_USDC.token.toLowerCase()
  return {
    chainId,
    token: checksum(token),
    tokenName: vars.EVM_TOKEN_NAME ?? (usesBaseUsdc ? BASE_USDC.tokenName : 'USDC'),
    tokenVersion: vars.EVM_TOKEN_VERSION ?? BASE_USDC.tokenVersion,
    decimals,
    recipient: checksum(vars.EVM_RECIPIENT),
    facilitatorUrl: (vars.FACILITATOR_URL as string).replace(/\/$/, ''),
    rpcUrl: vars.EVM_RPC_URL as string,
    timeoutMs: Number(vars.FACILITATOR_TIMEOUT_MS ?? 15_000),
    maxTimeoutSeconds: 300,
  }
}

/** EIP-55 mixed-case form, which clients compare and viem's schemas expect. */
export function checksum(address: string): string {
  const lower = address.slice(2).toLowerCase()
  const hash = toHex(keccak_256(new TextEncoder().encode(lower)))
  let out = '0x'
  for (let i = 0; i < 40; i++)
    out += Number.parseInt(hash[i] as string, 16) >= 8 ? (lower[i] as string).toUpperCase() : lower[i]
  return out
}

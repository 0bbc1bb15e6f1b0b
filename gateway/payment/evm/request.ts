/**
 * The wallet rail's offer: the one price (schema/routes.ts, in cents) in the token's base units, to
 * the configured recipient, as the MPP `evm` charge request and as x402 `exact` requirements.
 */
import { PRICE } from '../../../schema/routes.js'
import type { EvmConfig } from './config.js'

export const EVM_METHOD = 'evm'

/** The price by the token's decimals, worked out once each: a paid call asks for it several times. */
const amounts = new Map<number, string>()

/** The price in the token's base units: cents × 10^(decimals − 2), never typed twice. */
export function atomicAmount(decimals: number): string {
  if (PRICE.currency !== 'usd') throw new Error('the wallet rail prices a dollar stablecoin')
  let amount = amounts.get(decimals)
  if (amount === undefined) {
    amount = (BigInt(PRICE.amount) * 10n ** BigInt(decimals - 2)).toString()
    amounts.set(decimals, amount)
  }
  return amount
}

/** The MPP `evm` charge request (draft-evm-charge): EIP-3009 authorizations only. */
export function evmChargeRequest(c: EvmConfig) {
  return {
    amount: atomicAmount(c.decimals),
    currency: c.token,
    methodDetails: { chainId: c.chainId, credentialTypes: ['authorization'], decimals: c.decimals },
    recipient: c.recipient,
  }
}

export const networkOf = (c: Pick<EvmConfig, 'chainId'>) => `eip155:${c.chainId}`

/**
 * The x402 `exact` requirements for the same offer. `extra` carries the token's EIP-712 domain (the
 * x402 clients sign with it) and this service's challenge: the echoed requirements bind a payment to
 * that challenge, its request and its price.
 */
export function x402Requirements(c: EvmConfig, challenge: { id: string; expires?: string; opaque?: string }) {
  return {
    scheme: 'exact',
    network: networkOf(c),
    amount: atomicAmount(c.decimals),
    asset: c.token,
    payTo: c.recipient,
    maxTimeoutSeconds: c.maxTimeoutSeconds,
    extra: {
      name: c.tokenName,
      version: c.tokenVersion,
      assetTransferMethod: 'eip3009',
      challengeId: challenge.id,
      expires: challenge.expires,
      opaque: challenge.opaque,
    },
  }
}

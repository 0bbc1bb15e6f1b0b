/**
 * Reads an EIP-3009 authorization's state from the chain (JSON-RPC `eth_call` of the token's
 * `authorizationState(authorizer, nonce)`), and the transaction that used it (`eth_getLogs` of
 * `AuthorizationUsed`). This is how an unknown settlement is resolved: the chain says whether the
 * authorization was used, never a guess from a missing answer.
 */
import type { EvmConfig } from './config.js'

/** keccak256("authorizationState(address,bytes32)")[0..4]; the stand-in computes it with viem (tested). */
export const AUTHORIZATION_STATE_SELECTOR = '0xe94a0102'
/** keccak256("AuthorizationUsed(address,bytes32)"), the event topic. */
export const AUTHORIZATION_USED_TOPIC = '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5'
/** How far back a used authorization's transaction is looked for: a day of Base blocks (2 s each). */
const LOG_LOOKBACK_BLOCKS = 43_200n

export type AuthorizationState = { used: true; transaction?: string } | { used: false } | { unknown: string }

async function call(c: EvmConfig, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(c.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(c.timeoutMs),
  })
  if (!response.ok) throw new Error(`the chain's RPC answered ${method} with HTTP ${response.status}`)
  const json = (await response.json()) as { result?: unknown; error?: { message?: string } }
  if (json.error || json.result === undefined)
    throw new Error(`the chain's RPC refused ${method}: ${json.error?.message ?? 'no result'}`)
  return json.result
}

const pad = (hex: string) => hex.slice(2).toLowerCase().padStart(64, '0')

export async function authorizationState(
  c: EvmConfig,
  from: string,
  nonce: string,
): Promise<AuthorizationState> {
  try {
    const state = await call(c, 'eth_call', [
      { to: c.token, data: `${AUTHORIZATION_STATE_SELECTOR}${pad(from)}${pad(nonce)}` },
      'latest',
    ])
    if (typeof state !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(state))
      return { unknown: 'the chain answered authorizationState with something other than one word' }
    if (BigInt(state) === 0n) return { used: false }
    return { used: true, ...(await usedIn(c, from, nonce)) }
  } catch (error) {
    return { unknown: error instanceof Error ? error.message : 'the chain could not be read' }
  }
}

/** The transaction that used the authorization, if the node still finds its log. */
async function usedIn(c: EvmConfig, from: string, nonce: string): Promise<{ transaction?: string }> {
  try {
    const latest = BigInt(String(await call(c, 'eth_blockNumber', [])))
    const fromBlock = latest > LOG_LOOKBACK_BLOCKS ? latest - LOG_LOOKBACK_BLOCKS : 0n
    const logs = await call(c, 'eth_getLogs', [
      {
        address: c.token,
        fromBlock: `0x${fromBlock.toString(16)}`,
        toBlock: 'latest',
        topics: [AUTHORIZATION_USED_TOPIC, `0x${pad(from)}`, `0x${pad(nonce)}`],
      },
    ])
    const hash = Array.isArray(logs) ? (logs[0] as { transactionHash?: unknown })?.transactionHash : undefined
    return typeof hash === 'string' ? { transaction: hash } : {}
  } catch {
    return {}
  }
}

/**
 * Reads from the chain whether a wallet payment's price arrived (JSON-RPC: `eth_call` of the
 * token's `authorizationState(authorizer, nonce)`, `eth_getLogs` of `AuthorizationUsed` and
 * `AuthorizationCanceled`, `eth_getTransactionReceipt` of the transaction that used it). This is how
 * every wallet settlement is judged and an unknown one resolved: never a guess from a missing answer.
 */
import type { EvmConfig } from './config.js'

/** keccak256("authorizationState(address,bytes32)")[0..4]; the stand-in computes it with viem (tested). */
export const AUTHORIZATION_STATE_SELECTOR = '0xe94a0102'
/** keccak256("AuthorizationUsed(address,bytes32)"), the event topic. */
export const AUTHORIZATION_USED_TOPIC = '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5'
/** keccak256("AuthorizationCanceled(address,bytes32)"). */
export const AUTHORIZATION_CANCELED_TOPIC =
  '0x1cdd46ff242716cdaa72d159d339a485b3438398348d68f09d7c8c0a59353d81'
/** keccak256("Transfer(address,address,uint256)"), the ERC-20 event. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** How far back a used authorization's transaction is looked for: a day of Base blocks (2 s each). */
const LOG_LOOKBACK_BLOCKS = 43_200n

/** The node answered `null`: for a receipt, not mined (or never sent). */
class NoResult extends Error {
  constructor(method: string) {
    super(`the chain's RPC answered ${method} with null`)
  }
}

async function call(c: EvmConfig, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(c.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(c.timeoutMs),
  })
  if (!response.ok) throw new Error(`the chain's RPC answered ${method} with HTTP ${response.status}`)
  const json = (await response.json()) as { result?: unknown; error?: { message?: string } }
  // A receipt not mined yet is `result: null`, a real answer (no receipt), not a failure.
  if (!json.error && json.result === null) throw new NoResult(method)
  if (json.error || json.result === undefined)
    throw new Error(`the chain's RPC refused ${method}: ${json.error?.message ?? 'no result'}`)
  return json.result
}

const pad = (hex: string) => hex.slice(2).toLowerCase().padStart(64, '0')

interface Log {
  address?: unknown
  topics?: unknown
  data?: unknown
  transactionHash?: unknown
}

/** The first block of the look-back window: a day before the latest. */
async function lookbackStart(c: EvmConfig): Promise<bigint> {
  const latest = BigInt(String(await call(c, 'eth_blockNumber', [])))
  return latest > LOG_LOOKBACK_BLOCKS ? latest - LOG_LOOKBACK_BLOCKS : 0n
}

/** The token's logs of one event for one authorization (payer, nonce), from `fromBlock` on. */
async function logsOf(
  c: EvmConfig,
  fromBlock: bigint,
  topic: string,
  from: string,
  nonce: string,
): Promise<Log[]> {
  const logs = await call(c, 'eth_getLogs', [
    {
      address: c.token,
      fromBlock: `0x${fromBlock.toString(16)}`,
      toBlock: 'latest',
      topics: [topic, `0x${pad(from)}`, `0x${pad(nonce)}`],
    },
  ])
  return Array.isArray(logs) ? (logs as Log[]) : []
}

/** What one wallet payment must have moved: the price, from the payer to the recipient, in the token. */
export interface ExpectedTransfer {
  from: string
  nonce: string
  /** Base units: the price. */
  amount: string
}

/**
 * Whether the price arrived. A used nonce alone proves nothing: EIP-3009 marks it used for a
 * transfer to anyone, a 0-value transfer or a cancellation, all of which the payer can do for gas.
 * Paid means one mined transaction that used this authorization (`AuthorizationUsed(from, nonce)`)
 * and, as the token's next log, moved at least the price from the payer to the recipient
 * (`Transfer`). Spent means the nonce is used with no such transfer: the authorization can never
 * pay. Unused means it may still execute. Anything the chain cannot tell is unknown, never a guess.
 */
export type PaymentOnChain =
  | { paid: true; transaction: string }
  | { paid: false; spent: true; how: string }
  | { paid: false; spent: false }
  | { unknown: string }

export async function paymentOnChain(
  c: EvmConfig,
  expected: ExpectedTransfer,
  /** A transaction someone (the facilitator) says paid: read first, believed only if it did. */
  named?: string,
): Promise<PaymentOnChain> {
  try {
    if (named && (await transferIn(c, named, expected)) === 'paid') return { paid: true, transaction: named }
    const state = await call(c, 'eth_call', [
      { to: c.token, data: `${AUTHORIZATION_STATE_SELECTOR}${pad(expected.from)}${pad(expected.nonce)}` },
      'latest',
    ])
    if (typeof state !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(state))
      return { unknown: 'the chain answered authorizationState with something other than one word' }
    if (BigInt(state) === 0n) return { paid: false, spent: false }
    // One window for both searches: the latest block is read once.
    const fromBlock = await lookbackStart(c)
    const usedBy = (await logsOf(c, fromBlock, AUTHORIZATION_USED_TOPIC, expected.from, expected.nonce))[0]
      ?.transactionHash
    if (typeof usedBy === 'string') {
      const moved = await transferIn(c, usedBy, expected)
      if (moved === 'paid') return { paid: true, transaction: usedBy }
      if (moved === 'not-mined')
        return { unknown: `the transaction ${usedBy} that used the authorization has no receipt yet` }
      return {
        paid: false,
        spent: true,
        how: `its nonce was used by transaction ${usedBy}, which moved less than the price to the recipient`,
      }
    }
    const canceled = (
      await logsOf(c, fromBlock, AUTHORIZATION_CANCELED_TOPIC, expected.from, expected.nonce)
    )[0]
    if (canceled)
      return {
        paid: false,
        spent: true,
        how: `the payer cancelled it (transaction ${String(canceled.transactionHash)})`,
      }
    return {
      unknown:
        'the chain shows its nonce used, but neither the transaction that used it nor a cancellation was found in the last day of blocks',
    }
  } catch (error) {
    return { unknown: error instanceof Error ? error.message : 'the chain could not be read' }
  }
}

/**
 * Whether one transaction moved the price under this authorization: its receipt succeeded, holds the
 * token's `AuthorizationUsed(from, nonce)`, and the token's next `Transfer` after it is from the payer
 * to the recipient for at least the price (FiatTokenV2 logs the two in that order, so a batch of
 * authorizations in one transaction cannot lend this one another's transfer).
 */
async function transferIn(
  c: EvmConfig,
  transaction: string,
  expected: ExpectedTransfer,
): Promise<'paid' | 'not-paid' | 'not-mined'> {
  const receipt = (await call(c, 'eth_getTransactionReceipt', [transaction]).catch((error: unknown) => {
    if (error instanceof NoResult) return null
    throw error
  })) as { status?: unknown; logs?: unknown } | null
  if (!receipt) return 'not-mined'
  if (receipt.status !== '0x1' || !Array.isArray(receipt.logs)) return 'not-paid'
  const token = c.token.toLowerCase()
  const ofToken = (receipt.logs as Log[]).filter((l) => String(l.address).toLowerCase() === token)
  const topic = (l: Log, i: number) => (Array.isArray(l.topics) ? String(l.topics[i] ?? '') : '')
  const same = (a: string, b: string) =>
    /^0x[0-9a-fA-F]+$/.test(a) && /^0x[0-9a-fA-F]+$/.test(b) && BigInt(a) === BigInt(b)
  const at = ofToken.findIndex(
    (l) =>
      same(topic(l, 0), AUTHORIZATION_USED_TOPIC) &&
      same(topic(l, 1), expected.from) &&
      same(topic(l, 2), expected.nonce),
  )
  if (at < 0) return 'not-paid'
  const transfer = ofToken.slice(at + 1).find((l) => same(topic(l, 0), TRANSFER_TOPIC))
  if (!transfer || typeof transfer.data !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(transfer.data))
    return 'not-paid'
  return same(topic(transfer, 1), expected.from) &&
    same(topic(transfer, 2), c.recipient) &&
    BigInt(transfer.data) >= BigInt(expected.amount)
    ? 'paid'
    : 'not-paid'
}

/**
 * What the wallet tests inside workerd start from: a wallet rail's settings, a facilitator and a
 * chain as stand-ins (fetch) answering as the real ones do, and a wallet claim as the ledger gets it.
 */
import type { EvmConfig } from '../../gateway/payment/evm/config.js'
import type { SettleInput } from '../../gateway/payment/ledger.js'

export const evm: EvmConfig = {
  chainId: 84532,
  token: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  tokenName: 'USDC',
  tokenVersion: '2',
  decimals: 6,
  recipient: '0x5E11E7000000000000000000000000000000cA5E',
  facilitatorUrl: 'https://facilitator.test',
  rpcUrl: 'https://rpc.test/',
  timeoutMs: 5_000,
  maxTimeoutSeconds: 300,
}

/** A facilitator that refuses (an empty wallet) or settles, and a chain that shows nothing used. */
export function standins(verdict: 'refuse' | 'settle') {
  const tx = `0x${'ab'.repeat(32)}`
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input)
    const body = JSON.parse(String(init?.body ?? '{}')) as { method?: string; params?: unknown[] }
    const answer = (value: unknown) => new Response(JSON.stringify(value))
    if (url.endsWith('/verify'))
      return answer(
        verdict === 'refuse' ? { isValid: false, invalidReason: 'insufficient_funds' } : { isValid: true },
      )
    if (url.endsWith('/settle')) return answer({ success: true, transaction: tx })
    // The chain: the facilitator's transaction carries the authorization's use and the transfer.
    if (body.method === 'eth_getTransactionReceipt')
      return answer({
        jsonrpc: '2.0',
        id: 1,
        result: {
          status: '0x1',
          logs: [
            {
              address: evm.token,
              topics: [
                '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5',
                `0x${'0'.repeat(24)}${FROM.slice(2)}`,
                NONCE,
              ],
              data: '0x',
            },
            {
              address: evm.token,
              topics: [
                '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
                `0x${'0'.repeat(24)}${FROM.slice(2)}`,
                `0x${'0'.repeat(24)}${evm.recipient.slice(2)}`,
              ],
              data: `0x${(500000).toString(16).padStart(64, '0')}`,
            },
          ],
        },
      })
    if (body.method === 'eth_call') return answer({ jsonrpc: '2.0', id: 1, result: `0x${'0'.repeat(64)}` })
    return answer({ jsonrpc: '2.0', id: 1, result: '0x1' })
  }) as typeof fetch
}

export const FROM = '0x1111111111111111111111111111111111111111'
export const NONCE = `0x${'07'.repeat(32)}`

export const walletClaim = (challengeId: string, expiresAt: number): SettleInput => ({
  challengeId,
  payment: `p-${challengeId}`,
  method: 'evm',
  spt: 'token',
  amount: '500000',
  currency: evm.token,
  realm: 'r',
  expiresAt,
  now: Date.now(),
  processor: { url: 'https://processor.test', secret: 's', timeoutMs: 5_000 },
  client: '192.0.2.1/32',
  wallet: {
    evm,
    paymentPayload: {},
    paymentRequirements: {},
    from: FROM,
    nonce: NONCE,
    amount: '500000',
    validBefore: String(Math.floor(expiresAt / 1000) + 300),
  },
})

/**
 * Reading whether a wallet payment arrived costs the chain as few calls as it needs: on the path
 * that finds a cancellation (the nonce used, no transaction that used it, then the cancel log), the
 * look-back window's start (the latest block) is read once, not once per log search.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AUTHORIZATION_CANCELED_TOPIC, paymentOnChain } from '../../gateway/payment/evm/chain.js'
import { testEvm } from '../support/payment-config.js'

const expected = { from: `0x${'11'.repeat(20)}`, nonce: `0x${'22'.repeat(32)}`, amount: '500000' }

/** A chain where the nonce is used and only a cancellation explains it; every method counted (it stands
 * in for the configuration's RPC address, which is never called). */
function cancelledChain() {
  const calls: string[] = []
  vi.stubGlobal('fetch', async (_url: string, init: { body: string }) => {
    const { method, params } = JSON.parse(init.body) as { method: string; params: [{ topics?: string[] }] }
    calls.push(method)
    const result =
      method === 'eth_call'
        ? `0x${'0'.repeat(63)}1`
        : method === 'eth_blockNumber'
          ? '0x100000'
          : params[0].topics?.[0] === AUTHORIZATION_CANCELED_TOPIC
            ? [{ transactionHash: `0x${'33'.repeat(32)}`, topics: [AUTHORIZATION_CANCELED_TOPIC] }]
            : []
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result }))
  })
  return calls
}

afterEach(() => vi.unstubAllGlobals())

describe('chain reads for one payment', () => {
  it('behavior: a cancelled authorization is found spent with the latest block read once', async () => {
    const calls = cancelledChain()
    const outcome = await paymentOnChain(testEvm, expected)
    expect(outcome).toMatchObject({ paid: false, spent: true })
    expect(calls.filter((m) => m === 'eth_getLogs')).toHaveLength(2)
    expect(calls.filter((m) => m === 'eth_blockNumber')).toHaveLength(1)
  })
})

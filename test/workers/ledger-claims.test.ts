/**
 * A ledger finding of red team 6, on the real Durable Object inside workerd (its L1, copies of a
 * claim being reserved, is in round-trips.test.ts: the ledger now reserves the places itself):
 * - L3: a pending wallet payment sent again after its delivery window is read from the chain: one
 *   whose price arrived is owed back, never "pay again".
 * Processor, facilitator and chain are stand-ins inside the test (fetch), answering as the real ones do.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { DELIVERY_WINDOW_MS } from '../../gateway/payment/retention.js'
import { freshLedger } from './ledger-fixtures.js'
import { evm, FROM, NONCE, walletClaim } from './wallet-fixtures.js'

const real = globalThis.fetch
afterEach(() => {
  globalThis.fetch = real
})

const TX = `0x${'cd'.repeat(32)}`
const word = (hex: string) => `0x${hex.slice(2).toLowerCase().padStart(64, '0')}`

/** The facilitator fails at settle (outcome unknown); the chain shows the authorization used by TX, which paid. */
function paidButUnanswered() {
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input)
    const body = JSON.parse(String(init?.body ?? '{}')) as { method?: string }
    const answer = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status })
    if (url.endsWith('/verify')) return answer({ isValid: true })
    if (url.endsWith('/settle')) return answer({ error: 'unavailable' }, 503)
    const rpc = (result: unknown) => answer({ jsonrpc: '2.0', id: 1, result })
    switch (body.method) {
      case 'eth_call':
        return rpc(word('0x1'))
      case 'eth_blockNumber':
        return rpc('0x10')
      case 'eth_getLogs':
        return rpc([{ transactionHash: TX, topics: [], data: '0x' }])
      case 'eth_getTransactionReceipt':
        return rpc({
          status: '0x1',
          logs: [
            {
              address: evm.token,
              topics: [
                '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5',
                word(FROM),
                NONCE,
              ],
              data: '0x',
            },
            {
              address: evm.token,
              topics: [
                '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
                word(FROM),
                word(evm.recipient),
              ],
              data: word('0x7a120'),
            },
          ],
        })
    }
    return answer({}, 404)
  }) as typeof fetch
}

describe('a pending wallet payment after its delivery window', () => {
  it('money: one whose price arrived is owed back, never "pay again"', async () => {
    // The first try: verify passes, settle fails (unknown), then the chain is not read yet.
    const ledger = freshLedger()
    const expiresAt = Date.now() + 60_000
    const claim = walletClaim('late-1', expiresAt)
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      const url = String(input instanceof Request ? input.url : input)
      if (url.endsWith('/verify')) return new Response(JSON.stringify({ isValid: true }))
      return new Response('{}', { status: 503 })
    }) as typeof fetch
    expect(await ledger.settle(claim)).toMatchObject({ ok: false, reason: 'unavailable' })
    paidButUnanswered()
    const late = await ledger.settle({ ...claim, now: expiresAt + DELIVERY_WINDOW_MS + 60_000 })
    expect(late).toMatchObject({ ok: false, reason: 'refund-owed' })
    expect(JSON.stringify(late)).toContain(TX)
  })
})

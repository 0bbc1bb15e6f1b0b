/**
 * MCP on the wallet rail: the in-band challenge carries the card and the `evm` challenge, and
 * mppx's McpClient.wrap with its `evm` method and a freshly generated key pays every paid tool,
 * each call one settlement of 0.50 USD in USDC to the recipient.
 */
import { evm } from 'mppx/client'
import { McpClient } from 'mppx/mcp/client'
import { keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { MCP_TOOLS } from '../../schema/mcp-tools.js'
import { CREDENTIAL, mcpClients, PAYMENT_REQUIRED, RECEIPT } from '../support/mcp.js'
import {
  authorizationFor,
  freshBuyer,
  LOCAL_ASSET,
  LOCAL_RECIPIENT,
  settlementsFrom,
  sign,
} from '../support/wallet.js'

const ARGS: Record<string, Record<string, string>> = { fde_lessons_full: { topic: 'deploy' } }

const mcp = mcpClients('mcp-wallet-test')

const paidTools = MCP_TOOLS.filter((t) => t.route.access === 'paid')

describe('MCP wallet rail', () => {
  it('behavior: the in-band challenge offers the card and the same price in USDC', async () => {
    const unpaid = await mcp.client.callTool({ name: 'fde_playbook', arguments: {} })
    const required = unpaid._meta?.[PAYMENT_REQUIRED] as {
      challenges: { method: string; request: Record<string, unknown> }[]
    }
    expect(required.challenges.map((c) => c.method)).toEqual(['stripe', 'evm'])
    expect(required.challenges[1]?.request).toMatchObject({ amount: '500000', recipient: expect.any(String) })
  })

  const account = freshBuyer()
  const paying = () =>
    McpClient.wrap(mcp.payer, { methods: [evm({ account, currencies: [LOCAL_ASSET], maxAmount: '1' })] })
  const references: string[] = []
  for (const tool of paidTools)
    it(`behavior: mppx McpClient with the evm method pays ${tool.name} with a fresh key`, async () => {
      const result = await paying().callTool({ name: tool.name, arguments: ARGS[tool.name] ?? {} })
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
      const receipt = result._meta?.[RECEIPT] as Record<string, string>
      expect(receipt).toMatchObject({ status: 'success', method: 'evm' })
      expect(result.structuredContent).toBeTruthy()
      references.push(receipt.reference as string)
    })

  it('money: an evm credential sent again over MCP without its key is refused in band, with no challenge, and settles nothing more', async () => {
    const buyer = freshBuyer()
    const unpaid = await mcp.client.callTool({ name: 'fde_playbook', arguments: {} })
    const required = unpaid._meta?.[PAYMENT_REQUIRED] as { challenges: Record<string, unknown>[] }
    const challenge = required.challenges.find((c) => c.method === 'evm') as Record<string, unknown>
    const nonce = keccak256(toHex(`${challenge.id}${challenge.realm}`))
    const a = authorizationFor(buyer, { id: challenge.id, realm: challenge.realm } as never, { nonce })
    const credential = {
      challenge,
      payload: { type: 'authorization', ...a, signature: await sign(buyer, a) },
    }
    const call = () =>
      mcp.client.callTool({
        name: 'fde_playbook',
        arguments: {},
        _meta: { [CREDENTIAL]: credential },
      })
    const first = await call()
    expect(first.isError).toBeFalsy()
    expect(first._meta?.[RECEIPT]).toMatchObject({ method: 'evm' })
    const again = await call()
    expect(again.isError).toBe(true)
    expect(again._meta?.[PAYMENT_REQUIRED]).toBeUndefined()
    expect(again._meta?.['org.paymentauth/problem']).toMatchObject({ status: 409, retryable: false })
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })

  it('money: each paid tool call is one settlement of 0.50 USD to the recipient', async () => {
    const settled = await settlementsFrom(account.address)
    expect(settled).toHaveLength(paidTools.length)
    expect(
      settled.every((s) => s.value === '500000' && s.to.toLowerCase() === LOCAL_RECIPIENT.toLowerCase()),
    ).toBe(true)
    expect(new Set(settled.map((s) => s.transaction))).toEqual(new Set(references))
  })
})

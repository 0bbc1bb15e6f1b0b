/**
 * MCP at POST /mcp: the SDK's own client lists and calls the free tools; mppx's McpClient.wrap
 * pays every paid tool in band; replays and credentials for other arguments are refused.
 */

import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { stripe } from 'mppx/client'
import { McpClient } from 'mppx/mcp/client'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { Gate } from '../../schema/content.js'
import { MCP_TOOLS } from '../../schema/mcp-tools.js'
import type { Fact } from '../../schema/situation.js'
import { ACTIONS } from '../../schema/vocabulary.js'
import { answerIds, heldIds } from '../support/do-no-harm.js'
import { CREDENTIAL, mcpClients, PAYMENT_REQUIRED, RECEIPT } from '../support/mcp.js'
import { base, get, processorLedger, token } from '../support/service.js'

const mcp = mcpClients('mcp-test')

const freeTools = MCP_TOOLS.filter((t) => t.route.access === 'free')
const paidTools = MCP_TOOLS.filter((t) => t.route.access === 'paid')
const ARGS: Record<string, Record<string, string>> = {
  fde_lessons_full: { topic: 'deploy' },
  fde_playbook: {},
  fde_preship_checklist: { phase: 'verifying' },
}
const argsFor = (name: string) => ARGS[name] ?? {}
const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { text: string }[])[0]?.text ?? ''

/** Asks for a paid tool without paying and answers its challenge with a fresh test token. */
async function challengeAndCredential(args: Record<string, string>) {
  const unpaid = await mcp.client.callTool({ name: 'fde_lessons_full', arguments: args })
  const required = unpaid._meta?.[PAYMENT_REQUIRED] as { challenges: Record<string, unknown>[] } | undefined
  if (!required) throw new Error('expected an in-band payment challenge')
  const challenge = required.challenges[0] as Record<string, unknown>
  return { challenge, payload: { spt: token() } }
}

describe('MCP server', () => {
  it('behavior: initialize advertises tools and the payment capability', () => {
    expect(mcp.client.getServerCapabilities()).toMatchObject({
      tools: {},
      experimental: {
        payment: { methods: { stripe: { intents: ['charge'] }, evm: { intents: ['charge'] } } },
      },
    })
  })

  it('behavior: ping answers', async () => {
    await expect(mcp.client.ping()).resolves.toEqual({})
  })

  it('behavior: tools/list matches the server card', async () => {
    const { tools } = await mcp.client.listTools()
    const card = (await (await get('/.well-known/mcp.json')).json()) as {
      tools: { name: string }[]
      transport: { endpoint: string }
    }
    expect(tools.map((t) => t.name).sort()).toEqual(card.tools.map((t) => t.name).sort())
    expect(card.transport.endpoint).toBe(`${base()}/mcp`)
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object')
  })

  for (const tool of freeTools)
    it(`behavior: ${tool.name} answers directly with structured content`, async () => {
      const result = await mcp.client.callTool({ name: tool.name, arguments: {} })
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent).toBeTruthy()
      expect(result._meta?.[PAYMENT_REQUIRED]).toBeUndefined()
    })

  for (const tool of paidTools)
    it(`behavior: ${tool.name} without a credential returns the challenge in band`, async () => {
      const result = await mcp.client.callTool({ name: tool.name, arguments: argsFor(tool.name) })
      expect(result.isError).toBe(true)
      expect(result.structuredContent).toBeUndefined()
      const required = result._meta?.[PAYMENT_REQUIRED] as {
        httpStatus: number
        challenges: Record<string, unknown>[]
      }
      expect(required.httpStatus).toBe(402)
      expect(required.challenges[0]).toMatchObject({
        method: 'stripe',
        intent: 'charge',
        request: { amount: '50', currency: 'usd' },
      })
    })

  it('error: an unknown tool is a JSON-RPC error; bad arguments are tool errors, never a charge', async () => {
    await expect(mcp.client.callTool({ name: 'fde_nope', arguments: {} })).rejects.toThrow(/unknown tool/)
    const unknown = await mcp.client.callTool({ name: 'fde_playbook', arguments: { colour: 'blue' } })
    expect(unknown.isError).toBe(true)
    expect(textOf(unknown)).toContain('no argument "colour"')
    const phase = await mcp.client.callTool({
      name: 'fde_preship_checklist',
      arguments: { phase: 'part-ix' },
    })
    expect(phase.isError).toBe(true)
    expect(textOf(phase)).toContain('unknown phase "part-ix"')
  })

  it('error: an unknown action is a tool error naming it, never a challenge or a charge', async () => {
    const before = await processorLedger()
    const result = await mcp.client.callTool({
      name: 'fde_preship_checklist',
      arguments: { action: 'teleport' },
    })
    expect(result.isError).toBe(true)
    expect(result._meta?.[PAYMENT_REQUIRED]).toBeUndefined()
    expect(textOf(result)).toContain('unknown action "teleport"')
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('behavior: tools/list gives fde_preship_checklist an action argument: one action or a list, each from the vocabulary', async () => {
    const { tools } = await mcp.client.listTools()
    const checklist = tools.find((t) => t.name === 'fde_preship_checklist')
    const action = checklist?.inputSchema.properties?.action as
      | { anyOf?: { type: string; enum?: string[]; items?: { enum?: string[] } }[] }
      | undefined
    const one = action?.anyOf?.find((s) => s.type === 'string')
    const list = action?.anyOf?.find((s) => s.type === 'array')
    expect(one?.enum).toEqual([...ACTIONS])
    expect(list?.items?.enum).toEqual([...ACTIONS])
  })

  it('error: a filter that matches nothing is a tool error listing the valid values, no challenge', async () => {
    const result = await mcp.client.callTool({
      name: 'fde_lessons_full',
      arguments: { topic: 'no-such-topic' },
    })
    expect(result.isError).toBe(true)
    expect(result._meta?.[PAYMENT_REQUIRED]).toBeUndefined()
    const text = (result.content as { text: string }[])[0]?.text
    expect(text).toContain('no-such-topic')
    expect(text).toContain('"deploy"')
  })
})

describe('paying over MCP with mppx', () => {
  const issued: string[] = []
  const paying = () =>
    McpClient.wrap(mcp.payer, {
      methods: [
        stripe({
          paymentMethod: 'pm_card_visa',
          createToken: async () => {
            const spt = token()
            issued.push(spt)
            return spt
          },
        }),
      ],
    })

  for (const tool of paidTools)
    it(`behavior: McpClient.wrap pays ${tool.name} and gets the receipt`, async () => {
      const result = await paying().callTool({ name: tool.name, arguments: argsFor(tool.name) })
      expect(result.isError).toBeFalsy()
      const receipt = result._meta?.[RECEIPT] as Record<string, string>
      expect(receipt).toMatchObject({ status: 'success', method: 'stripe', challengeId: expect.any(String) })
      expect((await processorLedger()).succeeded[issued.at(-1) as string]).toBe(receipt.reference)
      expect(result.structuredContent).toBeTruthy()
    })

  it('behavior: a paid fde_preship_checklist call with action dns returns exactly the gates whose applies_to lists dns', async () => {
    const names = (await readdir('content/gates')).filter((n) => n.endsWith('.yaml'))
    const gates = await Promise.all(
      names.map(async (n) => parse(await readFile(join('content/gates', n), 'utf8')) as Gate),
    )
    const facts = parse(await readFile('content/facts.yaml', 'utf8')) as Fact[]
    // With no fact answered, the do-no-harm rule leaves out what only an unanswered yes would keep.
    const expected = (
      await heldIds(gates, (g) => g.check_spec, 'gates', { action: 'dns', facts: {} }, facts)
    ).sort()
    const result = await paying().callTool({ name: 'fde_preship_checklist', arguments: { action: 'dns' } })
    expect(result.isError).toBeFalsy()
    const body = result.structuredContent as {
      action: string
      checklist: { id: string }[]
      also_consider?: { kind: string; id: string }[]
    }
    expect(body.action).toBe('dns')
    expect(answerIds(body, 'gate').sort()).toEqual(expected)
  })

  /** An in-band refusal: a tool error naming the problem, with a fresh challenge and no receipt. */
  function expectRefusedInBand(result: Awaited<ReturnType<Client['callTool']>>, problem: string) {
    expect(result.isError, `${problem}: ${JSON.stringify(result.content)}`).toBe(true)
    expect(result._meta?.[RECEIPT]).toBeUndefined()
    const required = result._meta?.[PAYMENT_REQUIRED] as {
      challenges: { id: string }[]
      problem: { type: string }
    }
    // A fresh offer has the card and the wallet challenge; a payment that may still complete, its own only.
    expect(required.challenges).toHaveLength(problem === 'payment-action-required' ? 1 : 2)
    expect(required.problem.type).toBe(`https://paymentauth.org/problems/${problem}`)
    expect((required.problem as { retryable?: unknown }).retryable).toBe(
      problem === 'payment-action-required' ? 'same-credential' : 'pay-again',
    )
    expect((required.problem as { payment_help?: string }).payment_help).toMatch(/networkId/)
    expect(JSON.stringify(result.content)).toContain('0.50 USD')
  }

  it('error: a replayed MCP credential is refused in band with no challenge', async () => {
    const credential = await challengeAndCredential({ topic: 'deploy' })
    const call = () =>
      mcp.client.callTool({
        name: 'fde_lessons_full',
        arguments: { topic: 'deploy' },
        _meta: { [CREDENTIAL]: credential },
      })
    const first = await call()
    expect(first._meta?.[RECEIPT]).toBeTruthy()
    const before = await processorLedger()
    const again = await call()
    expect(again.isError).toBe(true)
    expect(again._meta?.[RECEIPT]).toBeUndefined()
    // A settled credential is never invited to pay again: the problem, and no challenge.
    expect(again._meta?.[PAYMENT_REQUIRED]).toBeUndefined()
    expect(again._meta?.['org.paymentauth/problem']).toMatchObject({ status: 409, retryable: false })
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('error: a credential for other arguments is refused in band and not charged', async () => {
    const credential = await challengeAndCredential({ topic: 'deploy' })
    const before = await processorLedger()
    const result = await mcp.client.callTool({
      name: 'fde_lessons_full',
      arguments: { topic: 'retry' },
      _meta: { [CREDENTIAL]: credential },
    })
    expectRefusedInBand(result, 'invalid-challenge')
    expect((await processorLedger()).succeeded[credential.payload.spt]).toBeUndefined()
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('error: a payment whose outcome is unknown is a 503 problem in band: same credential, after a wait, no challenge', async () => {
    const credential = await challengeAndCredential({ topic: 'deploy' })
    const result = await mcp.client.callTool({
      name: 'fde_lessons_full',
      arguments: { topic: 'deploy' },
      _meta: { [CREDENTIAL]: { ...credential, payload: { spt: token('timeout') } } },
    })
    expect(result.isError).toBe(true)
    expect(result._meta?.[PAYMENT_REQUIRED]).toBeUndefined()
    expect(result._meta?.['org.paymentauth/problem']).toMatchObject({
      status: 503,
      retryable: 'same-credential',
      retryAfterS: expect.any(Number),
    })
  })

  it('error: every refusal kind is in band, never a JSON-RPC error with a reserved code', async () => {
    const kinds: [
      string,
      (c: { challenge: Record<string, unknown>; payload: { spt: string } }) => unknown,
    ][] = [
      ['malformed-credential', () => ({ challenge: 'not an object' })],
      ['malformed-credential', (c) => ({ challenge: c.challenge })],
      [
        'malformed-credential',
        (c) => ({
          ...c,
          payload: { spt: c.payload.spt, n: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) },
        }),
      ],
      ['invalid-challenge', (c) => ({ ...c, challenge: { ...c.challenge, id: 'forged' } })],
      ['invalid-payload', (c) => ({ ...c, payload: { spt: 'not-a-token' } })],
      ['verification-failed', (c) => ({ ...c, payload: { spt: token('decline') } })],
      ['payment-action-required', (c) => ({ ...c, payload: { spt: token('action') } })],
    ]
    for (const [problem, make] of kinds) {
      const credential = make(await challengeAndCredential({ topic: 'deploy' }))
      const result = await mcp.client.callTool({
        name: 'fde_lessons_full',
        arguments: { topic: 'deploy' },
        _meta: { [CREDENTIAL]: credential },
      })
      expectRefusedInBand(result, problem)
    }
  })
})

describe('one message per request', () => {
  const post = (body: string) =>
    fetch(`${base()}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    })

  it('error: a batch holding a paid call and its cancellation is refused before anything settles', async () => {
    const before = await processorLedger()
    const r = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fde_playbook', arguments: {} } },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      ]),
    )
    expect(r.status).toBe(400)
    const body = (await r.json()) as { error: { code: number; message: string } }
    expect(body.error.code).toBe(-32600)
    expect(body.error.message).toMatch(/batch/)
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('error: two paid calls with one id in a batch are refused before settling; the credential still pays', async () => {
    const credential = await challengeAndCredential({ topic: 'deploy' })
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'fde_lessons_full',
        arguments: { topic: 'deploy' },
        _meta: { [CREDENTIAL]: credential },
      },
    }
    const before = await processorLedger()
    // Leading whitespace is still JSON, so it must not slip a batch past the guard.
    const r = await post(`\n ${JSON.stringify([call, call])}`)
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: { code: number } }).error.code).toBe(-32600)
    expect((await processorLedger()).calls).toBe(before.calls)
    const paid = await mcp.client.callTool({
      name: 'fde_lessons_full',
      arguments: { topic: 'deploy' },
      _meta: { [CREDENTIAL]: credential },
    })
    expect(paid.isError).toBeFalsy()
    expect(paid._meta?.[RECEIPT]).toBeTruthy()
  })
})

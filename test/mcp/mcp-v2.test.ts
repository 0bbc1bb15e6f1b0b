/**
 * MCP with the v2 SDK client (@modelcontextprotocol/client) in its three connect modes: legacy
 * (2025-11-25 initialize), auto (server/discover first) and pinned to 2026-07-28. Each lists the
 * tools, calls both free tools and pays a paid tool in band; refusals stay in band in every era.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_RESOURCES } from '../../schema/mcp-resources.js'
import { MCP_PROTOCOL_VERSIONS, MCP_TOOLS } from '../../schema/mcp-tools.js'
import { PRICE } from '../../schema/routes.js'
import { base, processorLedger, token } from '../support/service.js'

const PAYMENT_REQUIRED = 'org.paymentauth/payment-required'
const CREDENTIAL = 'org.paymentauth/credential'
const RECEIPT = 'org.paymentauth/receipt'
const [MODERN, LEGACY] = MCP_PROTOCOL_VERSIONS

type Mode = 'legacy' | 'auto' | { pin: string }
const MODES: [string, Mode, string][] = [
  ['legacy', 'legacy', LEGACY],
  ['auto', 'auto', MODERN],
  [`pinned ${MODERN}`, { pin: MODERN }, MODERN],
]

const freeTools = MCP_TOOLS.filter((t) => t.route.access === 'free')

for (const [label, mode, expectedVersion] of MODES)
  describe(`v2 client, ${label}`, () => {
    let client: Client
    beforeAll(async () => {
      client = new Client({ name: 'mcp-v2-test', version: '1.0.0' }, { versionNegotiation: { mode } })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/mcp`)))
    })
    afterAll(() => client.close())

    /** An unpaid call's in-band challenge, answered with a fresh stand-in token. */
    async function credentialFor(args: Record<string, string>) {
      const unpaid = await client.callTool({ name: 'fde_lessons_full', arguments: args })
      const required = unpaid._meta?.[PAYMENT_REQUIRED] as { challenges: Record<string, unknown>[] }
      return { challenge: required.challenges[0] as Record<string, unknown>, payload: { spt: token() } }
    }

    it(`behavior: connects at ${expectedVersion} and sees the payment capability`, () => {
      expect(client.getNegotiatedProtocolVersion()).toBe(expectedVersion)
      expect(client.getServerCapabilities()).toMatchObject({
        tools: {},
        experimental: {
          payment: { methods: { stripe: { intents: ['charge'] }, evm: { intents: ['charge'] } } },
        },
      })
    })

    it('behavior: lists every tool in the one deterministic order, with schemas, annotations and price', async () => {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name))
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object')
        expect(tool.outputSchema?.type, tool.name).toBe('object')
        expect(tool.annotations).toMatchObject({
          readOnlyHint: true,
          idempotentHint: true,
          openWorldHint: false,
        })
      }
      for (const tool of tools.filter((t) => t.name !== 'fde_catalogue' && t.name !== 'fde_lessons_preview'))
        expect(tool.description).toContain(PRICE.display)
    })

    for (const tool of freeTools)
      it(`behavior: ${tool.name} answers with structured content that is also the text`, async () => {
        const result = await client.callTool({ name: tool.name, arguments: {} })
        expect(result.isError).toBeFalsy()
        expect(result.structuredContent).toBeTruthy()
        const text = (result.content as { type: string; text: string }[])[0]?.text ?? ''
        expect(JSON.parse(text)).toEqual(result.structuredContent)
      })

    it('behavior: lists the resources and reads each as the bytes its HTTP address serves', async () => {
      expect(client.getServerCapabilities()?.resources).toBeDefined()
      const { resources } = await client.listResources()
      expect(resources.map((r) => r.name)).toEqual(MCP_RESOURCES.map((r) => r.name))
      // The descriptor carries live aggregates; mcp-browse compares it around its read.
      for (const r of resources.filter((r) => r.name !== 'pricing-index')) {
        const { contents } = await client.readResource({ uri: r.uri })
        expect((contents[0] as { text: string }).text, r.name).toBe(await (await fetch(r.uri)).text())
      }
    })

    it('behavior: pays a paid tool in band and gets the answer with a receipt', async () => {
      const credential = await credentialFor({ topic: 'deploy' })
      const result = await client.callTool({
        name: 'fde_lessons_full',
        arguments: { topic: 'deploy' },
        _meta: { [CREDENTIAL]: credential },
      })
      expect(result.isError).toBeFalsy()
      const receipt = result._meta?.[RECEIPT] as Record<string, string>
      expect(receipt).toMatchObject({ status: 'success', challengeId: credential.challenge.id })
      expect((await processorLedger()).succeeded[credential.payload.spt]).toBe(receipt.reference)
      const rules = (result.structuredContent as { rules: { tags: string[] }[] }).rules
      expect(rules.length).toBeGreaterThan(0)
      for (const rule of rules) expect(rule.tags).toContain('deploy')
    })

    it('error: a replayed credential and one for other arguments are refused in band, uncharged', async () => {
      const credential = await credentialFor({ topic: 'deploy' })
      const call = (topic: string) =>
        client.callTool({
          name: 'fde_lessons_full',
          arguments: { topic },
          _meta: { [CREDENTIAL]: credential },
        })
      const otherArgs = await call('retry')
      const first = await call('deploy')
      expect(first._meta?.[RECEIPT]).toBeTruthy()
      const calls = (await processorLedger()).calls
      const replay = await call('deploy')
      for (const refused of [otherArgs, replay]) {
        expect(refused.isError).toBe(true)
        expect(refused._meta?.[RECEIPT]).toBeUndefined()
      }
      // Other arguments: this credential never paid, so a fresh challenge is offered.
      const required = otherArgs._meta?.[PAYMENT_REQUIRED] as {
        challenges: { id: string }[]
        problem: { type: string }
      }
      expect(required.problem.type).toBe('https://paymentauth.org/problems/invalid-challenge')
      expect(required.challenges[0]?.id).not.toBe(credential.challenge.id)
      expect(JSON.stringify(otherArgs.content)).toContain(PRICE.display)
      // The replay of a settled credential: the problem, and no challenge inviting a second payment.
      expect(replay._meta?.[PAYMENT_REQUIRED]).toBeUndefined()
      expect(replay._meta?.['org.paymentauth/problem']).toMatchObject({ status: 409, retryable: false })
      expect((await processorLedger()).calls).toBe(calls)
    })
  })

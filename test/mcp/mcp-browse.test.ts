/**
 * MCP as clients browse it (#31 item 2): the paid pricing_index tool answers as GET /v1/pricing
 * does; an argument that fails validation is a tool error naming it and what is allowed, never a
 * protocol error or a charge; tools/list states each paid tool's price in the payment scheme's
 * namespace; the free documents are resources, byte for byte their HTTP twins.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_RESOURCES } from '../../schema/mcp-resources.js'
import { MCP_TOOLS } from '../../schema/mcp-tools.js'
import { INDEX_CATEGORIES } from '../../schema/vocabulary.js'
import { base, get, payOnce, processorLedger, token } from '../support/service.js'

const PAYMENT_REQUIRED = 'org.paymentauth/payment-required'
const CREDENTIAL = 'org.paymentauth/credential'
const RECEIPT = 'org.paymentauth/receipt'
const PRICE_META = 'org.paymentauth/price'

type Result = Awaited<ReturnType<Client['callTool']>>
interface Challenge {
  id: string
  method: string
  intent: string
  request: { amount: string; currency: string }
}

let client: Client
beforeAll(async () => {
  client = new Client({ name: 'mcp-browse-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/mcp`)))
})
afterAll(() => client.close())

const textOf = (result: Result) => (result.content as { type: string; text: string }[])[0]?.text ?? ''

async function challengeOf(name: string, args: Record<string, string>): Promise<Challenge> {
  const unpaid = await client.callTool({ name, arguments: args })
  const required = unpaid._meta?.[PAYMENT_REQUIRED] as { challenges: Challenge[] } | undefined
  if (!required) throw new Error(`${name} gave no in-band challenge: ${textOf(unpaid)}`)
  return required.challenges[0] as Challenge
}

/** Calls a paid tool unpaid, then again with a credential paying its challenge. */
async function payTool(name: string, args: Record<string, string>) {
  const credential = { challenge: await challengeOf(name, args), payload: { spt: token() } }
  return client.callTool({ name, arguments: args, _meta: { [CREDENTIAL]: credential } })
}

describe('pricing_index', () => {
  for (const query of ['', 'category=voice-agent'])
    it(`behavior: a paid call${query ? ` with ${query}` : ''} answers as GET /v1/pricing does`, async () => {
      const args = Object.fromEntries(new URLSearchParams(query))
      const http = await payOnce(`/v1/pricing${query ? `?${query}` : ''}`)
      expect(http.paid.status).toBe(200)
      const body = await http.paid.text()
      const result = await payTool('pricing_index', args)
      expect(result.isError, textOf(result)).toBeFalsy()
      expect(result._meta?.[RECEIPT]).toMatchObject({ status: 'success' })
      expect(textOf(result)).toBe(body)
      expect(result.structuredContent).toEqual(JSON.parse(body))
    })

  it('behavior: it costs what a paid HTTP route costs, by the same method and intent', async () => {
    const http = (await payOnce('/v1/pricing')).challenge
    const mcp = await challengeOf('pricing_index', {})
    expect({ method: mcp.method, intent: mcp.intent, ...mcp.request }).toMatchObject({
      method: http.method,
      intent: http.intent,
      amount: http.request.amount,
      currency: http.request.currency,
    })
  })

  it('error: the payment binds the category: a credential for one is refused for another, uncharged', async () => {
    const credential = {
      challenge: await challengeOf('pricing_index', { category: 'voice-agent' }),
      payload: { spt: token() },
    }
    const before = await processorLedger()
    const result = await client.callTool({
      name: 'pricing_index',
      arguments: { category: 'coding-agent' },
      _meta: { [CREDENTIAL]: credential },
    })
    expect(result.isError).toBe(true)
    expect(result._meta?.[RECEIPT]).toBeUndefined()
    const required = result._meta?.[PAYMENT_REQUIRED] as { problem: { type: string } }
    expect(required.problem.type).toBe('https://paymentauth.org/problems/invalid-challenge')
    expect((await processorLedger()).calls).toBe(before.calls)
  })
})

describe('arguments that fail validation', () => {
  /** Asserts an in-band tool error naming the argument and each allowed item, with no challenge. */
  function expectArgumentError(result: Result, argument: string, allowed: readonly string[]) {
    const text = textOf(result)
    expect(result.isError, text).toBe(true)
    expect(result._meta?.[PAYMENT_REQUIRED]).toBeUndefined()
    expect(result.structuredContent).toBeUndefined()
    expect(text).toContain(`"${argument}"`)
    for (const value of allowed) expect(text).toContain(value)
  }

  /** What a tool says it takes instead of an unknown argument: a situation tool names its facts. */
  async function takes(tool: (typeof MCP_TOOLS)[number]): Promise<string[]> {
    const params = tool.route.params.map((p) => p.name)
    if (!tool.route.situation) return params.length ? params : ['no arguments']
    const catalogue = (await (await get('/v1/catalogue')).json()) as { facts: { fact: string }[] }
    return ['action', ...catalogue.facts.map((f) => f.fact)]
  }

  for (const tool of MCP_TOOLS) {
    const params = tool.route.params
    it(`error: ${tool.name} answers an unknown, a non-string and a malformed argument with a tool error, uncharged`, async () => {
      const before = await processorLedger()
      const unknown = await client.callTool({ name: tool.name, arguments: { colour: 'blue' } })
      expectArgumentError(unknown, 'colour', await takes(tool))
      for (const param of params) {
        // An integer argument (limit) refuses text; every other filter refuses a number.
        const wrongType = await client.callTool({
          name: tool.name,
          arguments: { [param.name]: param.integer ? '7' : 7 },
        })
        expectArgumentError(wrongType, param.name, [param.integer ? 'an integer' : 'string'])
        // Longer than any filter's pattern allows (an integer: beyond its maximum).
        const malformed = await client.callTool({
          name: tool.name,
          arguments: { [param.name]: param.integer ? param.integer.maximum + 1 : 'x'.repeat(81) },
        })
        expectArgumentError(
          malformed,
          param.name,
          param.integer ? [`${param.integer.maximum}`] : (param.allowed ?? [param.pattern ?? '']),
        )
      }
      expect((await processorLedger()).calls).toBe(before.calls)
    })
  }

  it('error: a well-formed value outside the allowed set names every allowed value, uncharged', async () => {
    const before = await processorLedger()
    const category = await client.callTool({ name: 'pricing_index', arguments: { category: 'teleport' } })
    expectArgumentError(category, 'category', INDEX_CATEGORIES)
    const catalogue = (await (await get('/v1/catalogue')).json()) as { phases: { slug: string }[] }
    const phase = await client.callTool({ name: 'fde_preship_checklist', arguments: { phase: 'part-ix' } })
    expectArgumentError(
      phase,
      'phase',
      catalogue.phases.map((p) => p.slug),
    )
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('error: an unknown tool is still a protocol error naming the tools', async () => {
    await expect(client.callTool({ name: 'fde_nope', arguments: {} })).rejects.toThrow(/unknown tool/)
  })
})

describe('tools/list', () => {
  it('behavior: each paid tool states its price under org.paymentauth/price, as its challenge asks it', async () => {
    const { tools } = await client.listTools()
    for (const tool of MCP_TOOLS) {
      const listed = tools.find((t) => t.name === tool.name)
      const price = listed?._meta?.[PRICE_META]
      if (tool.route.access === 'free') {
        expect(price, tool.name).toBeUndefined()
        continue
      }
      const challenge = await challengeOf(tool.name, {})
      expect(price, tool.name).toMatchObject({
        amount: challenge.request.amount,
        currency: challenge.request.currency,
        method: challenge.method,
        intent: challenge.intent,
      })
    }
  })
})

describe('resources', () => {
  it('behavior: initialize declares the resources capability', () => {
    expect(client.getServerCapabilities()?.resources).toBeDefined()
  })

  it('behavior: resources/list names every free document, each at an address of this service', async () => {
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.name)).toEqual(MCP_RESOURCES.map((r) => r.name))
    for (const r of resources) {
      expect(r.uri.startsWith(`${base()}/`), r.uri).toBe(true)
      expect(r.mimeType).toBe('application/json')
      expect(r.description?.length).toBeGreaterThan(0)
    }
  })

  it('behavior: the server card lists the very resources resources/list gives', async () => {
    const { resources } = await client.listResources()
    const card = (await (await get('/.well-known/mcp.json')).json()) as { resources: unknown[] }
    expect(card.resources).toEqual(resources)
  })

  it('behavior: resources/read gives the very bytes its address serves over HTTP', async () => {
    const { resources } = await client.listResources()
    for (const r of resources) {
      // The descriptor carries live aggregates: read HTTP on both sides of the MCP read.
      const before = await (await fetch(r.uri)).text()
      const { contents } = await client.readResource({ uri: r.uri })
      const after = await (await fetch(r.uri)).text()
      expect(contents).toHaveLength(1)
      expect(contents[0]).toMatchObject({ uri: r.uri, mimeType: 'application/json' })
      expect([before, after], r.name).toContain((contents[0] as { text: string }).text)
    }
  })

  it('behavior: the catalogue and the foundational rules are the static files /v1 serves from', async () => {
    const { resources } = await client.listResources()
    const read = async (name: string) => {
      const uri = resources.find((r) => r.name === name)?.uri as string
      return JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text)
    }
    expect(await read('catalogue')).toEqual(await (await get('/v1/catalogue')).json())
    const preview = (await (await get('/v1/fde-lessons/preview')).json()) as { rules: unknown[] }
    expect((await read('foundational-rules')).rules).toEqual(preview.rules)
    expect(await read('pricing-index')).toMatchObject({ paid: { endpoint: `${base()}/v1/pricing` } })
  })

  it('error: an unknown resource is a protocol error naming the resources', async () => {
    await expect(client.readResource({ uri: `${base()}/v1/fde-lessons` })).rejects.toThrow(/no resource at/)
  })
})

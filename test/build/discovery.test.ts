/**
 * The discovery documents against schema/CONTRACT.md, field by field, and against each other.
 */

import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { LOCAL_URLS } from '../../schema/config.js'
import { MCP_RESOURCES } from '../../schema/mcp-resources.js'
import { MCP_TOOLS } from '../../schema/mcp-tools.js'
import {
  PAYMENT_TOKEN_GUIDE_URL,
  PAYMENT_TOKEN_HOW_TO,
  PAYMENT_TOKEN_SUMMARY,
} from '../../schema/payment-token.js'
import { RETRYABLE_MEANING } from '../../schema/retryable.js'
import { ROUTES } from '../../schema/routes.js'
import {
  WALLET_CLI_LINE,
  WALLET_CLIENT_CODE,
  WALLET_PAYMENT_HOW_TO,
  WALLET_PAYMENT_SUMMARY,
  WALLET_REFUND_SHORT,
  walletRefundPolicy,
} from '../../schema/wallet-payment.js'

const { files } = await build({
  contentDir: 'content',
  outDir: await mkdtemp(join(tmpdir(), 'rpi-disc-')),
  urls: LOCAL_URLS,
})
const json = (path: string) => JSON.parse(files.get(path) as string)

describe('agents.json', () => {
  const agents = json('public/agents.json')
  it('behavior: has the fields of schema/CONTRACT.md §2.9', () => {
    for (const field of [
      'name',
      'version',
      'publisher',
      'description',
      'inventory',
      'pricing',
      'endpoints',
      'topics_example',
      'contact',
    ])
      expect(agents, field).toHaveProperty(field)
    expect(agents.version).toBe('2.3.0')
    expect(Object.keys(agents.inventory).sort()).toEqual([
      'checklistItems',
      'free',
      'paid',
      'phases',
      'playbooks',
      'total',
    ])
    expect(Object.keys(agents.pricing).sort()).toEqual(['catalogue', 'paid', 'preview', 'wallet'])
    expect(agents.pricing.wallet).toMatch(/0\.50 USD in USDC.*method evm.*x402/)
    expect(agents.pricing.paid).toMatch(/0\.50 USD/)
    expect(Array.isArray(agents.topics_example)).toBe(true)
  })
  it('behavior: every route has an endpoint string with method, path and parameters', () => {
    for (const route of ROUTES) {
      const text = agents.endpoints[route.name] as string
      expect(text.startsWith(`${route.method} ${route.path}`)).toBe(true)
      for (const p of route.params) expect(text).toContain(`${p.name}=`)
    }
  })
  it('behavior: the well-known copy is the same bytes', () => {
    expect(files.get('public/.well-known/agents.json')).toBe(files.get('public/agents.json'))
  })
})

describe('openapi.json', () => {
  const api = json('public/openapi.json')
  it('behavior: OpenAPI 3.1.0, version 2.3.0, under 64 KB', () => {
    expect(api.openapi).toBe('3.1.0')
    expect(api.info.version).toBe('2.3.0')
    expect(Buffer.byteLength(files.get('public/openapi.json') as string)).toBeLessThan(64 * 1024)
  })
  it('behavior: every path of the route table, paid ones with an offer and a 402', () => {
    for (const route of ROUTES) {
      const op = api.paths[route.path]?.[route.method.toLowerCase()]
      expect(op, route.path).toBeTruthy()
      if (route.access === 'paid') {
        expect(op['x-payment-info'].offers).toEqual([
          { amount: '50', currency: 'usd', intent: 'charge', method: 'stripe' },
          // The wallet rail: the same price, settled in USDC (the 402's evm challenge names token and chain).
          { amount: '50', currency: 'usd', intent: 'charge', method: 'evm' },
        ])
        // What x402 crawlers read: the price in dollars and both protocols.
        expect(op['x-payment-info'].price).toEqual({ mode: 'fixed', currency: 'USD', amount: '0.50' })
        expect(op['x-payment-info'].protocols.map((p: object) => Object.keys(p)[0])).toEqual(['mpp', 'x402'])
        expect(op.responses['402']).toBeTruthy()
      } else expect(op['x-payment-info']).toBeUndefined()
      if (route.access === 'retired') {
        expect(op.deprecated).toBe(true)
        expect(op.responses['410']).toBeTruthy()
      }
    }
  })
})

describe('MCP server card', () => {
  const card = json('public/.well-known/mcp.json')
  it('behavior: names transport, endpoint, capabilities, instructions and the five tools', () => {
    expect(card.transport).toEqual({ type: 'streamable-http', endpoint: `${LOCAL_URLS.base_url}/mcp` })
    expect(card.capabilities.experimental.payment.methods.stripe.intents).toEqual(['charge'])
    expect(card.capabilities.experimental.payment.methods.evm.intents).toEqual(['charge'])
    expect(card.instructions).toMatch(/org\.paymentauth\/payment-required/)
    expect(card.tools.map((t: { name: string }) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name))
  })
})

describe('MCP resources in the discovery files', () => {
  it('behavior: the card declares resources and lists each free document at an address of this build', () => {
    const card = json('public/.well-known/mcp.json')
    expect(card.capabilities.resources).toEqual({})
    expect(card.resources.map((r: { name: string }) => r.name)).toEqual(MCP_RESOURCES.map((r) => r.name))
    const manifest = json('private/manifest.json')
    const served = [
      ...Object.values(manifest.bundles as Record<string, { access: string; asset: string }>)
        .filter((b) => b.access === 'free')
        .map((b) => b.asset),
      ROUTES.find((r) => r.name === 'index')?.path,
    ]
    for (const r of card.resources as { uri: string }[])
      expect(served.map((path) => `${LOCAL_URLS.base_url}${path}`)).toContain(r.uri)
  })

  it('behavior: llms.txt links every resource under its own section', () => {
    const text = files.get('public/llms.txt') as string
    const section = text.split('## MCP resources\n')[1]?.split('\n\n')[0] ?? ''
    const card = json('public/.well-known/mcp.json')
    for (const r of card.resources as { name: string; uri: string }[])
      expect(section).toContain(`- [${r.name}](${r.uri})`)
  })
})

describe('MCP server card says only what the tools do', () => {
  const card = json('public/.well-known/mcp.json')
  it('behavior: the card mentions pricing only if some tool serves a pricing route', () => {
    const servesPricing = MCP_TOOLS.some((t) => t.route.path.startsWith('/v1/pricing'))
    const tools = card.tools.map((t: { title: string; description: string }) => `${t.title} ${t.description}`)
    const text = `${card.description} ${card.instructions} ${tools.join(' ')}`
    if (!servesPricing) expect(text).not.toMatch(/\bpric(e|es|ing)\b/i)
  })
  it('behavior: no tool description or instruction types a count of items', () => {
    const text = `${card.description} ${card.instructions} ${JSON.stringify(card.tools)}`
    expect(text).not.toMatch(
      /\b(\d+|two|three|four|five|six)\s+(foundational|paid|free)?\s*(rules|playbooks|gates)\b/i,
    )
  })
})

describe('openapi enums', () => {
  it('behavior: a parameter with a closed set of values is published as an enum of exactly that set', () => {
    const api = json('public/openapi.json')
    for (const route of ROUTES)
      for (const param of route.params.filter((p) => p.allowed)) {
        const op = api.paths[route.path][route.method.toLowerCase()]
        // A parameter several routes share is written once under components/parameters.
        const resolve = (p: { $ref?: string }) =>
          p.$ref ? api.components.parameters[p.$ref.replace('#/components/parameters/', '')] : p
        const schema = op.parameters.map(resolve).find((p: { name: string }) => p.name === param.name).schema
        // A repeatable one (action) is a list whose items take the closed set.
        const values = param.repeatable ? schema.items.enum : schema.enum
        expect(values, `${route.path} ${param.name}`).toEqual([...(param.allowed ?? [])])
      }
    expect(ROUTES.some((r) => r.params.some((p) => p.allowed))).toBe(true)
  })
})

describe('llms.txt', () => {
  const text = files.get('public/llms.txt') as string
  it('behavior: llmstxt.org shape: one H1, a blockquote, H2 link lists', () => {
    const lines = text.split('\n')
    expect(lines[0]).toMatch(/^# /)
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1)
    expect(lines).toContain('## Optional')
    expect(text).toMatch(/\n> .+\n/)
    for (const route of ROUTES.filter((r) => r.access === 'paid')) expect(text).toContain(route.path)
  })
  it('behavior: says both ways to pay, how a buyer with only a key pays, and what cannot be refunded', () => {
    expect(text).toContain(`Payment token: ${PAYMENT_TOKEN_HOW_TO}`)
    expect(text).toContain(`Paying with a wallet key: ${WALLET_PAYMENT_HOW_TO}`)
    expect(text).toContain(`Wallet payments and refunds: ${walletRefundPolicy(LOCAL_URLS.contact)}`)
    expect(walletRefundPolicy(LOCAL_URLS.contact)).toMatch(/cannot be refunded automatically/)
  })
  it('behavior: gives the wallet client as code that runs when copied, a command line, and where to ask for a wallet refund', () => {
    // The settings name mppx's asset object, never a token address the client would refuse.
    expect(text).toContain(WALLET_CLIENT_CODE)
    expect(WALLET_CLIENT_CODE).toContain("import { assets } from 'mppx/evm'")
    expect(WALLET_CLIENT_CODE).toContain('currencies: [assets.base.USDC]')
    expect(text).toContain(WALLET_CLI_LINE)
    expect(text).toContain(`write to ${LOCAL_URLS.contact} with the transaction hash`)
  })
  it('behavior: openapi.json states the wallet rail and its refund limit beside the card token', () => {
    const api = json('public/openapi.json') as {
      components: { securitySchemes: { payment: { description: string } } }
    }
    const { description } = api.components.securitySchemes.payment
    expect(description).toContain(WALLET_PAYMENT_SUMMARY)
    expect(description).toContain(WALLET_REFUND_SHORT)
  })
})

/**
 * llms.txt as the llmstxt.org reference parser reads it: an H1, an optional blockquote, prose,
 * then H2 sections whose list items are each `- [name](url)` with optional `: notes`.
 */
describe('llms.txt format', () => {
  it('behavior: every list item is a link, and every section is an H2 with links under it', async () => {
    const text = files.get('public/llms.txt') as string
    const lines = text.split('\n')
    expect(lines[0]).toMatch(/^# \S/)
    const firstSection = lines.findIndex((l) => l.startsWith('## '))
    expect(firstSection).toBeGreaterThan(0)
    // Before the first section: no list items (the reference parser reads lists only in sections).
    expect(lines.slice(0, firstSection).filter((l) => /^\s*[-*] /.test(l))).toEqual([])
    const items = lines.filter((l) => /^\s*[-*] /.test(l))
    expect(items.length).toBeGreaterThan(0)
    for (const item of items) expect(item).toMatch(/^- \[[^\]]+\]\((https?:\/\/[^)\s]+)\)(: .+)?$/)
    for (const section of lines.filter((l) => l.startsWith('#')).slice(1)) expect(section).toMatch(/^## \S/)
  })
})

describe('openapi.json operations', () => {
  const api = json('public/openapi.json') as {
    paths: Record<string, Record<string, Record<string, unknown>>>
  }
  it('behavior: free operations declare no security, paid ones document every status they can answer', () => {
    for (const route of ROUTES) {
      const op = api.paths[route.path]?.[route.method.toLowerCase()]
      if (!op) continue
      if (route.access === 'paid') {
        expect(op.security, route.path).toEqual([{ payment: [] }])
        expect(Object.keys(op.responses as object).sort(), route.path).toEqual(
          expect.arrayContaining(['200', '400', '402', '404', '409', '429', '503']),
        )
      } else expect(op.security, route.path).toEqual([])
    }
  })

  it('behavior: every refusal of a paid call documents its retryable flag, and 429 and 503 their Retry-After', () => {
    const full = json('public/openapi.json')
    for (const route of ROUTES.filter((r) => r.access === 'paid')) {
      const op = full.paths[route.path][route.method.toLowerCase()]
      for (const status of ['402', '409', '429', '503']) {
        const ref = op.responses[status].$ref as string
        const response = full.components.responses[ref.replace('#/components/responses/', '')]
        const content = response.content
        const schema = (content['application/json'] ?? content['application/problem+json']).schema
        expect(schema.$ref, `${route.path} ${status}`).toBe('#/components/schemas/PaymentProblem')
        if (status === '429' || status === '503')
          expect(response.headers['Retry-After'], `${route.path} ${status}`).toBeDefined()
      }
    }
    expect(full.components.schemas.PaymentProblem.required).toContain('retryable')
    const values = full.components.schemas.Retryable.oneOf.flatMap(
      (s: { enum?: unknown[]; const?: unknown }) => s.enum ?? [s.const],
    )
    expect(values.sort()).toEqual(
      Object.keys(RETRYABLE_MEANING)
        .map((v) => (v === 'false' ? false : v))
        .sort(),
    )
  })
})

describe('openapi.json under the reference linter', () => {
  it("behavior: Redocly's recommended rules report no error", async () => {
    const { createConfig, lintFromString } = await import('@redocly/openapi-core')
    const problems = await lintFromString({
      source: files.get('public/openapi.json') as string,
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    })
    const errors = problems.filter((p) => p.severity === 'error')
    expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location[0]?.pointer}`)).toEqual([])
  })

  it('behavior: every data answer has a response schema, not a bare object', () => {
    const api = json('public/openapi.json')
    for (const route of ROUTES.filter(
      (r) => r.path.startsWith('/v1/') && r.access !== 'retired' && r.method === 'GET',
    )) {
      const schema = api.paths[route.path].get.responses['200'].content['application/json'].schema
      expect(schema.$ref, route.path).toMatch(/^#\/components\/schemas\/\w+$/)
    }
  })
})

describe('how a buyer gets a payment token', () => {
  it("behavior: llms.txt gives the steps; openapi.json and the MCP instructions the summary with Stripe's guide", () => {
    expect(files.get('public/llms.txt')).toContain(`Payment token: ${PAYMENT_TOKEN_HOW_TO}`)
    const api = json('public/openapi.json')
    expect(api.components.securitySchemes.payment.description).toContain(PAYMENT_TOKEN_SUMMARY)
    expect(PAYMENT_TOKEN_SUMMARY).toContain(PAYMENT_TOKEN_GUIDE_URL)
    // An MCP-only agent reads the server's instructions, also on the card.
    expect(json('public/.well-known/mcp.json').instructions).toContain(PAYMENT_TOKEN_SUMMARY)
    // Both name where the seller's Stripe profile is read: the challenge's networkId.
    for (const text of [PAYMENT_TOKEN_HOW_TO, PAYMENT_TOKEN_SUMMARY])
      expect(text).toContain('request.methodDetails.networkId')
  })
})

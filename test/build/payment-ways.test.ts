/**
 * Found on every rail: each discovery document names every way to pay (card, evm, x402) with what
 * a client needs to choose one, and the reference reader of each document that has one accepts it.
 */
import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { validate as validateDiscovery } from 'mppx/discovery'
import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { PUBLISHER_META_KEY, SERVER_JSON_PATH, SERVER_JSON_SCHEMA_FILE } from '../../build/stages/registry.js'
import { LOCAL_URLS } from '../../schema/config.js'
import { PAYMENT_WAYS, paymentWayLine } from '../../schema/payment-ways.js'
import { ROUTES } from '../../schema/routes.js'
import { tempDir } from '../support/content-copy.js'

const { files } = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
const json = (path: string) => JSON.parse(files.get(path) as string)
const WAYS = PAYMENT_WAYS.map((w) => w.id)

/** The `ways` block server.json and both MCP cards carry: every way, each with what it needs. */
function expectEveryWay(payment: { methods: string[]; ways: Record<string, Record<string, unknown>> }) {
  expect(Object.keys(payment.ways)).toEqual(WAYS)
  for (const way of PAYMENT_WAYS) {
    const named = payment.ways[way.id]
    expect(named, way.id).toMatchObject({ over: way.over, needs: way.needs, offer: way.offer, pay: way.pay })
  }
  expect(payment.methods).toEqual(['stripe', 'evm'])
}

describe('every discovery document names every way to pay', () => {
  it('behavior: the ways are card, wallet (evm) and x402, and only x402 is HTTP-only', () => {
    expect(WAYS).toEqual(['stripe', 'evm', 'x402'])
    expect(PAYMENT_WAYS.filter((w) => !w.over.includes('mcp')).map((w) => w.id)).toEqual(['x402'])
  })

  it('behavior: the MCP Registry entry (/.well-known/mcp/server.json)', () => {
    expectEveryWay(json(`public${SERVER_JSON_PATH}`)._meta[PUBLISHER_META_KEY].payment)
  })

  it("behavior: the server card, whose _meta the registry schema's _meta (which the card draft reuses) accepts", () => {
    const card = json('public/mcp/server-card')
    expectEveryWay(card._meta[PUBLISHER_META_KEY].payment)
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormats.default(ajv)
    const schema = JSON.parse(readFileSync(SERVER_JSON_SCHEMA_FILE, 'utf8'))
    const meta = (schema.definitions ?? schema.$defs).ServerDetail.properties._meta
    expect(ajv.validate(meta, card._meta), JSON.stringify(ajv.errors)).toBe(true)
  })

  it('behavior: /.well-known/mcp.json: its capability, its payment block and its instructions name both MCP methods', () => {
    const card = json('public/.well-known/mcp.json')
    expect(Object.keys(card.capabilities.experimental.payment.methods)).toEqual(['stripe', 'evm'])
    expectEveryWay(card.payment)
    expect(card.instructions).toMatch(/stripe, by card/)
    expect(card.instructions).toMatch(/evm, with only a wallet key/)
  })

  it('behavior: agents.json lists every way with what it needs', () => {
    expect(json('public/agents.json').payment_methods).toEqual(JSON.parse(JSON.stringify(PAYMENT_WAYS)))
  })

  it('behavior: llms.txt gives one line per way', () => {
    const text = files.get('public/llms.txt') as string
    for (const way of PAYMENT_WAYS) expect(text).toContain(paymentWayLine(way))
  })

  it('behavior: openapi.json: every paid operation offers both methods and names x402, and the 402 documents PAYMENT-REQUIRED', () => {
    const api = json('public/openapi.json')
    for (const route of ROUTES.filter((r) => r.access === 'paid')) {
      const info = api.paths[route.path][route.method.toLowerCase()]['x-payment-info']
      expect(info.offers.map((o: { method: string }) => o.method)).toEqual(['stripe', 'evm'])
      expect(info.protocols).toContainEqual({ x402: { scheme: 'exact', versions: [2, 1] } })
    }
    const required = api.components.responses.PaymentRequired.headers['PAYMENT-REQUIRED']
    expect(required.$ref).toBe('#/components/headers/PAYMENT-REQUIRED')
    expect(api.components.headers['PAYMENT-REQUIRED'].description).toMatch(/bazaar.*X-PAYMENT/)
  })

  it("behavior: mppx's discovery validator (mppx discover validate) reports no error on openapi.json", () => {
    const problems = validateDiscovery(json('public/openapi.json'))
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
  })
})

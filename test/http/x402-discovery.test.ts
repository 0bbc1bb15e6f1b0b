/**
 * What an x402 Bazaar-style crawler reads: PAYMENT-REQUIRED of every paid route carries the bazaar
 * extension, whose `info` validates against its own `schema` (as x402's facilitator checks it,
 * JSON Schema 2020-12) and whose schema holds the route's query parameters and the answer's shape,
 * with the resource's serviceName and tags within the bazaar's limits; /.well-known/x402 lists every
 * paid route with the same offer.
 */
import { PaymentRequiredV2Schema } from '@x402/core/schemas'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../schema/routes.js'
import { get, PAID_PATHS, payOnce } from '../support/service.js'

const PAID_ROUTES = ROUTES.filter((r) => r.access === 'paid')
const PRINTABLE_ASCII = /^[\x20-\x7e]{1,32}$/

interface Bazaar {
  info: { input: { type: string; method: string; queryParams: Record<string, string> }; output: object }
  schema: {
    properties: {
      input: { properties: { queryParams: { properties: Record<string, unknown> } } }
      output: { properties: { example: { type?: string; properties?: object; anyOf?: unknown[] } } }
    }
  }
}

async function paymentRequired(path: string) {
  const r = await get(path)
  expect(r.status, path).toBe(402)
  const header = r.headers.get('payment-required') ?? ''
  return { header, required: JSON.parse(Buffer.from(header, 'base64').toString('utf8')) }
}

describe('PAYMENT-REQUIRED for a crawler', () => {
  for (const path of PAID_PATHS)
    it(`behavior: ${path}: the bazaar extension validates against its own schema and names an output schema`, async () => {
      const { header, required } = await paymentRequired(path)
      const bazaar = required.extensions?.bazaar as Bazaar
      expect(bazaar, path).toBeDefined()
      const ajv = new Ajv2020({ strict: false, allErrors: true })
      expect(ajv.validate(bazaar.schema, bazaar.info), JSON.stringify(ajv.errors)).toBe(true)
      expect(bazaar.info.input).toMatchObject({ type: 'http', method: 'GET' })
      const answer = bazaar.schema.properties.output.properties.example
      expect(answer.properties ?? answer.anyOf, path).toBeTruthy()
      // x402's own schema of a v2 PaymentRequired keeps the service metadata (it drops what breaks its rules).
      const parsed = PaymentRequiredV2Schema.parse(required)
      expect(parsed.resource).toMatchObject({
        serviceName: required.resource.serviceName,
        tags: required.resource.tags,
      })
      expect(required.resource.serviceName).toMatch(PRINTABLE_ASCII)
      expect(required.resource.tags.length).toBeGreaterThan(0)
      expect(required.resource.tags.length).toBeLessThanOrEqual(5)
      for (const tag of required.resource.tags) expect(tag).toMatch(PRINTABLE_ASCII)
      // A header every 402 carries: far under the 16 KB Node's HTTP parser allows for all headers.
      expect(header.length).toBeLessThan(8 * 1024)
    })

  it("behavior: every route's query parameters are in its input schema, and the example call is not refused as malformed", async () => {
    for (const route of PAID_ROUTES) {
      const { required } = await paymentRequired(route.path)
      const bazaar = required.extensions.bazaar as Bazaar
      const params = bazaar.schema.properties.input.properties.queryParams.properties
      for (const p of route.params) expect(Object.keys(params), route.path).toContain(p.name)
      const query = new URLSearchParams(bazaar.info.input.queryParams).toString()
      expect((await get(`${route.path}${query ? `?${query}` : ''}`)).status, `${route.path}?${query}`).toBe(
        402,
      )
    }
  })

  it("behavior: every paid route's real answer fits the output schema the crawler is given", async () => {
    for (const path of PAID_PATHS) {
      const { unpaid, paid } = await payOnce(path)
      expect(paid.status, path).toBe(200)
      const required = JSON.parse(
        Buffer.from(unpaid.headers.get('payment-required') ?? '', 'base64').toString('utf8'),
      )
      const answer = (required.extensions.bazaar as Bazaar).schema.properties.output.properties.example
      const ajv = new Ajv2020({ strict: false, allErrors: true })
      expect(ajv.validate(answer, await paid.json()), `${path} ${JSON.stringify(ajv.errors)}`).toBe(true)
    }
  })

  it('error: an input the schema forbids (an unknown parameter, a value outside an enum) fails validation', async () => {
    const { required } = await paymentRequired('/v1/fde-preship-checklist')
    const bazaar = required.extensions.bazaar as Bazaar
    const ajv = new Ajv2020({ strict: false })
    const validate = ajv.compile(bazaar.schema)
    const withQuery = (queryParams: Record<string, unknown>) => ({
      ...bazaar.info,
      input: { ...bazaar.info.input, queryParams },
    })
    expect(validate(withQuery({ no_such_parameter: 'x' }))).toBe(false)
    expect(validate(withQuery({ action: 'not-an-action' }))).toBe(false)
    expect(validate(withQuery({ action: ['deploy', 'not-an-action'] }))).toBe(false)
    expect(validate(withQuery({ action: ['deploy', 'dns'], phase: 'verifying' }))).toBe(true)
  })
})

describe('/.well-known/x402', () => {
  for (const path of ['/.well-known/x402', '/.well-known/x402.json'])
    it(`behavior: ${path} lists every paid route with its offer, input and output, and says it is a draft`, async () => {
      const r = await get(path)
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toMatch(/application\/json/)
      const manifest = await r.json()
      expect(manifest.x402Version).toBe(2)
      expect(manifest.status).toMatch(/draft/i)
      const urls = manifest.items.map((i: { resource: { url: string } }) => new URL(i.resource.url).pathname)
      expect(urls.sort()).toEqual(PAID_ROUTES.map((r) => r.path).sort())
      expect(manifest.resources.map((u: string) => new URL(u).pathname).sort()).toEqual(urls.sort())
      for (const item of manifest.items) {
        const { required } = await paymentRequired(new URL(item.resource.url).pathname)
        // The standing offer is the live one without the challenge a 402 binds it to.
        const { challengeId: _id, expires: _e, opaque: _o, ...extra } = required.accepts[0].extra
        expect(item.accepts).toEqual([{ ...required.accepts[0], extra }])
        expect(item.type).toBe('http')
        expect(item.input.method).toBe('GET')
        expect(item.input.queryParams.properties).toEqual(
          required.extensions.bazaar.schema.properties.input.properties.queryParams.properties,
        )
        expect(item.output.schema).toEqual(
          required.extensions.bazaar.schema.properties.output.properties.example,
        )
        expect(item.resource).toMatchObject({
          serviceName: required.resource.serviceName,
          tags: required.resource.tags,
        })
      }
    })
})

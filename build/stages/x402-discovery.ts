/**
 * What an x402 crawler reads of each paid route: the bazaar discovery extension (x402's
 * `extensions.bazaar`: how to call the route, as `info` and a JSON Schema that validates it) and the
 * service metadata of the offer's `resource` (serviceName, tags). Written at build time as one asset
 * the Worker reads once per isolate and puts into every PAYMENT-REQUIRED and /.well-known/x402, so
 * the Worker converts no schema at run time.
 *
 * The output schema is an outline of the answer's schema (types and property names a few levels
 * deep): the whole schema of some answers is over 15 KB, too much for a header that every 402
 * carries. An outline only drops constraints, so every real answer still satisfies it.
 */
import { type AnswerRoute, RESPONSES, responseJsonSchema } from '../../schema/responses.js'
import { type QueryParam, ROUTES, type Route } from '../../schema/routes.js'
import { type Fact, factJsonSchema } from '../../schema/situation.js'
import type { X402Declaration, X402Declarations } from '../../schema/x402-declaration.js'
import type { BuildIssue } from './issues.js'

/** The x402 bazaar limits (serviceName and each tag: printable ASCII, at most 32 characters; 5 tags). */
export const SERVICE_NAME = 'Rules and Pricing-Index Service'
const RULES_TAGS = ['engineering-rules', 'incident-lessons', 'pre-ship-checks', 'sre', 'ai-agents']
const PRICING_TAGS = ['ai-pricing', 'llm-prices', 'pricing-index', 'saas-pricing', 'ai-agents']

/**
 * How deep the answer's outline goes: at most the answer's fields, their items' fields and one more,
 * and less where that outline would be over its budget in the header.
 */
const OUTLINE_DEPTH = 3
const OUTLINE_MAX_BYTES = 2048
const KEPT = ['type', 'enum', 'const', 'required'] as const

/** The schema's shape to `depth` levels, without descriptions, patterns or bounds. */
export function outline(schema: unknown, depth = OUTLINE_DEPTH): Record<string, unknown> {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return {}
  const s = schema as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const key of KEPT) if (s[key] !== undefined) out[key] = s[key]
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(s[key])) out[key] = (s[key] as unknown[]).map((b) => outline(b, depth))
  if (depth <= 0) {
    // Deeper than the outline: the type alone, and no list of fields it no longer names.
    delete out.required
    delete out.anyOf
    delete out.oneOf
    return out
  }
  if (s.properties && typeof s.properties === 'object')
    out.properties = Object.fromEntries(
      Object.entries(s.properties as Record<string, unknown>).map(([k, v]) => [k, outline(v, depth - 1)]),
    )
  if (s.items) out.items = outline(s.items, depth - 1)
  return out
}

/** The deepest outline of the answer within its budget. */
function answerOutline(schema: Record<string, unknown>) {
  for (let depth = OUTLINE_DEPTH; depth > 0; depth--) {
    const shape = outline(schema, depth)
    if (JSON.stringify(shape).length <= OUTLINE_MAX_BYTES) return shape
  }
  return outline(schema, 0)
}

/** A query parameter as a JSON Schema: a repeatable one (action) takes one value or a list. */
function paramSchema(p: QueryParam) {
  const one = {
    type: 'string',
    ...(p.allowed ? { enum: [...p.allowed] } : p.pattern ? { pattern: p.pattern } : {}),
  }
  return p.repeatable ? { anyOf: [one, { type: 'array', items: one }] } : one
}

/** A fact as a query parameter: its type and values, without the question (the catalogue has it). */
function factSchema(f: Fact) {
  const { description: _question, ...schema } = factJsonSchema(f)
  return schema
}

export function x402Declaration(route: Route, facts: readonly Fact[]): X402Declaration {
  if (!(route.name in RESPONSES)) throw new Error(`no answer schema for paid route ${route.name}`)
  const properties = {
    ...Object.fromEntries(route.params.map((p) => [p.name, paramSchema(p)])),
    ...(route.situation ? Object.fromEntries(facts.map((f) => [f.fact, factSchema(f)])) : {}),
  }
  // Every parameter is optional: the example is one call that works.
  const example = Object.fromEntries(route.params.map((p) => [p.name, p.example]))
  return {
    method: route.method,
    path: route.path,
    description: route.summary,
    mimeType: 'application/json',
    serviceName: SERVICE_NAME,
    tags: route.path.startsWith('/v1/pricing') ? PRICING_TAGS : RULES_TAGS,
    bazaar: {
      info: {
        input: { type: 'http', method: route.method, queryParams: example },
        output: { type: 'json', format: 'application/json' },
      },
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          input: {
            type: 'object',
            properties: {
              type: { type: 'string', const: 'http' },
              method: { type: 'string', enum: ['GET', 'HEAD', 'DELETE'] },
              queryParams: { type: 'object', properties, additionalProperties: false },
            },
            required: ['type', 'method'],
            additionalProperties: false,
          },
          output: {
            type: 'object',
            properties: {
              type: { type: 'string' },
              format: { type: 'string' },
              // Where x402's own servers declare the answer's schema (an example, if given, must match it).
              example: answerOutline(responseJsonSchema(route.name as AnswerRoute)),
            },
            required: ['type'],
          },
        },
        required: ['input'],
      },
    },
  }
}

/**
 * The most one route's bazaar extension and service metadata may weigh (JSON): every 402 carries
 * them in PAYMENT-REQUIRED, and x402 clients echo the extension in PAYMENT-SIGNATURE, which the
 * gateway takes up to 16 KB (gateway/payment/evm/x402-wire.ts).
 */
export const X402_DECLARATION_MAX_BYTES = 6 * 1024

/** The routes whose declaration is over its budget, as build issues. */
export function declarationIssues(declarations: X402Declarations): BuildIssue[] {
  return Object.values(declarations).flatMap((d) => {
    const bytes = Buffer.byteLength(JSON.stringify(d))
    return bytes > X402_DECLARATION_MAX_BYTES
      ? [
          {
            file: 'dist/public/data/x402-discovery.json',
            field: d.path,
            problem: `${bytes} bytes of bazaar extension and service metadata`,
            allowed: `at most ${X402_DECLARATION_MAX_BYTES} bytes (it travels in PAYMENT-REQUIRED and PAYMENT-SIGNATURE)`,
          },
        ]
      : []
  })
}

/** The declaration of every paid route, by path. */
export function x402Declarations(facts: readonly Fact[]): X402Declarations {
  return Object.fromEntries(
    ROUTES.filter((r) => r.access === 'paid').map((r) => [r.path, x402Declaration(r, facts)]),
  )
}

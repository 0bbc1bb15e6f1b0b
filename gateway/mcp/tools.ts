/**
 * MCP tool definitions as the protocol lists them: name, title, description and a JSON Schema
 * for the arguments, derived from the route each tool serves.
 */
import { outputSchemasAsset } from '../../dist/private/bundles.js'
import { MCP_TOOLS, type McpTool } from '../../schema/mcp-tools.js'
import { PRICE } from '../../schema/routes.js'
import { type Fact, factJsonSchema } from '../../schema/situation.js'
import type { AssetReader } from '../datasets/bundle-store.js'
import { INTENT } from '../payment/challenge.js'
import { CARD_METHOD as METHOD } from '../payment/methods.js'
import { META_PRICE } from './paid-call.js'

/** How long a client may keep the tool list: it changes only with a new deployment. */
export const TOOL_LIST_CACHE = { ttlMs: 5 * 60_000, cacheScope: 'public' } as const

type OutputSchemas = Record<string, { type: 'object'; [key: string]: unknown }>
let schemas: Promise<OutputSchemas> | undefined

/**
 * Each tool's outputSchema, read from the asset store once per isolate (a content-hashed file of
 * this build, so never stale); kept out of the Worker's bundle. A failed read is not kept.
 */
function outputSchemas(assets: AssetReader): Promise<OutputSchemas> {
  schemas ??= assets.fetch(new Request(`https://assets.invalid${outputSchemasAsset}`)).then(async (r) => {
    if (!r.ok) throw new Error(`tool output schemas: the asset store answered ${r.status}`)
    return (await r.json()) as OutputSchemas
  })
  schemas.catch(() => {
    schemas = undefined
  })
  return schemas
}

/** The tools as tools/list gives them; `facts`: the content's situation facts (the catalogue bundle's). */
export async function listedTools(assets: AssetReader, facts: readonly Fact[]) {
  const outputs = await outputSchemas(assets)
  return MCP_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: {
      type: 'object' as const,
      properties: {
        ...Object.fromEntries(
          tool.route.params.map((p) => {
            const one = p.integer
              ? { type: 'integer', ...p.integer }
              : {
                  type: 'string',
                  ...(p.pattern && !p.allowed ? { pattern: p.pattern } : {}),
                  ...(p.allowed ? { enum: [...p.allowed] } : {}),
                }
            // A repeatable filter (action, technologies) takes one value or a list of them.
            const schema = p.repeatable ? { anyOf: [one, { type: 'array', items: one, minItems: 1 }] } : one
            return [p.name, { ...schema, description: p.description, examples: [p.example] }]
          }),
        ),
        // A situation tool takes each fact as a typed argument beside the action.
        ...(tool.route.situation ? Object.fromEntries(facts.map((f) => [f.fact, factJsonSchema(f)])) : {}),
      },
      additionalProperties: false,
    },
    outputSchema: outputs[tool.name],
    annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
    _meta: {
      price: tool.route.access === 'paid' ? { amount: PRICE.amount, currency: PRICE.currency } : 'free',
      // The same price in the payment scheme's own namespace, as its challenge will state it.
      ...(tool.route.access === 'paid'
        ? {
            [META_PRICE]: {
              amount: PRICE.amount,
              currency: PRICE.currency,
              method: METHOD,
              intent: INTENT,
              display: PRICE.display,
              // The same price in USDC, where the deployment's challenge offers it (method evm).
              also: [{ method: 'evm', intent: INTENT, settles_in: 'USDC' }],
            },
          }
        : {}),
    },
  }))
}

export function toolNamed(name: string): McpTool | undefined {
  return MCP_TOOLS.find((t) => t.name === name)
}

/**
 * MCP arguments are held to the types tools/list declares: a fact declared `integer` takes 12,
 * never "12" (so does `limit`); a filter declared `string` takes text; `action` and `technologies`
 * take one string or a list of them.
 * A client that sends another type learns which argument and what type, before any challenge.
 */
import type { McpTool } from '../../schema/mcp-tools.js'
import type { Fact } from '../../schema/situation.js'

type Declared = 'string' | 'boolean' | 'integer' | 'string or array of strings'

/** The JSON type tools/list declares for an argument; undefined for a name the tool does not take. */
function declared(tool: McpTool, facts: readonly Fact[], name: string): Declared | undefined {
  const param = tool.route.params.find((p) => p.name === name)
  if (param) return param.integer ? 'integer' : param.repeatable ? 'string or array of strings' : 'string'
  if (!tool.route.situation) return undefined
  const fact = facts.find((f) => f.fact === name)
  if (!fact) return undefined
  return fact.type === 'enum' ? 'string' : fact.type
}

function fits(type: Declared, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'boolean':
      return typeof value === 'boolean'
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'string or array of strings':
      return (
        typeof value === 'string' ||
        (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string'))
      )
  }
}

const described = (value: unknown) =>
  Array.isArray(value) ? 'an array' : `the ${typeof value} ${JSON.stringify(value)}`

/** The first argument whose value is not of its declared type, with the reason; undefined when all fit. */
export function argumentTypeError(
  tool: McpTool,
  facts: readonly Fact[],
  args: Record<string, unknown>,
): { parameter: string; detail: string } | undefined {
  for (const [name, value] of Object.entries(args)) {
    const type = declared(tool, facts, name)
    // A name the tool does not take is refused by the filter check, which lists what it takes.
    if (type === undefined || fits(type, value)) continue
    return {
      parameter: name,
      detail: `argument "${name}" must be ${type === 'integer' ? 'an integer' : `a ${type}`} (its type in tools/list), not ${described(value)}`,
    }
  }
  return undefined
}

/** An argument as the filters read it: arrays of actions joined by commas, the rest as text. */
export const argumentText = (value: unknown): string =>
  Array.isArray(value) ? value.join(',') : String(value)

/**
 * The outputSchema of each MCP tool: the JSON Schema of its route's success body, generated here at
 * build time so the Worker carries plain JSON and never converts a schema at run time.
 */
import { MCP_TOOLS } from '../../schema/mcp-tools.js'
import { type AnswerRoute, RESPONSES, responseJsonSchema } from '../../schema/responses.js'

/**
 * MCP wants an outputSchema whose root is `type: object` (SDK clients refuse a tools/list without
 * it). An answer with several object shapes (the whole pricing index, or one category) is a union,
 * whose JSON Schema is a bare `anyOf`: it keeps its branches under an object root.
 */
function objectRoot(tool: string, schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.type === 'object') return schema
  const branches = schema.anyOf
  if (Array.isArray(branches) && branches.every((b: { type?: unknown }) => b.type === 'object'))
    return { type: 'object', ...schema }
  throw new Error(
    `the answer of MCP tool ${tool} is not a JSON object, as MCP requires of structured content`,
  )
}

export function toolOutputSchemas(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    MCP_TOOLS.map((tool) => {
      const route = tool.route.name
      if (!(route in RESPONSES))
        throw new Error(`no response schema for route ${route} (MCP tool ${tool.name})`)
      return [tool.name, objectRoot(tool.name, responseJsonSchema(route as AnswerRoute))]
    }),
  )
}

/**
 * The outputSchema of each MCP tool: the JSON Schema of its route's success body, generated here at
 * build time so the Worker carries plain JSON and never converts a schema at run time.
 */
import { MCP_TOOLS } from '../schema/mcp-tools.js'
import { type AnswerRoute, RESPONSES, responseJsonSchema } from '../schema/responses.js'

export function toolOutputSchemas(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    MCP_TOOLS.map((tool) => {
      const route = tool.route.name
      if (!(route in RESPONSES))
        throw new Error(`no response schema for route ${route} (MCP tool ${tool.name})`)
      return [tool.name, responseJsonSchema(route as AnswerRoute)]
    }),
  )
}

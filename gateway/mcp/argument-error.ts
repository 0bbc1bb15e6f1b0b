/**
 * An argument that fails validation, as a tool result with isError (not a JSON-RPC error): the
 * model reads the result, so it learns which argument was wrong and what it may send instead.
 * Decided before any payment challenge, so nothing is ever charged for it.
 */
import type { CallToolResult } from '@modelcontextprotocol/server'
import type { McpTool } from '../../schema/mcp-tools.js'
import type { Problem } from '../http/problem.js'

/** Why `name` was refused, and what the tool takes there instead. */
function explain(tool: McpTool, name: string, problem: Problem): { reason: string; allowed: string } {
  const params = tool.route.params
  const param = params.find((p) => p.name === name)
  // A situation tool also takes facts, which are not in the route's list: its checks name them.
  if (!param && !tool.route.situation)
    return {
      reason: `${tool.name} has no argument "${name}"`,
      allowed: params.length
        ? `${tool.name} takes only: ${params.map((p) => p.name).join(', ')}`
        : `${tool.name} takes no arguments`,
    }
  const values = problem.extra?.allowed ?? param?.allowed
  return {
    // A malformed value: the allowed shape below says it all, so the HTTP wording is not repeated.
    reason: problem.extra?.pattern ? 'the value is malformed' : problem.detail,
    allowed: Array.isArray(values)
      ? `allowed values: ${values.join(', ')}`
      : param
        ? `allowed: ${param.description}${param.pattern ? ` (a string matching ${param.pattern})` : ''}`
        : 'fde_catalogue lists every fact with the values it takes',
  }
}

/** `problem.extra.parameter` names the argument at fault, as every filter check sets it. */
export function invalidArgument(tool: McpTool, problem: Problem): CallToolResult {
  const name = String(problem.extra?.parameter ?? '')
  const { reason, allowed } = explain(tool, name, problem)
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `Invalid argument "${name}": ${reason}; ${allowed}. Nothing was charged: call ${tool.name} again with a valid value.`,
      },
    ],
  }
}

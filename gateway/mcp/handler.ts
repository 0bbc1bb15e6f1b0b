/**
 * POST /mcp: stateless Streamable HTTP (a fresh server and transport per request, JSON answers).
 * Free tools answer directly; paid tools settle in band through the same payment core as HTTP.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js'
import { MCP_INSTRUCTIONS, PAYMENT_CAPABILITY } from '../../schema/mcp-tools.js'
import { SERVICE_VERSION } from '../../schema/routes.js'
import { paymentConfig } from '../config.js'
import { PREPARE } from '../datasets/prepare.js'
import { checkParams } from '../datasets/query.js'
import type { Env } from '../env.js'
import { clientAddress } from '../payment/http.js'
import { countHit } from '../stats.js'
import { callPaidTool } from './paid-call.js'
import { listedTools, toolNamed } from './tools.js'

function createServer(env: Env, ctx: ExecutionContext, request: Request): Server {
  const server = new Server(
    { name: 'rules-pricing-index', title: 'Rules and Pricing-Index Service', version: SERVICE_VERSION },
    { capabilities: { tools: {}, experimental: PAYMENT_CAPABILITY }, instructions: MCP_INSTRUCTIONS },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }))
  server.setRequestHandler(CallToolRequestSchema, async (call) => {
    const tool = toolNamed(call.params.name)
    if (!tool)
      throw new McpError(ErrorCode.InvalidParams, `unknown tool "${call.params.name}"`, {
        tools: listedTools().map((t) => t.name),
      })
    const args = call.params.arguments ?? {}
    const entries = Object.entries(args).map(([k, v]): [string, string] => {
      if (typeof v !== 'string')
        throw new McpError(ErrorCode.InvalidParams, `argument "${k}" must be a string`)
      return [k, v]
    })
    const checked = checkParams(tool.route, entries)
    if ('status' in checked) throw new McpError(ErrorCode.InvalidParams, checked.detail, checked.extra)
    const prepared = PREPARE[tool.route.name]?.(checked.filters, Date.now())
    if (!prepared) throw new McpError(ErrorCode.InternalError, `no data for ${tool.name}`)
    const endpoint = `mcp:${tool.name}`
    if (!prepared.ok && prepared.problem.status === 400)
      throw new McpError(ErrorCode.InvalidParams, prepared.problem.detail, prepared.problem.extra)
    if (!prepared.ok) {
      countHit(ctx, env, request, endpoint, 'rejected')
      // A filter that matches nothing: a tool error the model can read, with the valid values; no charge.
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `${prepared.problem.detail}\n${JSON.stringify(prepared.problem.extra ?? {})}`,
          },
        ],
        structuredContent: { problem: { ...prepared.problem } },
      }
    }
    if (tool.route.access === 'free') {
      countHit(ctx, env, request, endpoint, 'free')
      const payload = prepared.payload() as Record<string, unknown>
      return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload }
    }
    const config = paymentConfig(env)
    if (!config.ok)
      throw new McpError(
        ErrorCode.InternalError,
        `payments are not configured: ${config.problems.join('; ')}`,
      )
    const result = await callPaidTool(
      env,
      config.config,
      tool,
      prepared,
      call.params._meta,
      clientAddress(request),
    )
    countHit(ctx, env, request, endpoint, result.outcome)
    return result.result
  })
  return server
}

/**
 * JSON-RPC batches left MCP in 2025-06-18. Refusing them keeps one message per request, so a paid
 * answer can never be dropped beside a cancellation or a duplicate id after its payment settled.
 */
async function singleMessage(request: Request): Promise<Request | Response> {
  if (request.method !== 'POST') return request
  const text = await request.text()
  if (text.trimStart().startsWith('['))
    return Response.json(
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'batches are not supported: send one JSON-RPC message per request' },
      },
      { status: 400 },
    )
  return new Request(request, { body: text })
}

export async function handleMcp(incoming: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const request = await singleMessage(incoming)
  if (request instanceof Response) return request
  const server = createServer(env, ctx, request)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request)
  } finally {
    ctx.waitUntil(server.close())
  }
}

/**
 * POST /mcp for both protocol eras from one server definition: 2026-07-28 requests (a per-request
 * envelope, `server/discover`) through the SDK's per-request handler, 2025-era requests
 * (`initialize`, no envelope) through a stateless transport. Answers are JSON, never a stream.
 * Free tools answer directly; paid tools settle in band through the same payment core as HTTP; the
 * free documents are also resources.
 */

import {
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server'
import { MCP_INSTRUCTIONS, MCP_TOOLS, PAYMENT_CAPABILITY } from '../../schema/mcp-tools.js'
import { SERVICE_NAME, SERVICE_VERSION } from '../../schema/routes.js'
import { CHALLENGE_TTL_MS, paymentConfig } from '../config.js'
import { loadBundles, prepare } from '../datasets/prepare.js'
import { checkParams } from '../datasets/query.js'
import type { Env } from '../env.js'
import { hungUp } from '../http/hang-up.js'
import { badRequest } from '../http/problem.js'
import { readBody } from '../http/read-body.js'
import { clientOf, PAID_CACHE_CONTROL } from '../payment/http.js'
import { IDEMPOTENCY_KEY_META } from '../payment/idempotency-key.js'
import { defaultsClock } from '../payment/request-clock.js'
import { countHit } from '../stats.js'
import { withAnsweredRevision } from './answered-revision.js'
import { invalidArgument } from './argument-error.js'
import { argumentText, argumentTypeError } from './argument-types.js'
import { modernHandler } from './modern-handler.js'
import { forbiddenOrigin, originAllowed } from './origin.js'
import { callPaidTool, InvalidIdempotencyKey, META_CREDENTIAL } from './paid-call.js'
import { listedResources, readResource } from './resources.js'
import { listedTools, TOOL_LIST_CACHE, toolNamed } from './tools.js'

/** What the tool call of one request turned out to be: a paid one makes the response uncacheable. */
interface CallSeen {
  paid: boolean
}

function createServer(env: Env, ctx: ExecutionContext, request: Request, seen: CallSeen): Server {
  const server = new Server(
    { name: SERVICE_NAME, title: 'Rules and Pricing-Index Service', version: SERVICE_VERSION },
    {
      capabilities: { tools: {}, resources: {}, experimental: PAYMENT_CAPABILITY },
      instructions: MCP_INSTRUCTIONS,
      // The resource list, like the tool list, changes only with a deployment (the descriptor's
      // bytes change with every submission, so resources/read keeps the SDK's default).
      cacheHints: {
        'tools/list': TOOL_LIST_CACHE,
        'resources/list': TOOL_LIST_CACHE,
        'resources/templates/list': TOOL_LIST_CACHE,
      },
    },
  )
  server.setRequestHandler('tools/list', async () => {
    const data = await loadBundles(env.ASSETS)
    if ('status' in data)
      throw new ProtocolError(ProtocolErrorCode.InternalError, data.detail, { retryable: 'same-credential' })
    return { tools: await listedTools(env.ASSETS, data.catalogue.facts) }
  })
  server.setRequestHandler('resources/list', () => ({ resources: listedResources(env) }))
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }))
  server.setRequestHandler('resources/read', (read) => readResource(env, read.params.uri))
  server.setRequestHandler('tools/call', async (call) => {
    const tool = toolNamed(call.params.name)
    if (!tool)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool "${call.params.name}"`, {
        tools: MCP_TOOLS.map((t) => t.name),
      })
    const endpoint = `mcp:${tool.name}`
    const args = call.params.arguments ?? {}
    // The situation facts come with the bundles; a read that fails is a tool error, nothing charged.
    const data = await loadBundles(env.ASSETS)
    if ('status' in data) {
      countHit(ctx, env, request, endpoint, 'rejected')
      return {
        isError: true,
        content: [{ type: 'text', text: `${data.detail}\n${JSON.stringify(data.extra ?? {})}` }],
      }
    }
    // Every argument is held to the type tools/list declares for it (facts typed, filters text).
    const wrongType = argumentTypeError(tool, data.catalogue.facts, args)
    const checked = wrongType
      ? badRequest(wrongType.detail, { parameter: wrongType.parameter })
      : checkParams(
          tool.route,
          Object.entries(args).map(([k, v]): [string, string] => [k, argumentText(v)]),
        )
    if ('status' in checked) {
      countHit(ctx, env, request, endpoint, 'rejected')
      return invalidArgument(tool, checked)
    }
    // A clock-dependent default resolves against the challenge a credential answers (request-clock.ts).
    const credential = call.params._meta?.[META_CREDENTIAL] as
      | { challenge?: { expires?: unknown } }
      | undefined
    const clock = defaultsClock(credential?.challenge?.expires, CHALLENGE_TTL_MS, Date.now())
    const prepared = await prepare(env.ASSETS, tool.route.name, checked.filters, clock)
    if (!prepared) throw new ProtocolError(ProtocolErrorCode.InternalError, `no data for ${tool.name}`)
    if (!prepared.ok && prepared.problem.status === 400) {
      countHit(ctx, env, request, endpoint, 'rejected')
      return invalidArgument(tool, prepared.problem)
    }
    if (!prepared.ok) {
      countHit(ctx, env, request, endpoint, 'rejected')
      // A filter that matches nothing: a tool error the model can read, with the valid values; no charge.
      // The problem goes in the text only: structuredContent must match the tool's outputSchema, and
      // some clients check it on errors too.
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `${prepared.problem.detail}\n${JSON.stringify(prepared.problem.extra ?? {})}`,
          },
        ],
      }
    }
    if (tool.route.access === 'free') {
      countHit(ctx, env, request, endpoint, 'free', prepared.uncovered)
      const payload = prepared.payload() as Record<string, unknown>
      return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload }
    }
    const config = paymentConfig(env)
    if (!config.ok)
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `payments are not configured: ${config.problems.join('; ')}`,
        { retryable: false },
      )
    seen.paid = true
    let result: Awaited<ReturnType<typeof callPaidTool>>
    try {
      result = await callPaidTool(
        env,
        ctx,
        config.config,
        tool,
        prepared,
        call.params._meta,
        clientOf(request),
      )
    } catch (error) {
      if (error instanceof InvalidIdempotencyKey)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, {
          field: `_meta.${IDEMPOTENCY_KEY_META}`,
          // Nothing was claimed: the same credential, sent again with a valid key, pays as usual.
          retryable: 'same-credential',
        })
      throw error
    }
    countHit(ctx, env, request, endpoint, result.outcome, prepared.uncovered)
    return result.result
  })
  return server
}

/** The largest MCP request read: one tool call with its credential is a few kilobytes. */
const MAX_MCP_BODY_BYTES = 64 * 1024

const rpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status })

/**
 * JSON-RPC batches left MCP in 2025-06-18. Refusing them keeps one message per request, so a paid
 * answer can never be dropped beside a cancellation or a duplicate id after its payment settled.
 */
async function singleMessage(request: Request): Promise<Request | Response> {
  if (request.method !== 'POST') return request
  const body = await readBody(request, MAX_MCP_BODY_BYTES)
  if (!body.ok && body.reason === 'hung-up') return hungUp(new URL(request.url).pathname)
  if (!body.ok)
    return rpcError(
      413,
      -32600,
      `the request body is over ${MAX_MCP_BODY_BYTES} bytes: send one JSON-RPC message`,
    )
  const text = new TextDecoder().decode(body.bytes)
  if (text.trimStart().startsWith('['))
    return rpcError(400, -32600, 'batches are not supported: send one JSON-RPC message per request')
  return new Request(request, { body: text })
}

export async function handleMcp(incoming: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const origin = incoming.headers.get('origin')
  if (!originAllowed(origin)) return forbiddenOrigin(origin ?? '')
  const request = await singleMessage(incoming)
  if (request instanceof Response) return request
  const sent = request.clone() // serving reads the body; naming the revision may read it after
  const seen: CallSeen = { paid: false }
  const answered = await withAnsweredRevision(sent, await serve(request, env, ctx, seen))
  if (!seen.paid) return answered
  const response = new Response(answered.body, answered)
  response.headers.set('cache-control', PAID_CACHE_CONTROL)
  return response
}

async function serve(request: Request, env: Env, ctx: ExecutionContext, seen: CallSeen): Promise<Response> {
  const factory = () => createServer(env, ctx, request, seen)
  if (await isLegacyRequest(request)) {
    const contradiction = await headersContradictBody(request)
    if (contradiction) return rpcError(400, -32600, contradiction)
    return legacy(factory(), request, ctx)
  }
  const modern = modernHandler(factory)
  try {
    return await modern.fetch(request)
  } finally {
    ctx.waitUntil(modern.close())
  }
}

/**
 * A 2025-era request that sends Mcp-Method or Mcp-Name (headers of the 2026-07-28 revision, which the
 * SDK checks only there) must agree with its body: a proxy or a log reads the header, the server the
 * body, and a paid call must never be one thing to one and another to the other.
 */
async function headersContradictBody(request: Request): Promise<string | undefined> {
  const method = request.headers.get('mcp-method')
  const name = request.headers.get('mcp-name')
  if (method === null && name === null) return undefined
  let body: { method?: unknown; params?: { name?: unknown; uri?: unknown } }
  try {
    body = (await request.clone().json()) as typeof body
  } catch {
    return undefined // not JSON: the transport answers that itself
  }
  if (method !== null && method !== body.method)
    return `the Mcp-Method header (${method}) contradicts the request body (${String(body.method)})`
  const named = body.params?.name ?? body.params?.uri
  if (name !== null && name !== named)
    return `the Mcp-Name header (${name}) contradicts the request body (${String(named)})`
  return undefined
}

/** 2025-era traffic: one stateless transport per request, answering in JSON. */
async function legacy(server: Server, request: Request, ctx: ExecutionContext): Promise<Response> {
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

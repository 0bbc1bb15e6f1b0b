/**
 * POST /mcp on the wire, without an SDK: the 2026-07-28 envelope and headers, the answers the
 * revision defines for a wrong version, mismatched headers and a disallowed Origin, and the server
 * card and catalog that point clients here.
 */
import { Agent } from 'undici'
import { describe, expect, it } from 'vitest'
import { MCP_RESOURCES } from '../../schema/mcp-resources.js'
import { MCP_PROTOCOL_VERSIONS, MCP_TOOLS } from '../../schema/mcp-tools.js'
import { base, get, legacyToolCall, processorLedger, token } from '../support/service.js'

const [MODERN] = MCP_PROTOCOL_VERSIONS

/** One modern request: the per-request envelope in _meta, mirrored in the headers the revision asks for. */
function modern(
  method: string,
  params: Record<string, unknown> = {},
  init: { version?: string; headers?: Record<string, string>; dispatcher?: Agent } = {},
) {
  const version = init.version ?? MODERN
  const name = typeof params.name === 'string' ? params.name : undefined
  return fetch(`${base()}/mcp`, {
    method: 'POST',
    ...(init.dispatcher ? { dispatcher: init.dispatcher } : {}),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...init.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
        },
      },
    }),
  })
}

type RpcAnswer = {
  result?: Record<string, unknown>
  error?: { code: number; message: string; data?: unknown }
}

describe('MCP 2026-07-28 on the wire', () => {
  it('behavior: server/discover offers the modern revision, the payment capability and the instructions', async () => {
    const r = await modern('server/discover')
    expect(r.status).toBe(200)
    const { result } = (await r.json()) as RpcAnswer
    expect(result).toMatchObject({
      resultType: 'complete',
      capabilities: {
        tools: {},
        experimental: {
          payment: { methods: { stripe: { intents: ['charge'] }, evm: { intents: ['charge'] } } },
        },
      },
    })
    // 2025-11-25 is served too, but through initialize: discover lists what the modern path speaks.
    expect(result?.supportedVersions).toEqual([MODERN])
    expect(String(result?.instructions)).toContain('org.paymentauth/credential')
  })

  it('behavior: tools/list is complete, cacheable and in the one deterministic order', async () => {
    const { result } = (await (await modern('tools/list')).json()) as RpcAnswer
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public', ttlMs: expect.any(Number) })
    expect((result?.tools as { name: string }[] | undefined)?.map((t) => t.name)).toEqual(
      MCP_TOOLS.map((t) => t.name),
    )
  })

  it('behavior: resources/list is complete and cacheable like the tool list; resources/read names its content type', async () => {
    const { result } = (await (await modern('resources/list')).json()) as RpcAnswer
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public', ttlMs: expect.any(Number) })
    const resources = result?.resources as { uri: string; name: string }[]
    expect(resources.map((r) => r.name)).toEqual(MCP_RESOURCES.map((r) => r.name))
    const first = resources[0] as { uri: string }
    // The revision's Mcp-Name header carries the URI of a resources/read.
    const read = (await (
      await modern('resources/read', { uri: first.uri }, { headers: { 'mcp-name': first.uri } })
    ).json()) as RpcAnswer
    expect(read.error, JSON.stringify(read.error)).toBeUndefined()
    expect(read.result?.contents).toEqual([
      { uri: first.uri, mimeType: 'application/json', text: await (await fetch(first.uri)).text() },
    ])
  })

  it('error: a revision the server does not serve is answered 400 naming the supported ones', async () => {
    const r = await modern('tools/list', {}, { version: '2099-01-01' })
    expect(r.status).toBe(400)
    const { error } = (await r.json()) as RpcAnswer
    expect(error?.code).toBe(-32022)
    expect(JSON.stringify(error?.data)).toContain(MODERN)
  })

  it('error: an Mcp-Method header that disagrees with the body is answered 400, before any tool runs', async () => {
    const r = await modern(
      'tools/call',
      { name: 'fde_catalogue', arguments: {} },
      { headers: { 'mcp-method': 'tools/list' } },
    )
    expect(r.status).toBe(400)
    expect(((await r.json()) as RpcAnswer).error?.code).toBe(-32020)
  })

  it('error: an Mcp-Name header that names another tool than the body is answered 400, before any tool runs', async () => {
    const r = await modern(
      'tools/call',
      { name: 'fde_catalogue', arguments: {} },
      { headers: { 'mcp-name': 'fde_lessons_full' } },
    )
    expect(r.status).toBe(400)
    expect(((await r.json()) as RpcAnswer).error?.code).toBe(-32020)
  })

  it('error: a body over the size limit is refused with 413 before anything is parsed', async () => {
    // Its own connection: the server answers without reading the rest, then closes that connection.
    const dispatcher = new Agent()
    const r = await modern(
      'tools/call',
      { name: 'fde_catalogue', arguments: { padding: 'x'.repeat(200_000) } },
      { dispatcher },
    )
    expect(r.status).toBe(413)
    expect(((await r.json()) as RpcAnswer).error?.code).toBe(-32600)
    await dispatcher.close()
  })

  it('error: an Origin that may not call gets 403; an https origin and no origin are served', async () => {
    for (const origin of ['null', 'http://attacker.example', 'not an origin', 'https://agent.example/path']) {
      const r = await modern('tools/list', {}, { headers: { origin } })
      expect(r.status, origin).toBe(403)
    }
    for (const origin of ['https://agent.example', 'http://localhost:3000']) {
      const r = await modern('tools/list', {}, { headers: { origin } })
      expect(r.status, origin).toBe(200)
    }
  })
})

describe('MCP 2025-era requests on the wire', () => {
  it('error: Mcp-Method or Mcp-Name headers that contradict the body are refused before anything settles', async () => {
    const call = { name: 'fde_lessons_full', arguments: { topic: 'dns' } }
    const unpaid = (await (await legacyToolCall(call)).json()) as RpcAnswer
    const meta = unpaid.result?._meta as Record<string, { challenges: unknown[] }>
    const challenge = meta['org.paymentauth/payment-required']?.challenges[0]
    const paying = {
      ...call,
      _meta: { 'org.paymentauth/credential': { challenge, payload: { spt: token() } } },
    }
    const callsBefore = (await processorLedger()).calls
    for (const headers of [
      { 'mcp-method': 'tools/list' } as Record<string, string>,
      { 'mcp-method': 'tools/call', 'mcp-name': 'fde_catalogue' },
    ]) {
      const r = await legacyToolCall(paying, headers)
      expect(r.status, JSON.stringify(headers)).toBe(400)
      expect(((await r.json()) as RpcAnswer).error?.code).toBe(-32600)
    }
    expect((await processorLedger()).calls).toBe(callsBefore)
    // Nothing was claimed: the same credential, with agreeing headers, pays and is answered.
    const paid = (await (
      await legacyToolCall(paying, { 'mcp-method': 'tools/call', 'mcp-name': 'fde_lessons_full' })
    ).json()) as RpcAnswer
    expect(paid.result?.isError).toBeUndefined()
    const paidMeta = (paid.result?._meta ?? {}) as Record<string, unknown>
    expect(paidMeta['org.paymentauth/receipt']).toBeDefined()
  })
})

describe('server card and catalog', () => {
  it('behavior: the card at /mcp/server-card names the endpoint and the revisions it serves', async () => {
    const r = await get('/mcp/server-card')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/mcp-server-card+json')
    expect(r.headers.get('access-control-allow-origin')).toBe('*')
    const card = (await r.json()) as Record<string, unknown>
    expect(card.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json')
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/)
    expect(card.remotes).toEqual([
      {
        type: 'streamable-http',
        url: `${base()}/mcp`,
        supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
      },
    ])
  })

  it('behavior: both catalog paths list the card, readable from any origin and cacheable', async () => {
    for (const path of ['/.well-known/ai-catalog.json', '/.well-known/mcp/catalog.json']) {
      const r = await get(path)
      expect(r.status, path).toBe(200)
      expect(r.headers.get('access-control-allow-origin'), path).toBe('*')
      expect(r.headers.get('cache-control'), path).toMatch(/^public, max-age=\d+$/)
      const catalog = (await r.json()) as { entries: { type: string; url: string }[] }
      expect(catalog.entries).toEqual([
        expect.objectContaining({
          type: 'application/mcp-server-card+json',
          url: `${base()}/mcp/server-card`,
        }),
      ])
    }
  })
})

/**
 * The smoke test: what a deploy must see answer before any traffic moves to a new version, and what
 * the test suite runs against the local service (test/http/smoke.test.ts). Nothing here pays or
 * charges: it reads the discovery files, asks every paid route for its 402 challenge and checks the
 * price and realm, reads the receipt key set, checks the retired paths' 410 and lifecycle headers,
 * and asks MCP for server/discover and tools/list.
 *
 *   npx tsx scripts/deploy/smoke.ts <base-url> [--realm <host>] [--header 'Name: value']...
 *
 * --realm defaults to the host of <base-url>. --header is sent on every request (the deploy uses it
 * for Cloudflare-Workers-Version-Overrides, to reach a version that serves no traffic yet). Exits 1
 * when any check fails, after printing every check.
 */
import { Challenge } from 'mppx'
import { MCP_PROTOCOL_VERSIONS, MCP_TOOLS } from '../../schema/mcp-tools.js'
import { PRICE, ROUTES, SERVICE_VERSION } from '../../schema/routes.js'

export interface SmokeOptions {
  /** The realm every challenge must name; default the host of the base URL. */
  realm?: string
  /** Headers sent on every request. */
  headers?: Record<string, string>
  /** Per-request timeout, default 15 s. */
  timeoutMs?: number
}

export interface SmokeCheck {
  name: string
  ok: boolean
  detail: string
}

const DISCOVERY = [
  'manifest',
  'manifest_well_known',
  'openapi',
  'llms',
  'mcp_server_card',
  'mcp_catalog',
  'mcp_catalog_well_known',
  'mcp_card',
  'registry_server_json',
] as const

/**
 * How both smokes call the service: never following a redirect (a smoke checks the first answer),
 * each call bounded by `timeoutMs`, with the operator's extra headers on every request.
 */
export function smokeFetch(base: string, headers: Record<string, string> | undefined, timeoutMs: number) {
  return (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { ...headers, ...(init.headers as Record<string, string>) },
    })
}

export async function smoke(baseUrl: string, options: SmokeOptions = {}): Promise<SmokeCheck[]> {
  const base = baseUrl.replace(/\/+$/, '')
  const realm = options.realm ?? new URL(base).host
  const timeout = options.timeoutMs ?? 15_000
  const call = smokeFetch(base, options.headers, timeout)
  const checks: SmokeCheck[] = []
  const check = async (name: string, run: () => Promise<string>) => {
    try {
      checks.push({ name, ok: true, detail: await run() })
    } catch (error) {
      checks.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error) })
    }
  }
  const expect = (condition: unknown, problem: string) => {
    if (!condition) throw new Error(problem)
  }

  for (const name of DISCOVERY) {
    const route = ROUTES.find((r) => r.name === name)
    if (!route) continue
    await check(`discovery ${route.path}`, async () => {
      const r = await call(route.path)
      expect(r.status === 200, `status ${r.status}`)
      const text = await r.text()
      if (route.path.endsWith('.txt')) {
        expect(text.startsWith('# '), 'llms.txt does not start with an H1')
        expect(text.includes(PRICE.display), `llms.txt does not state ${PRICE.display}`)
        return `${text.length} characters`
      }
      const body = JSON.parse(text) as Record<string, unknown>
      if (name === 'openapi')
        expect((body.info as { version?: string })?.version === SERVICE_VERSION, 'version')
      if (name === 'registry_server_json') {
        expect(body.version === SERVICE_VERSION, `server.json version ${body.version}`)
        const remotes = body.remotes as { type: string; url: string }[]
        expect(remotes?.[0]?.type === 'streamable-http' && remotes[0].url.endsWith('/mcp'), 'no /mcp remote')
      }
      return `${text.length} bytes`
    })
  }

  for (const route of ROUTES.filter((r) => r.access === 'paid'))
    await check(`402 ${route.path}`, async () => {
      const r = await call(route.path)
      expect(r.status === 402, `status ${r.status}, expected 402`)
      const challenge = Challenge.fromResponse(r)
      expect(challenge.realm === realm, `realm ${challenge.realm}, expected ${realm}`)
      expect(challenge.method === 'stripe' && challenge.intent === 'charge', 'not stripe/charge')
      const request = challenge.request as { amount?: string; currency?: string }
      expect(
        request.amount === PRICE.amount && request.currency === PRICE.currency,
        `price ${request.amount} ${request.currency}, expected ${PRICE.amount} ${PRICE.currency}`,
      )
      await r.body?.cancel()
      return `${PRICE.display}, realm ${realm}`
    })

  for (const route of ROUTES.filter((r) => r.access === 'retired'))
    await check(`410 ${route.path}`, async () => {
      const r = await call(route.path)
      expect(r.status === 410, `status ${r.status}, expected 410`)
      expect(!r.headers.has('www-authenticate'), 'a retired path issued a payment challenge')
      expect(/^@\d+$/.test(r.headers.get('deprecation') ?? ''), 'no RFC 9745 Deprecation date')
      expect(/rel="successor-version"/.test(r.headers.get('link') ?? ''), 'no successor-version Link')
      await r.body?.cancel()
      return `Deprecation ${r.headers.get('deprecation')}`
    })

  await check('key set /.well-known/jwks.json', async () => {
    const r = await call('/.well-known/jwks.json')
    expect(r.status === 200, `status ${r.status}`)
    const { keys } = (await r.json()) as { keys?: { kty?: string; crv?: string; kid?: string; d?: string }[] }
    expect(Array.isArray(keys) && keys.length > 0, 'no keys')
    for (const key of keys ?? []) {
      expect(key.kty === 'OKP' && key.crv === 'Ed25519' && key.kid, 'a key is not an Ed25519 JWK with a kid')
      expect(key.d === undefined, 'a private key is published')
    }
    return `${keys?.length} key(s)`
  })

  const [modern] = MCP_PROTOCOL_VERSIONS
  const rpc = async (method: string) => {
    const r = await call('/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': modern,
        'mcp-method': method,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': modern,
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'smoke', version: SERVICE_VERSION },
          },
        },
      }),
    })
    expect(r.status === 200, `status ${r.status}`)
    const answer = (await r.json()) as { result?: Record<string, unknown>; error?: { message: string } }
    expect(answer.result, `JSON-RPC error ${answer.error?.message}`)
    return answer.result as Record<string, unknown>
  }
  await check('MCP server/discover', async () => {
    const result = await rpc('server/discover')
    const versions = result.supportedVersions as string[] | undefined
    expect(versions?.includes(modern), `supportedVersions ${JSON.stringify(versions)}`)
    return `speaks ${versions?.join(', ')}`
  })
  await check('MCP tools/list', async () => {
    const result = await rpc('tools/list')
    const names = ((result.tools as { name: string }[] | undefined) ?? []).map((t) => t.name)
    const expected = MCP_TOOLS.map((t) => t.name)
    expect(JSON.stringify(names) === JSON.stringify(expected), `tools ${names.join(', ')}`)
    return `${names.length} tools`
  })
  return checks
}

/** Parses the command line: a base URL, then --realm and repeated --header. */
/** One `--header 'Name: value'` argument, added to `headers` (both smokes take it). */
export function addHeader(headers: Record<string, string>, arg: string | undefined) {
  const [name, ...value] = (arg ?? '').split(':')
  if (!name || !value.length) throw new Error(`--header takes 'Name: value', got ${arg}`)
  headers[name.trim()] = value.join(':').trim()
}

export function smokeArgs(argv: string[]): { baseUrl: string; options: SmokeOptions } {
  const headers: Record<string, string> = {}
  let realm: string | undefined
  let baseUrl: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--realm') realm = argv[++i]
    else if (arg === '--header') addHeader(headers, argv[++i])
    else if (!baseUrl) baseUrl = arg
    else throw new Error(`unexpected argument ${arg}`)
  }
  if (!baseUrl || !/^https?:\/\//.test(baseUrl))
    throw new Error('usage: smoke.ts <base-url> [--realm host] [--header "Name: value"]')
  return { baseUrl, options: { realm, headers } }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { baseUrl, options } = smokeArgs(process.argv.slice(2))
  const checks = await smoke(baseUrl, options)
  for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`)
  const failed = checks.filter((c) => !c.ok).length
  console.log(`${checks.length - failed}/${checks.length} checks passed against ${baseUrl}`)
  process.exit(failed ? 1 : 0)
}

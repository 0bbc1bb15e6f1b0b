/**
 * The official MCP Registry entry (`server.json`, schema 2025-12-11) and the HTTP namespace proof
 * (`/.well-known/mcp-registry-auth`), derived from the route table, the MCP tool list, the service
 * version and the configured addresses. The registry's rules that its JSON Schema does not express
 * are checked here (schema/vendor/README.md says where each was read).
 */

import { PUBLISHER, type ServiceUrls } from '../../schema/config.js'
import { MCP_TOOLS, PAYMENT_CAPABILITY } from '../../schema/mcp-tools.js'
import { PAYMENT_WAYS } from '../../schema/payment-ways.js'
import { PRICE, routeByName, SERVICE_VERSION } from '../../schema/routes.js'

export const SERVER_JSON_SCHEMA =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'
/** The vendored copy of that schema, for the tests. */
export const SERVER_JSON_SCHEMA_FILE = 'schema/vendor/mcp-server-2025-12-11.schema.json'
/**
 * Where the entry is also served: beside the AI catalog under /.well-known/mcp/, the folder the
 * service already uses for site-wide MCP metadata (RFC 8615 places such files under /.well-known).
 * The registry itself needs no served copy; this one lets an aggregator or a buyer read exactly
 * what was published, from the domain the namespace names.
 */
export const SERVER_JSON_PATH = routeByName('registry_server_json').path
/** The file the registry fetches to prove the namespace over HTTP. */
export const REGISTRY_AUTH_PATH = '/.well-known/mcp-registry-auth'
/** The registry's key for publisher metadata: the only `_meta` key it keeps. */
export const PUBLISHER_META_KEY = 'io.modelcontextprotocol.registry/publisher-provided'
/** The official registry's server list, where the entry can be looked up by name. */
export const REGISTRY_API = 'https://registry.modelcontextprotocol.io/v0/servers'

/** The server part of the name, after the namespace. */
const SERVER_PART = 'rules'

/**
 * The namespace a host stands for. A DNS name reads in reverse-DNS order (rules.example.org is
 * org.example.rules): HTTP proof grants exactly that namespace, not subdomains. An IP address has no
 * DNS order to reverse (127.0.0.1 reversed reads as the unrelated 1.0.0.127), so an IPv4 address
 * stays as written and an IPv6 one is written out in full with dashes (a name takes no colons).
 */
export function hostNamespace(hostname: string): string {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(hostname)) return hostname
  if (hostname.startsWith('[')) {
    // URL has already compressed it (no embedded IPv4 form): expand the one `::`.
    const [head = '', tail] = hostname.slice(1, -1).split('::')
    const left = head ? head.split(':') : []
    const right = tail ? tail.split(':') : []
    const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0')
    return [...left, ...zeros, ...right].join('-')
  }
  return hostname.split('.').reverse().join('.')
}

/**
 * The entry's name: the namespace of the service's host, a slash, the server's own name. The proof
 * is served by the same host as /mcp, so the name always follows BASE_URL. The server card carries
 * the same name.
 */
export function registryName(urls: ServiceUrls): string {
  return `${hostNamespace(new URL(urls.base_url).hostname)}/${SERVER_PART}`
}

/** One sentence under the registry's 100-character limit. */
export const REGISTRY_DESCRIPTION = `Incident-traced engineering rules and an AI pricing index for agents; ${PRICE.display} a paid call`

/**
 * Every way to pay and what a client needs to choose one (schema/payment-ways.ts): the registry
 * entry and the server card carry the same block, so a wallet-only client browsing either sees it
 * can pay.
 */
export function paymentMeta() {
  return {
    scheme: 'Payment',
    over: 'HTTP 402 challenge (WWW-Authenticate: Payment) and in-band MCP tool results; x402 over HTTP',
    protocols: [...new Set(PAYMENT_WAYS.map((w) => w.protocol))],
    methods: Object.keys(PAYMENT_CAPABILITY.payment.methods),
    intents: PAYMENT_CAPABILITY.payment.methods.stripe.intents,
    account: 'none; no API key',
    ways: Object.fromEntries(
      PAYMENT_WAYS.map(({ id, over, settles_in, needs, offer, pay }) => [
        id,
        { over, settlesIn: settles_in, needs, offer, pay },
      ]),
    ),
  }
}

export function serverJson(urls: ServiceUrls) {
  const link = (name: string) => `${urls.base_url}${routeByName(name).path}`
  const tools = (access: 'free' | 'paid') =>
    MCP_TOOLS.filter((t) => t.route.access === access).map((t) => t.name)
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: registryName(urls),
    title: PUBLISHER,
    description: REGISTRY_DESCRIPTION,
    version: SERVICE_VERSION,
    websiteUrl: urls.site_url,
    remotes: [{ type: 'streamable-http', url: link('mcp') }],
    _meta: {
      [PUBLISHER_META_KEY]: {
        pricing: {
          perPaidCall: { amount: PRICE.amount, currency: PRICE.currency, display: PRICE.display },
          paidTools: Object.fromEntries(tools('paid').map((name) => [name, PRICE.display])),
          freeTools: tools('free'),
          charged:
            'once per successful paid call; malformed or empty requests are refused before any challenge',
        },
        payment: paymentMeta(),
        links: {
          serverCard: link('mcp_server_card'),
          llms: link('llms'),
          openapi: link('openapi'),
          agents: link('manifest'),
          receiptKeys: link('jwks'),
          x402Manifest: link('x402_manifest'),
          versionPolicy: link('llms'),
        },
      },
    },
  }
}

export type ServerJson = ReturnType<typeof serverJson>

/**
 * The proof record for HTTP namespace authentication, from MCP_REGISTRY_PUBLIC_KEY: either the
 * base64 Ed25519 public key alone or the whole record. The registry reads
 * `v=MCPv1; k=ed25519; p=<base64 of the 32-byte key>` (surrounding whitespace ignored).
 */
export function registryAuthRecord(configured: string): { record?: string; problem?: string } {
  const value = configured.trim()
  const match = /^v=MCPv1;\s*k=([a-z0-9]+);\s*p=([A-Za-z0-9+/=]+)$/.exec(value)
  const algorithm = match ? match[1] : 'ed25519'
  const key = match ? (match[2] as string) : value
  if (algorithm !== 'ed25519')
    return { problem: `the key algorithm is ${algorithm}; registry HTTP proof verifies ed25519 keys only` }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || Buffer.from(key, 'base64').length !== 32)
    return { problem: 'not a base64 Ed25519 public key (32 bytes) nor a "v=MCPv1; k=ed25519; p=…" record' }
  return { record: `v=MCPv1; k=ed25519; p=${key}\n` }
}

/** A local run (loopback BASE_URL): the registry checks that need a public address are skipped. */
export function isLocalAddress(urls: ServiceUrls): boolean {
  return /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(urls.base_url)
}

const NAME = /^[a-zA-Z0-9][a-zA-Z0-9.-]*[a-zA-Z0-9]\/[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$/
const RANGE = /^\s*(\^|~|>=|<=|>|<|=)|\s-\s|\|\||(^|\.)(x|X|\*)(\.|$|-)/
const PUBLISHER_META_MAX_BYTES = 4096
/** Hosts the registry refuses in a remote, or that can never resolve (RFC 6761 special-use names). */
const UNREACHABLE =
  /^(localhost|127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|\[::1\]|\[f[cd]|\[fe[89ab])|\.(invalid|localhost|test|example|local)$/i

/**
 * What the official registry refuses although the schema allows it. `publicBuild` adds the checks
 * that only a deployed address can pass (https, a reachable host, the namespace of that host).
 */
export function registryBreaks(entry: ServerJson, urls: ServiceUrls, publicBuild: boolean): string[] {
  const problems: string[] = []
  if (!NAME.test(entry.name) || entry.name.length > 200)
    problems.push(
      `name ${entry.name}: one slash; namespace and server part start and end with a letter or digit; at most 200 characters`,
    )
  if (entry.version === 'latest' || RANGE.test(entry.version))
    problems.push(`version ${entry.version} is "latest" or a range; the registry takes one exact version`)
  const metaKeys = Object.keys(entry._meta)
  if (metaKeys.some((k) => k !== PUBLISHER_META_KEY))
    problems.push(`_meta keys ${metaKeys.join(', ')}: the registry keeps only ${PUBLISHER_META_KEY}`)
  const metaBytes = Buffer.byteLength(JSON.stringify(entry._meta[PUBLISHER_META_KEY]))
  if (metaBytes > PUBLISHER_META_MAX_BYTES)
    problems.push(`${PUBLISHER_META_KEY} is ${metaBytes} bytes of JSON; the registry's limit is 4096`)
  for (const remote of entry.remotes)
    if (/[{}]/.test(remote.url))
      problems.push(`remote ${remote.url} is a template; this server has no variables`)
  if (!publicBuild) return problems
  const host = new URL(urls.base_url).hostname
  const namespace = hostNamespace(host)
  if (!entry.name.startsWith(`${namespace}/`))
    problems.push(
      `name ${entry.name} is outside ${namespace}/, the only namespace HTTP proof on ${host} grants`,
    )
  for (const remote of entry.remotes) {
    const url = new URL(remote.url)
    if (url.protocol !== 'https:' || UNREACHABLE.test(url.hostname))
      problems.push(`remote ${remote.url} must be a public https address the registry and buyers can reach`)
  }
  if (!entry.websiteUrl.startsWith('https://'))
    problems.push(`websiteUrl ${entry.websiteUrl} must be absolute https`)
  return problems
}

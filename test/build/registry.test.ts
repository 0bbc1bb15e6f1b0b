/**
 * The MCP Registry entry the build writes: valid against the registry's own schema (vendored copy),
 * within the registry's extra rules, naming the live /mcp URL, the version and the price; the
 * namespace proof served exactly when its key is configured.
 */
import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import {
  PUBLISHER_META_KEY,
  REGISTRY_AUTH_PATH,
  registryAuthRecord,
  registryBreaks,
  registryName,
  SERVER_JSON_PATH,
  SERVER_JSON_SCHEMA,
  SERVER_JSON_SCHEMA_FILE,
  type ServerJson,
} from '../../build/stages/registry.js'
import { LOCAL_URLS, type ServiceUrls } from '../../schema/config.js'
import { MCP_TOOLS } from '../../schema/mcp-tools.js'
import { PRICE } from '../../schema/routes.js'
import { tempDir } from '../support/content-copy.js'

const PUBLIC: ServiceUrls = {
  base_url: 'https://rules.example.org',
  site_url: 'https://www.example.org/pricing/',
  register_url: 'https://register.example.org/warn-notices.csv',
  contact: 'corrections@example.org',
}
/** A fixed Ed25519 public key (32 bytes, base64); its private half is not needed here. */
const PUBLIC_KEY = 'Gb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE='
const PACKAGE_VERSION = JSON.parse(readFileSync('package.json', 'utf8')).version as string

const schema = JSON.parse(readFileSync(SERVER_JSON_SCHEMA_FILE, 'utf8'))
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats.default(ajv)
const validate = ajv.compile(schema)

const built = async (urls: ServiceUrls, registryPublicKey?: string) =>
  build({ contentDir: 'content', outDir: await tempDir(), urls, registryPublicKey })
const entryOf = (files: Map<string, string>) =>
  JSON.parse(files.get(`public${SERVER_JSON_PATH}`) as string) as ServerJson

describe('server.json for the MCP Registry', () => {
  it('behavior: the vendored schema is the 2025-12-11 one the entry names', () => {
    expect(schema.$id).toBe(SERVER_JSON_SCHEMA)
  })

  it('behavior: a public build writes an entry the registry schema and its extra rules accept', async () => {
    const { files } = await built(PUBLIC, PUBLIC_KEY)
    const entry = entryOf(files)
    expect(validate(entry), JSON.stringify(validate.errors)).toBe(true)
    expect(registryBreaks(entry, PUBLIC, true)).toEqual([])
    expect(entry.$schema).toBe(SERVER_JSON_SCHEMA)
    expect(entry.name).toBe('org.example.rules/rules')
    expect(entry.version).toBe('2.3.0')
    expect(entry.version).toBe(PACKAGE_VERSION)
    expect(entry.remotes).toEqual([{ type: 'streamable-http', url: 'https://rules.example.org/mcp' }])
    expect(entry.websiteUrl).toBe(PUBLIC.site_url)
    expect(entry.description.length).toBeLessThanOrEqual(100)
    expect(entry.description).toContain(PRICE.display)
  })

  it('behavior: the publisher metadata states the price of every paid tool, the scheme and method, and the links', async () => {
    const meta = entryOf((await built(PUBLIC)).files)._meta[PUBLISHER_META_KEY]
    const paid = MCP_TOOLS.filter((t) => t.route.access === 'paid').map((t) => t.name)
    expect(Object.keys(meta.pricing.paidTools).sort()).toEqual([...paid].sort())
    for (const name of paid)
      expect(meta.pricing.paidTools[name as keyof typeof meta.pricing.paidTools]).toBe('0.50 USD')
    expect(meta.pricing.perPaidCall).toEqual({ amount: '50', currency: 'usd', display: '0.50 USD' })
    expect(meta.payment).toMatchObject({
      scheme: 'Payment',
      methods: ['stripe', 'evm'],
      intents: ['charge'],
      protocols: ['mpp', 'x402'],
    })
    expect(meta.links).toMatchObject({
      serverCard: 'https://rules.example.org/mcp/server-card',
      llms: 'https://rules.example.org/llms.txt',
      openapi: 'https://rules.example.org/openapi.json',
    })
    expect(Buffer.byteLength(JSON.stringify(meta))).toBeLessThanOrEqual(4096)
  })

  it('error: the vendored schema is enforced: it refuses a missing name, a long description, a stdio remote', async () => {
    const entry = entryOf((await built(PUBLIC)).files)
    const { name: _name, ...nameless } = entry
    expect(validate(nameless)).toBe(false)
    expect(validate({ ...entry, description: 'x'.repeat(101) })).toBe(false)
    expect(validate({ ...entry, remotes: [{ type: 'stdio' }] })).toBe(false)
    expect(validate({ ...entry, name: 'no-slash' })).toBe(false)
  })

  it('behavior: an IP host names itself as written, never reversed; a DNS host reads in reverse-DNS order', async () => {
    const local = await built(LOCAL_URLS)
    const card = JSON.parse(local.files.get('public/mcp/server-card') as string) as { name: string }
    // A loopback start: the card and the entry name the address that was started, not 1.0.0.127.
    expect(new URL(LOCAL_URLS.base_url).hostname).toBe('127.0.0.1')
    expect(card.name).toBe('127.0.0.1/rules')
    expect(entryOf(local.files).name).toBe(card.name)
    const nameOf = (base_url: string) => registryName({ ...PUBLIC, base_url })
    expect(nameOf('http://192.0.2.10:8080')).toBe('192.0.2.10/rules')
    expect(nameOf('http://[::1]:8787')).toBe('0-0-0-0-0-0-0-1/rules')
    expect(nameOf('https://[2001:db8::7:1]')).toBe('2001-db8-0-0-0-0-7-1/rules')
    expect(nameOf('http://localhost:8787')).toBe('localhost/rules')
    expect(nameOf('https://rules.example.org')).toBe('org.example.rules/rules')
    // Every one of them is a name the registry's pattern and extra rules take.
    for (const base_url of ['http://[::1]:8787', 'http://[2001:db8::7:1]', 'http://192.0.2.10']) {
      const urls = { ...PUBLIC, base_url }
      const entry = { ...entryOf(local.files), name: registryName(urls) }
      expect(validate(entry), JSON.stringify(validate.errors)).toBe(true)
      expect(registryBreaks(entry, urls, false)).toEqual([])
    }
  })

  it('behavior: the local build writes a schema-valid entry too (served at its well-known path)', async () => {
    const entry = entryOf((await built(LOCAL_URLS)).files)
    expect(validate(entry), JSON.stringify(validate.errors)).toBe(true)
    expect(registryBreaks(entry, LOCAL_URLS, false)).toEqual([])
  })

  it('error: the extra rules refuse what the schema lets through', async () => {
    const entry = entryOf((await built(PUBLIC)).files)
    const breaks = (change: Partial<ServerJson>, urls = PUBLIC) =>
      registryBreaks({ ...entry, ...change } as ServerJson, urls, true)
    // Each of these passes the schema's pattern and lengths.
    expect(breaks({ name: '-org.example.rules/rules' }).join()).toMatch(
      /start and end with a letter or digit/,
    )
    expect(breaks({ name: 'org.example.rules/rules-' }).join()).toMatch(/start and end/)
    expect(breaks({ name: 'com.example/rules' }).join()).toMatch(/outside org\.example\.rules\//)
    expect(breaks({ version: 'latest' }).join()).toMatch(/exact version/)
    expect(breaks({ version: '^2.3.0' }).join()).toMatch(/exact version/)
    expect(breaks({ version: '2.x' }).join()).toMatch(/exact version/)
    expect(breaks({ websiteUrl: 'http://www.example.org/' }).join()).toMatch(/websiteUrl/)
    expect(
      breaks({ remotes: [{ type: 'streamable-http', url: 'http://127.0.0.1:8787/mcp' }] }).join(),
    ).toMatch(/public https/)
    expect(breaks({ remotes: [{ type: 'streamable-http', url: 'https://{host}/mcp' }] }).join()).toMatch(
      /template/,
    )
    const big = { ...entry._meta[PUBLISHER_META_KEY], padding: 'x'.repeat(4096) }
    expect(breaks({ _meta: { [PUBLISHER_META_KEY]: big } } as Partial<ServerJson>).join()).toMatch(/4096/)
    expect(
      breaks({ _meta: { ...entry._meta, 'com.example/other': {} } } as Partial<ServerJson>).join(),
    ).toMatch(/keeps only/)
    for (const ok of ['2.3.0', '2.3.0-rc.1', '10.0.1']) expect(breaks({ version: ok })).toEqual([])
  })

  it('error: a public build whose /mcp address the registry would refuse fails, naming the file', async () => {
    const error = await built({ ...PUBLIC, base_url: 'http://rules.example.org' }).catch((e: unknown) => e)
    expect(String((error as Error).message)).toMatch(/server\.json.*public https address/s)
  })
})

describe('namespace proof (/.well-known/mcp-registry-auth)', () => {
  it('behavior: served exactly when MCP_REGISTRY_PUBLIC_KEY is configured, in the record form the registry parses', async () => {
    const withKey = await built(PUBLIC, PUBLIC_KEY)
    expect(withKey.registryAuth).toBe(true)
    const record = withKey.files.get(`public${REGISTRY_AUTH_PATH}`) as string
    // The registry's parser: v=MCPv1; k=ed25519; p=<base64>, whitespace around ignored, 32-byte key.
    const match = /v=MCPv1;\s*k=ed25519;\s*p=([A-Za-z0-9+/=]+)/.exec(record.trim())
    expect(match?.[1]).toBe(PUBLIC_KEY)
    expect(Buffer.from(match?.[1] as string, 'base64')).toHaveLength(32)
    expect(Buffer.byteLength(record)).toBeLessThanOrEqual(4096)

    const without = await built(PUBLIC)
    expect(without.registryAuth).toBe(false)
    expect([...without.files.keys()].filter((p) => p.includes('mcp-registry-auth'))).toEqual([])
  })

  it('behavior: the whole record is accepted as configuration too; anything else is refused', () => {
    expect(registryAuthRecord(`v=MCPv1; k=ed25519; p=${PUBLIC_KEY}`).record).toBe(
      `v=MCPv1; k=ed25519; p=${PUBLIC_KEY}\n`,
    )
    expect(registryAuthRecord('not a key').problem).toMatch(/Ed25519/)
    expect(registryAuthRecord(`v=MCPv1; k=ecdsap384; p=${PUBLIC_KEY}`).problem).toMatch(/ed25519 keys only/)
    expect(registryAuthRecord(Buffer.alloc(16).toString('base64')).problem).toMatch(/32 bytes/)
  })

  it('error: a malformed key fails the build, naming the variable', async () => {
    const error = await built(PUBLIC, 'abc').catch((e: unknown) => e)
    expect(String((error as Error).message)).toMatch(/MCP_REGISTRY_PUBLIC_KEY/)
  })

  it('behavior: agents.json, llms.txt and the server card name the registry entry only once publishing is configured', async () => {
    const on = (await built(PUBLIC, PUBLIC_KEY)).files
    const off = (await built(PUBLIC)).files
    const name = 'org.example.rules/rules'
    expect(JSON.parse(on.get('public/agents.json') as string).mcp_registry.name).toBe(name)
    expect(on.get('public/llms.txt')).toContain(`MCP Registry: listed as ${name}`)
    const card = JSON.parse(on.get('public/mcp/server-card') as string)
    expect(card.name).toBe(name)
    expect(card._meta[PUBLISHER_META_KEY].mcpRegistry.name).toBe(name)
    expect(JSON.parse(off.get('public/agents.json') as string).mcp_registry).toBeUndefined()
    expect(off.get('public/llms.txt')).not.toContain('MCP Registry:')
    expect(
      JSON.parse(off.get('public/mcp/server-card') as string)._meta[PUBLISHER_META_KEY].mcpRegistry,
    ).toBeUndefined()
  })
})

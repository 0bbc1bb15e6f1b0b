/**
 * A browser agent speaking MCP 2026-07-28 across origins: the real v2 client, bundled by esbuild,
 * runs in a page that Debian's Chromium loads from a second local origin, and buys a tool from the
 * service in band. Chromium enforces CORS itself, so a header the preflight does not allow is a
 * failed fetch here, as it is for any browser agent.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_PROTOCOL_VERSIONS } from '../../schema/mcp-tools.js'
import type { BrowserPurchase } from '../support/browser-mcp-page.js'
import { launchChromium } from '../support/chromium.js'
import { base, get, processorLedger, token } from '../support/service.js'

const [MODERN] = MCP_PROTOCOL_VERSIONS
/** The headers a 2026-07-28 client sends on a request (Last-Event-ID when it resumes a stream). */
const MODERN_REQUEST_HEADERS = [
  'Content-Type',
  'Mcp-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
]

let pageServer: Server | undefined
let browser: Browser | undefined
let pageUrl = ''

beforeAll(async () => {
  const bundle = await build({
    entryPoints: ['test/support/browser-mcp-page.ts'],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0]?.text ?? ''
  const html =
    '<!doctype html><meta charset="utf-8"><title>browser agent</title><script src="/agent.js"></script>'
  pageServer = createServer((req, res) => {
    const [type, body] =
      req.url === '/agent.js' ? ['text/javascript', script] : ['text/html; charset=utf-8', html]
    res.writeHead(200, { 'content-type': type })
    res.end(body)
  })
  await new Promise<void>((resolve) => pageServer?.listen(0, '127.0.0.1', resolve))
  // localhost, not the service's 127.0.0.1, and another port: another origin on both counts, and
  // one the server's Origin check allows (loopback over http).
  pageUrl = `http://localhost:${(pageServer.address() as AddressInfo).port}/`
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => (pageServer ? pageServer.close(() => resolve()) : resolve()))
})

describe('CORS for MCP', () => {
  it('behavior: the /mcp preflight allows every header a 2026-07-28 client sends, and answers expose the revision', async () => {
    const preflight = await get('/mcp', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': MODERN_REQUEST_HEADERS.join(',').toLowerCase(),
      },
    })
    expect(preflight.status).toBe(204)
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/)
    for (const header of MODERN_REQUEST_HEADERS) expect(allowed, header).toContain(header.toLowerCase())
    const answer = await get('/mcp', {
      method: 'POST',
      headers: {
        origin: 'https://agent.example',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: MCP_PROTOCOL_VERSIONS[1],
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        },
      }),
    })
    expect(answer.status).toBe(200)
    const exposed = (answer.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/)
    expect(exposed).toContain('mcp-protocol-version')
    expect(answer.headers.get('mcp-protocol-version')).toBe(MCP_PROTOCOL_VERSIONS[1])
  })
})

describe('a browser MCP client on another origin', () => {
  it(`behavior: negotiates ${MODERN} through server/discover and pays a tool in band`, async () => {
    const page = await (browser as Browser).newPage()
    await page.goto(pageUrl, { waitUntil: 'load' })
    const spt = token()
    const outcome = (await page.evaluate(
      ([endpoint, sptToken]) =>
        (
          globalThis as unknown as {
            buyInBrowser: (e: string, t: string, a: Record<string, string>, s: string) => Promise<unknown>
          }
        ).buyInBrowser(endpoint as string, 'fde_lessons_full', { topic: 'deploy' }, sptToken as string),
      [`${base()}/mcp`, spt],
    )) as BrowserPurchase
    await page.close()
    const trail = JSON.stringify(outcome.exchanges)

    expect(outcome.pageOrigin).not.toBe(new URL(base()).origin)
    expect(outcome.failure, trail).toBeUndefined()
    expect(outcome.negotiated).toBe(MODERN)
    // The first request is server/discover with Mcp-Method, answered by the server, not refused by CORS.
    expect(outcome.exchanges[0], trail).toMatchObject({ method: 'server/discover', status: 200 })
    const calls = outcome.exchanges.filter((e) => e.method === 'tools/call')
    expect(calls.map((e) => e.status)).toEqual([200, 200])
    // Every answer names its revision where the page can read it.
    for (const e of outcome.exchanges.filter((x) => x.status === 200))
      expect(e.answeredRevision, trail).toBe(MODERN)

    expect(outcome.paidIsError).toBeFalsy()
    expect(outcome.receipt).toMatchObject({ status: 'success', challengeId: outcome.challengeId })
    expect((await processorLedger()).succeeded[spt]).toBe(outcome.receipt?.reference)
    const rules = (outcome.structuredContent as { rules: { tags: string[] }[] }).rules
    expect(rules.length).toBeGreaterThan(0)
    for (const rule of rules) expect(rule.tags).toContain('deploy')
  })
})

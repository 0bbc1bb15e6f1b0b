/**
 * What a browser agent's page runs, bundled for Chromium by esbuild (test/mcp/browser-mcp.test.ts):
 * the v2 MCP client, from the page's own origin, negotiating a revision, then one tool bought in band
 * with a credential for the challenge it was given. Every exchange is recorded as the page saw it,
 * so the test can tell a CORS refusal (fetch throws) from the server's own answer, and can check that
 * the page may read the revision that answered.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'

const PAYMENT_REQUIRED = 'org.paymentauth/payment-required'
const CREDENTIAL = 'org.paymentauth/credential'
const RECEIPT = 'org.paymentauth/receipt'

export interface Exchange {
  /** The request's Mcp-Method header (absent on 2025-era requests other than the SDK's own). */
  method: string | null
  /** The HTTP status, or the error a refused cross-origin fetch threw. */
  status: number | string
  /** Mcp-Protocol-Version as the page can read it (null when CORS does not expose it). */
  answeredRevision: string | null
}

export interface BrowserPurchase {
  pageOrigin: string
  negotiated: string | undefined
  exchanges: Exchange[]
  challengeId: string | undefined
  paidIsError: boolean | undefined
  receipt: Record<string, string> | undefined
  structuredContent: unknown
  /** A message when the flow stopped before its end (for the test's failure text). */
  failure?: string
}

async function buyInBrowser(
  endpoint: string,
  tool: string,
  args: Record<string, string>,
  spt: string,
): Promise<BrowserPurchase> {
  const exchanges: Exchange[] = []
  const recordingFetch: typeof fetch = async (input, init) => {
    const method = new Headers(init?.headers).get('mcp-method')
    try {
      const response = await fetch(input, init)
      exchanges.push({
        method,
        status: response.status,
        answeredRevision: response.headers.get('mcp-protocol-version'),
      })
      return response
    } catch (error) {
      exchanges.push({ method, status: String(error), answeredRevision: null })
      throw error
    }
  }
  const out: BrowserPurchase = {
    pageOrigin: location.origin,
    negotiated: undefined,
    exchanges,
    challengeId: undefined,
    paidIsError: undefined,
    receipt: undefined,
    structuredContent: undefined,
  }
  // auto: server/discover first, as a modern client does; only a refusal from the server falls back.
  const client = new Client(
    { name: 'browser-agent', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  )
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch: recordingFetch }))
    out.negotiated = client.getNegotiatedProtocolVersion()
    const unpaid = await client.callTool({ name: tool, arguments: args })
    const required = unpaid._meta?.[PAYMENT_REQUIRED] as { challenges: Record<string, unknown>[] } | undefined
    const challenge = required?.challenges[0]
    if (!challenge) throw new Error(`no challenge in the unpaid answer: ${JSON.stringify(unpaid)}`)
    out.challengeId = challenge.id as string
    const paid = await client.callTool({
      name: tool,
      arguments: args,
      _meta: { [CREDENTIAL]: { challenge, payload: { spt } } },
    })
    out.paidIsError = paid.isError
    out.receipt = paid._meta?.[RECEIPT] as Record<string, string> | undefined
    out.structuredContent = paid.structuredContent
  } catch (error) {
    out.failure = String(error)
  } finally {
    await client.close().catch(() => {})
  }
  return out
}

;(globalThis as { buyInBrowser?: typeof buyInBrowser }).buyInBrowser = buyInBrowser

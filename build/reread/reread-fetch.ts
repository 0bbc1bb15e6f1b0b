/**
 * The re-read's HTTP client: undici with a 15 s budget, at most 5 redirects, a User-Agent that names
 * the service, and an optional origin override so tests (and dry runs) read from a local server.
 */
import { Agent, interceptors, request } from 'undici'
import { LOCAL_URLS, PUBLISHER } from '../../schema/config.js'
import { SERVICE_VERSION } from '../../schema/routes.js'

export interface FetchedPage {
  /** Final HTTP status after redirects (a 3xx here means the redirect limit was reached). */
  status: number
  /** The URL actually requested (after the origin override). */
  url: string
  body: string
  /** The Content-Type the server named, if any (the collect tool tells markdown from HTML by it). */
  contentType?: string | null
}

/** Fetches one page; throws on a network error or timeout (the row is then "unreachable"). */
export type Fetcher = (url: string) => Promise<FetchedPage>

export interface FetcherOptions {
  /** e.g. http://127.0.0.1:8080: https://vendor.example/a/b?c becomes http://127.0.0.1:8080/a/b?c */
  origin?: string
  timeoutMs?: number
  maxRedirections?: number
  /** The address a vendor can write to about our reads, named in the User-Agent. */
  contact?: string
  /** Which tool reads and why, named in the User-Agent; the monthly re-read unless set. */
  reader?: { tool: string; purpose: string }
}

export const REREAD_PURPOSE = 'monthly check that pricing quotes are still on vendor pages'

/** Who is reading, why, and whom to write to: a vendor's logs show it on every read. */
export const userAgent = (contact: string, purpose: string = REREAD_PURPOSE, tool = 'reread') =>
  `RulesPricingIndex-${tool}/${SERVICE_VERSION} (${PUBLISHER}; ${purpose}; contact ${contact})`

/** Pages past this size are cut: a pricing page is never this big, a runaway download might be. */
const MAX_BYTES = 5 * 1024 * 1024

/** Keeps the path and query; replaces scheme, host and port with those of `origin`. */
export function rewriteOrigin(url: string, origin: string): string {
  const from = new URL(url)
  const to = new URL(origin)
  return `${to.origin}${from.pathname}${from.search}`
}

export function undiciFetcher(options: FetcherOptions = {}): Fetcher & { close(): Promise<void> } {
  const timeoutMs = options.timeoutMs ?? 15_000
  const dispatcher = new Agent({
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  }).compose(interceptors.redirect({ maxRedirections: options.maxRedirections ?? 5 }))
  const fetcher = async (sourceUrl: string): Promise<FetchedPage> => {
    const url = options.origin ? rewriteOrigin(sourceUrl, options.origin) : sourceUrl
    // One budget for the whole read, redirects and body included.
    const response = await request(url, {
      method: 'GET',
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'user-agent': userAgent(
          options.contact ?? LOCAL_URLS.contact,
          options.reader?.purpose,
          options.reader?.tool,
        ),
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
        'accept-language': 'en',
      },
    })
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer
      chunks.push(buffer)
      size += buffer.length
      if (size >= MAX_BYTES) {
        response.body.destroy()
        break
      }
    }
    const type = response.headers['content-type']
    return {
      status: response.statusCode,
      url,
      body: decode(Buffer.concat(chunks), type),
      contentType: (Array.isArray(type) ? type[0] : type) ?? null,
    }
  }
  return Object.assign(fetcher, { close: () => dispatcher.close() })
}

/** The charset the server names, else UTF-8; an unknown label falls back to UTF-8 too. */
function decode(bytes: Buffer, contentType: string | string[] | undefined): string {
  const type = Array.isArray(contentType) ? contentType[0] : contentType
  const charset = /charset=["']?([\w-]+)/i.exec(type ?? '')?.[1] ?? 'utf-8'
  try {
    return new TextDecoder(charset).decode(bytes)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}

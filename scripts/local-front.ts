/**
 * The local front door of `npm start` and the tests: a small HTTP server on the public port that
 * reads each request body whole before passing the request to `wrangler dev` on a private port.
 *
 * Why: wrangler's local proxy dies when a client hangs up in the middle of a request body (seen
 * with a cut-short POST), taking the whole local service down. Here a body that never completes is
 * dropped before it reaches wrangler. Production has Cloudflare's edge in this place instead.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { pipeline, Readable } from 'node:stream'
import { Agent, fetch as undiciFetch } from 'undici'

/** Far above anything the service accepts (a submission is 16 KiB); the Workers refuse what is larger. */
const MAX_BODY_BYTES = 8 * 1024 * 1024
/** Enough to keep both cores busy; far fewer than the 100 concurrent requests of the load tests. */
const MAX_REQUESTS_IN_WRANGLER = 8
/** How long a request waits for wrangler to listen again after a restart. */
const RESTART_WAIT_MS = 90_000
/** Headers of one connection, not of the request (the body is re-sent whole, with its own length). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'expect',
  'upgrade',
])

export interface LocalFront {
  /** Where wrangler listens now (it picks a new port at each start). */
  setUpstream(port: number): void
  close(): Promise<void>
}

export async function startLocalFront(publicPort: number): Promise<LocalFront> {
  let upstream = ''
  // At most this many requests are inside wrangler at once; the rest wait here. With 100 slow
  // requests in flight on a busy 2-core machine, wrangler's dev proxy loses its connection to the
  // Worker ("Network connection lost.") and wrangler exits (workers-sdk #15203, #15451, open); fewer at once make it rarer.
  const agent = new Agent({ connections: MAX_REQUESTS_IN_WRANGLER, pipelining: 1 })
  const server: Server = createServer((req, res) => {
    forward(req, res).catch(() => {
      if (!res.headersSent) problem(res, 502, 'the local Workers are not answering (restarting?)')
      else res.destroy()
    })
  })

  async function forward(req: IncomingMessage, res: ServerResponse) {
    const body = await readWhole(req)
    if (body === 'aborted') return // the client hung up mid-body: nothing to pass on
    if (body === 'too-large') return problem(res, 413, `a request body is at most ${MAX_BODY_BYTES} bytes`)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name))
        headers[name] = Array.isArray(value) ? value.join(', ') : value
    const send = () => {
      // Until wrangler is up, a refused connection: waited for below, like a restart.
      if (!upstream)
        return Promise.reject(Object.assign(new Error('not started'), { cause: { code: 'ECONNREFUSED' } }))
      return undiciFetch(`${upstream}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}),
        redirect: 'manual',
        dispatcher: agent,
      })
    }
    const answer = await untilConnected(send)
    const out: Record<string, string | string[]> = {}
    answer.headers.forEach((value, name) => {
      if (name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'content-length')
        out[name] = value
    })
    const setCookies = answer.headers.getSetCookie()
    if (setCookies.length) out['set-cookie'] = setCookies
    res.writeHead(answer.status, out)
    if (!answer.body) return void res.end()
    // An answer cut off upstream (wrangler going down mid-response) ends this response, never the process.
    pipeline(Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream), res, (error) => {
      if (error) res.destroy()
    })
  }

  // Idle keep-alive sockets outlive any client's own idle timeout (undici closes at 4 s), so a
  // client never sends its next request into a socket the server is closing at that moment.
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(publicPort, '127.0.0.1', () => resolve())
  })
  return {
    setUpstream: (port) => {
      upstream = `http://127.0.0.1:${port}`
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
        void agent.close()
      }),
  }
}

/**
 * While wrangler restarts or reloads, its port refuses connections: such a request never reached
 * it, so it is safe to send again once it listens. Anything else (a reset mid-request) is not.
 */
async function untilConnected<T>(send: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + RESTART_WAIT_MS
  for (;;) {
    try {
      return await send()
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code
      if (code !== 'ECONNREFUSED' || Date.now() > deadline) throw error
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

function readWhole(req: IncomingMessage): Promise<Buffer | 'aborted' | 'too-large'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (value: Buffer | 'aborted' | 'too-large') => {
      if (!done) resolve(value)
      done = true
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        finish('too-large')
        req.resume()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => finish(Buffer.concat(chunks)))
    req.on('aborted', () => finish('aborted'))
    req.on('error', () => finish('aborted'))
    req.on('close', () => {
      if (!req.complete) finish('aborted')
    })
  })
}

function problem(res: ServerResponse, status: number, detail: string) {
  res.writeHead(status, { 'content-type': 'application/problem+json', 'cache-control': 'no-store' })
  res.end(
    JSON.stringify({
      type: 'about:blank',
      title: status === 413 ? 'Content Too Large' : 'Bad Gateway',
      status,
      detail,
    }),
  )
}

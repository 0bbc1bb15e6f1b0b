/**
 * A local HTTP proxy in front of the running service that records every request it forwards, so a
 * test can check what a client really sent (headers, body) without changing the client.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: string
}

export interface RecordingProxy {
  url: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Starts a proxy on a free loopback port that forwards to `target` (an origin). */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: RecordedRequest[] = []
  const server: Server = createServer(async (req, res) => {
    const body = await bodyOf(req)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers, body: body.toString('utf8') })
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: body.length ? new Uint8Array(body) : undefined,
      redirect: 'manual',
    })
    const answer = Buffer.from(await upstream.arrayBuffer())
    // fetch has decoded the body: drop the headers that described its encoding on the wire.
    const out: Record<string, string> = {}
    upstream.headers.forEach((value, name) => {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))
        out[name] = value
    })
    res.writeHead(upstream.status, out)
    res.end(answer)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

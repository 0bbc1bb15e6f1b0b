/**
 * A local stand-in for vendors' web servers, for the tools that read vendor pages (the re-read,
 * the collect tool): it answers with `respond` and records each request's User-Agent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface VendorPages {
  origin: string
  /** The User-Agent of every request, in order. */
  userAgents: string[]
  close(): Promise<void>
}

export async function startVendorPages(
  respond: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<VendorPages> {
  const userAgents: string[] = []
  const server = createServer((req, res) => {
    userAgents.push(String(req.headers['user-agent']))
    respond(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    userAgents,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

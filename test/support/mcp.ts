/**
 * MCP clients of the running service for tests (the SDK's own client over Streamable HTTP), and the
 * `_meta` names of the payment extension they read and write.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll } from 'vitest'
import { base } from './service.js'

export const PAYMENT_REQUIRED = 'org.paymentauth/payment-required'
export const CREDENTIAL = 'org.paymentauth/credential'
export const RECEIPT = 'org.paymentauth/receipt'

export async function mcpClient(name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/mcp`)))
  return client
}

/**
 * A test file's two clients, connected before its tests and closed after them: `client` calls,
 * `payer` is for mppx to pay with (McpClient.wrap patches the client it wraps, so it is a separate one).
 */
export function mcpClients(name: string): { client: Client; payer: Client } {
  const clients = {} as { client: Client; payer: Client }
  beforeAll(async () => {
    clients.client = await mcpClient(name)
    clients.payer = await mcpClient(name)
  })
  afterAll(async () => {
    await clients.client.close()
    await clients.payer.close()
  })
  return clients
}

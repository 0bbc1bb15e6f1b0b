/**
 * The SDK's handler for 2026-07-28 requests, answering in JSON. The SDK warns, each time it makes
 * such a handler, that JSON answers drop mid-call notifications; this server sends none, and it makes
 * one handler per request (the server it serves is built from that request), so the warning would be
 * one line of every 2026 request in the operator's log. It is silenced for that call alone.
 */
import { createMcpHandler } from '@modelcontextprotocol/server'

type Factory = Parameters<typeof createMcpHandler>[0]

export function modernHandler(factory: Factory): ReturnType<typeof createMcpHandler> {
  const warn = console.warn
  console.warn = () => undefined
  try {
    return createMcpHandler(factory, { legacy: 'reject', responseMode: 'json' })
  } finally {
    console.warn = warn
  }
}

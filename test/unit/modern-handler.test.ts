/**
 * A 2026-07-28 request leaves no SDK warning in the operator's log: the handler made for it answers
 * in JSON without the line the SDK writes for every such handler, and other warnings still get out.
 */
import { createMcpHandler, Server } from '@modelcontextprotocol/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { modernHandler } from '../../gateway/mcp/modern-handler.js'

const factory = () => new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } })

afterEach(() => vi.restoreAllMocks())

describe('the 2026-07-28 handler', () => {
  it('behavior: the SDK alone warns once per handler made (what the wrapper is for)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    createMcpHandler(factory, { legacy: 'reject', responseMode: 'json' })
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('behavior: made once per request, it writes nothing to the log, and console.warn works after', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    for (let i = 0; i < 3; i++) modernHandler(factory)
    expect(warn).not.toHaveBeenCalled()
    console.warn('still heard')
    expect(warn).toHaveBeenCalledWith('still heard')
  })
})

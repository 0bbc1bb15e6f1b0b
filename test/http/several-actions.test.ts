/**
 * Issue 34 over the wire: several actions in one question (commas, repeated, an MCP list) bought
 * with one payment whatever their order, gates and rules in one answer (include=rules), the free
 * standing AGENTS.md, and MCP arguments held to their declared types.
 */
import { stripe } from 'mppx/client'
import { McpClient } from 'mppx/mcp/client'
import { describe, expect, it } from 'vitest'
import type { PublishedGate, PublishedRule } from '../../schema/datasets.js'
import { sha256Text } from '../../schema/sha256-text.js'
import type { AppliesBecause } from '../../schema/situation.js'
import { mcpClient } from '../support/mcp.js'
import { authorization, challengeFrom, get, payOnce, processorLedger, token } from '../support/service.js'

interface Answer {
  action?: string
  checklist: PublishedGate[]
  rules?: PublishedRule[]
  applies_because: Record<string, AppliesBecause>
}

const COMPOUND = 'stateful=true&one_way_changes=true'

describe('several actions, one payment', () => {
  it('behavior: a credential bought for action=b,a pays for action=a&action=b: the set is bound, not its order', async () => {
    const asked = `/v1/fde-preship-checklist?action=schema-change,dependency-upgrade&${COMPOUND}`
    const unpaid = await get(asked)
    expect(unpaid.status).toBe(402)
    const auth = authorization(challengeFrom(unpaid), { spt: token() })
    const paid = await get(
      `/v1/fde-preship-checklist?action=dependency-upgrade&action=schema-change&${COMPOUND}`,
      {
        headers: { authorization: auth },
      },
    )
    expect(paid.status).toBe(200)
    const answer = (await paid.json()) as Answer
    expect(answer.action).toBe('dependency-upgrade,schema-change')
    const brought = new Set(Object.values(answer.applies_because).flatMap((w) => w.actions ?? []))
    expect([...brought].sort()).toEqual(['dependency-upgrade', 'schema-change'])
  })

  it('error: an unknown action among several is a 400 naming action, before any challenge', async () => {
    const r = await get('/v1/fde-lessons?action=deploy,teleport')
    expect(r.status).toBe(400)
    expect(r.headers.get('www-authenticate')).toBeNull()
    const body = (await r.json()) as { parameter: string; detail: string }
    expect(body.parameter).toBe('action')
    expect(body.detail).toContain('teleport')
  })
})

describe('the whole answer in one purchase', () => {
  it('behavior: include=rules sells the gates and the rules of one situation in one Markdown file, charged once', async () => {
    const before = await processorLedger()
    const { paid } = await payOnce(
      '/v1/fde-preship-checklist?action=deploy&emergency=false&targets=12&stateful=false&one_way_changes=false&include=rules&format=agents-md',
    )
    expect(paid.status).toBe(200)
    expect(paid.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    const text = await paid.text()
    expect(text).toMatch(/^## Before the change \(\d+\)$/m)
    expect(text).toMatch(/^## Rules that apply \(\d+\)$/m)
    expect(text).toContain('(foundational, free)')
    expect(text).toContain('at most 1 of 12 targets')
    // The opening names where it came from; its digest covers the rest of the bytes delivered.
    const [first, second] = text.split('\n')
    expect(first).toMatch(
      /^> rules-pricing-index \S+, content of \d{4}-\d{2}-\d{2}; fetch again: GET \/v1\/fde-preship-checklist\?/,
    )
    const rest = text.slice(text.indexOf('\n\n') + 2)
    expect(second).toContain(sha256Text(rest))
    const after = await processorLedger()
    expect(after.calls - before.calls).toBe(1)
  })

  it('behavior: the standing AGENTS.md is free, Markdown, and bound to no situation', async () => {
    const r = await get('/v1/fde-lessons/preview?format=agents-md')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    const text = await r.text()
    expect(text).toMatch(/^# Standing instructions for production changes$/m)
    expect(text).not.toMatch(/^Situation:/m)
  })

  it('error: include takes only rules: anything else is a 400 naming include, no challenge', async () => {
    const r = await get('/v1/fde-preship-checklist?action=deploy&include=playbooks')
    expect(r.status).toBe(400)
    expect(r.headers.get('www-authenticate')).toBeNull()
    expect(((await r.json()) as { parameter: string }).parameter).toBe('include')
  })
})

describe('MCP arguments hold to their declared types', () => {
  it('error: targets "12" (a string where tools/list declares an integer) is an isError naming targets, no challenge', async () => {
    const client = await mcpClient('several-actions-test')
    const result = await client.callTool({
      name: 'fde_preship_checklist',
      arguments: { action: 'deploy', targets: '12' },
    })
    expect(result.isError).toBe(true)
    expect(result._meta?.['org.paymentauth/payment-required']).toBeUndefined()
    const text = (result.content as { text: string }[])[0]?.text ?? ''
    expect(text).toContain('Invalid argument "targets"')
    expect(text).toContain('an integer')
    await client.close()
  })

  it('error: a boolean fact sent as "true" and a filter sent as a number are refused the same way', async () => {
    const client = await mcpClient('several-actions-test')
    for (const [args, name] of [
      [{ action: 'deploy', emergency: 'true' }, 'emergency'],
      [{ action: 'deploy', format: 3 }, 'format'],
    ] as const) {
      const result = await client.callTool({ name: 'fde_preship_checklist', arguments: args })
      expect(result.isError, name).toBe(true)
      expect((result.content as { text: string }[])[0]?.text, name).toContain(`Invalid argument "${name}"`)
    }
    await client.close()
  })

  it('behavior: action as a list over MCP answers the same union as HTTP, paid in band', async () => {
    const client = await mcpClient('several-actions-test')
    const paying = McpClient.wrap(client, {
      methods: [stripe({ paymentMethod: 'pm_card_visa', createToken: async () => token() })],
    })
    const result = await paying.callTool({
      name: 'fde_preship_checklist',
      arguments: { action: ['schema-change', 'dependency-upgrade'], stateful: true, one_way_changes: true },
    })
    expect(result.isError).toBeFalsy()
    const viaMcp = result.structuredContent as unknown as Answer
    const { paid } = await payOnce(
      `/v1/fde-preship-checklist?action=dependency-upgrade,schema-change&${COMPOUND}`,
    )
    const viaHttp = (await paid.json()) as Answer
    expect(viaMcp.checklist.map((g) => g.id)).toEqual(viaHttp.checklist.map((g) => g.id))
    expect(viaMcp.applies_because).toEqual(viaHttp.applies_because)
    await client.close()
  })
})

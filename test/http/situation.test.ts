/**
 * Asking with the situation: `action` and facts as query parameters (HTTP) or typed arguments
 * (MCP) select exactly the gates and rules that apply, each with why, for one payment.
 */
import { stripe } from 'mppx/client'
import { McpClient } from 'mppx/mcp/client'
import { describe, expect, it } from 'vitest'
import type { Catalogue, PublishedGate, PublishedRule } from '../../schema/datasets.js'
import type { AppliesBecause, Situation } from '../../schema/situation.js'
import { answerIds, heldIds } from '../support/do-no-harm.js'
import { mcpClient } from '../support/mcp.js'
import { authorization, challengeFrom, get, payOnce, token } from '../support/service.js'

const ROUTINE = 'action=deploy&emergency=false&targets=3&stateful=false&one_way_changes=false'
const routine: Situation = {
  action: 'deploy',
  facts: { emergency: false, targets: 3, stateful: false, one_way_changes: false },
}

const catalogue = async () => (await (await get('/v1/catalogue')).json()) as Catalogue

async function paidJson<T>(path: string): Promise<T> {
  const { paid } = await payOnce(path)
  expect(paid.status).toBe(200)
  return (await paid.json()) as T
}

interface ChecklistAnswer {
  count: number
  situation?: Record<string, unknown>
  checklist: PublishedGate[]
  applies_because?: Record<string, AppliesBecause>
  also_consider?: { kind: string; id: string }[]
}

describe('the free catalogue lists the situation facts', () => {
  it('behavior: the four fixed facts are there with their types and questions', async () => {
    const { facts } = await catalogue()
    const fixed = Object.fromEntries(facts.map((f) => [f.fact, f.type]))
    expect(fixed).toMatchObject({
      emergency: 'boolean',
      targets: 'integer',
      stateful: 'boolean',
      one_way_changes: 'boolean',
    })
    for (const f of facts) expect(f.question.length).toBeGreaterThan(10)
  })
})

describe('a situation that cannot be read is a 400 before any challenge', () => {
  for (const [query, parameter] of [
    ['action=deploy&blast_radius=small', 'blast_radius'],
    ['action=deploy&targets=three', 'targets'],
    ['action=deploy&targets=0', 'targets'],
    ['action=deploy&emergency=maybe', 'emergency'],
    ['action=deploy&stateful=true&stateful=false', 'stateful'],
  ] as const)
    for (const path of ['/v1/fde-preship-checklist', '/v1/fde-lessons'])
      it(`error: ${path}?${query} names ${parameter} and what is allowed`, async () => {
        const r = await get(`${path}?${query}`)
        expect(r.status).toBe(400)
        expect(r.headers.get('www-authenticate')).toBeNull()
        expect(r.headers.get('content-type')).toBe('application/problem+json')
        const body = (await r.json()) as { parameter: string; detail: string; allowed?: unknown }
        expect(body.parameter).toBe(parameter)
        expect(body.detail).toContain(parameter)
      })
})

describe('the answer holds exactly what applies, each with why', () => {
  it('behavior: a routine deploy gets the gates the shared evaluation and the do-no-harm rule select from the whole checklist, no more', async () => {
    const { facts } = await catalogue()
    const whole = await paidJson<ChecklistAnswer>('/v1/fde-preship-checklist')
    const expected = await heldIds(whole.checklist, (g) => g.check_spec, 'gates', routine, facts)
    const answer = await paidJson<ChecklistAnswer>(`/v1/fde-preship-checklist?${ROUTINE}`)
    expect(answerIds(answer, 'gate').sort()).toEqual([...expected].sort())
    expect(answer.count).toBeLessThan(whole.count)
    expect(answer.situation).toEqual({
      action: 'deploy',
      emergency: 'false',
      targets: '3',
      stateful: 'false',
      one_way_changes: 'false',
    })
    for (const g of answer.checklist) {
      const why = answer.applies_because?.[g.id]
      expect(why?.action).toBe('deploy')
      // A fact the call answered is never named as unanswered.
      for (const u of why?.unanswered ?? []) expect(Object.keys(routine.facts)).not.toContain(u.fact)
    }
  })

  it('behavior: without facts, action=deploy still answers, and each check kept by an unknown fact names its question', async () => {
    const answer = await paidJson<ChecklistAnswer>('/v1/fde-preship-checklist?action=deploy')
    const conditioned = answer.checklist.filter((g) => g.check_spec.applies_when)
    expect(answer.checklist.length).toBeGreaterThan(0)
    for (const g of conditioned) {
      const unanswered = answer.applies_because?.[g.id]?.unanswered ?? []
      expect(unanswered.length).toBeGreaterThan(0)
      for (const u of unanswered) expect(u.question).toBeTruthy()
    }
  })

  it('behavior: the rules route takes the same situation and applies the same evaluation to each rule, foundational ones included', async () => {
    const { facts } = await catalogue()
    const whole = await paidJson<{ rules: PublishedRule[] }>('/v1/fde-lessons')
    const free = (await (await get('/v1/fde-lessons/preview')).json()) as { rules: PublishedRule[] }
    const expected = await heldIds(
      [...free.rules, ...whole.rules],
      (r) => r.constraint.check_spec,
      'rules',
      routine,
      facts,
    )
    const answer = await paidJson<{
      rules: PublishedRule[]
      applies_because: Record<string, AppliesBecause>
    }>(`/v1/fde-lessons?${ROUTINE}`)
    expect(answerIds(answer, 'rule').sort()).toEqual([...expected].sort())
  })

  it('error: a credential bought for one situation does not buy another; the answer is the same for the same situation in any order', async () => {
    const unpaid = await get(`/v1/fde-preship-checklist?${ROUTINE}`)
    const auth = authorization(challengeFrom(unpaid), { spt: token() })
    const other = await get('/v1/fde-preship-checklist?action=deploy&emergency=true', {
      headers: { authorization: auth },
    })
    expect(other.status).toBe(402)
    const reordered = 'one_way_changes=false&stateful=false&targets=3&emergency=false&action=deploy'
    const same = await get(`/v1/fde-preship-checklist?${reordered}`, { headers: { authorization: auth } })
    expect(same.status).toBe(200)
  })
})

describe('MCP tools take the situation as typed arguments', () => {
  it('behavior: fde_preship_checklist with action and typed facts is paid in band and answers as the HTTP route does', async () => {
    const client = await mcpClient('situation-test')
    const listed = await client.listTools()
    const checklistTool = listed.tools.find((t) => t.name === 'fde_preship_checklist')
    expect(checklistTool?.inputSchema.properties).toMatchObject({
      targets: { type: 'integer', minimum: 1 },
      emergency: { type: 'boolean' },
    })
    const paying = McpClient.wrap(client, {
      methods: [stripe({ paymentMethod: 'pm_card_visa', createToken: async () => token() })],
    })
    const result = await paying.callTool({
      name: 'fde_preship_checklist',
      arguments: { action: 'deploy', emergency: false, targets: 3, stateful: false, one_way_changes: false },
    })
    expect(result.isError).toBeFalsy()
    const viaMcp = result.structuredContent as unknown as ChecklistAnswer
    const viaHttp = await paidJson<ChecklistAnswer>(`/v1/fde-preship-checklist?${ROUTINE}`)
    expect(viaMcp.checklist.map((g) => g.id)).toEqual(viaHttp.checklist.map((g) => g.id))
    expect(viaMcp.applies_because).toEqual(viaHttp.applies_because)
    await client.close()
  })

  it('error: a fact of the wrong type over MCP is refused naming the fact, before any challenge', async () => {
    const client = await mcpClient('situation-test')
    const outcome = await client
      .callTool({ name: 'fde_preship_checklist', arguments: { action: 'deploy', targets: 'many' } })
      .then(
        (r) => JSON.stringify(r),
        (e: Error) => e.message,
      )
    expect(outcome).toContain('targets')
    expect(outcome).not.toContain('payment-required')
    await client.close()
  })
})

/**
 * Free routes, discovery documents, retired paths and HTTP hygiene (404, 405, HEAD, CORS, ETag)
 * against the running service.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { Gate } from '../../schema/content.js'
import { PAID_ADDS, PricingIndexDescriptor, REREAD_PERIOD_DAYS } from '../../schema/pricing-index.js'
import { ROUTES } from '../../schema/routes.js'
import type { Fact } from '../../schema/situation.js'
import { ACTIONS } from '../../schema/vocabulary.js'
import { answerIds, heldIds } from '../support/do-no-harm.js'
import { base, get, payOnce } from '../support/service.js'

/** The gates as written in content/, which the service was built from. */
/** The facts vocabulary, as the content defines it. */
const contentFacts = async (): Promise<Fact[]> =>
  parse(await readFile('content/facts.yaml', 'utf8')) as Fact[]

async function sourceGates(): Promise<Gate[]> {
  const names = (await readdir('content/gates')).filter((n) => n.endsWith('.yaml'))
  return Promise.all(names.map(async (n) => parse(await readFile(join('content/gates', n), 'utf8')) as Gate))
}

describe('free data', () => {
  it('behavior: the catalogue lists every item without paid bodies', async () => {
    const r = await get('/v1/catalogue')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toContain('application/json')
    const body = (await r.json()) as Record<string, { id: string }[]> & { inventory: Record<string, number> }
    expect(body.rules).toHaveLength(body.inventory.total as number)
    expect(body.checklist).toHaveLength(body.inventory.checklistItems as number)
    expect(body.playbooks).toHaveLength(body.inventory.playbooks as number)
    const text = JSON.stringify(body)
    for (const field of ['"constraint"', '"incident"', '"steps"', '"check"', '"prevents"'])
      expect(text).not.toContain(field)
  })

  it('behavior: the preview gives the foundational rules in full, filtered by topic', async () => {
    const all = (await (await get('/v1/fde-lessons/preview')).json()) as {
      rules: { tags: string[]; incident: unknown }[]
    }
    const catalogue = (await (await get('/v1/catalogue')).json()) as { inventory: { free: number } }
    expect(all.rules).toHaveLength(catalogue.inventory.free)
    for (const rule of all.rules) expect(rule.incident).toBeTruthy()
    const tag = all.rules[0]?.tags[0] as string
    const filtered = (await (await get(`/v1/fde-lessons/preview?topic=${tag}`)).json()) as {
      rules: { tags: string[] }[]
    }
    for (const rule of filtered.rules) expect(rule.tags).toContain(tag)
  })

  it('behavior: the pricing index descriptor has exactly the shape of schema/CONTRACT.md §2.5', async () => {
    const r = await get('/v1/pricing/index')
    expect(r.status).toBe(200)
    const body = PricingIndexDescriptor.parse(await r.json())
    expect(body.contribute.categories).toContain('other')
    expect(body.paid.endpoint).toBe(`${base()}/v1/pricing`)
    expect(body.contributions.disclosure_rule).toMatch(/5/)
  })

  it('behavior: the descriptor says what the paid JSON adds and counts the rows due for re-read as the paid rows mark them', async () => {
    const body = PricingIndexDescriptor.parse(await (await get('/v1/pricing/index')).json())
    expect(body.paid.adds).toBe(PAID_ADDS)
    expect(body.freshness.reread_period_days).toBe(REREAD_PERIOD_DAYS)
    expect(body.freshness.due_for_reread).toBe(body.freshness.due_rows.length)
    const { paid } = await payOnce('/v1/pricing')
    expect(paid.status).toBe(200)
    const answer = (await paid.json()) as {
      freshness: unknown
      rows: { id: string; reread_due: boolean; per_unit: unknown[]; price_history: unknown[] }[]
    }
    expect(answer.freshness).toEqual(body.freshness)
    expect(
      answer.rows
        .filter((r) => r.reread_due)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...body.freshness.due_rows].sort())
    for (const r of answer.rows) {
      expect(Array.isArray(r.per_unit), r.id).toBe(true)
      expect(Array.isArray(r.price_history), r.id).toBe(true)
    }
  })

  it('behavior: an ETag revalidates to 304', async () => {
    const first = await get('/v1/catalogue')
    const etag = first.headers.get('etag') as string
    expect(etag).toBeTruthy()
    const second = await get('/v1/catalogue', { headers: { 'if-none-match': etag } })
    expect(second.status).toBe(304)
  })
})

describe('checklist by action', () => {
  for (const query of ['action=teleport', 'phase=verifying&action=teleport', 'action=DNS%20now'])
    it(`error: ${query} is a 400 problem naming the parameter and listing the valid actions, before any challenge`, async () => {
      const r = await get(`/v1/fde-preship-checklist?${query}`)
      expect(r.status).toBe(400)
      expect(r.headers.get('www-authenticate')).toBeNull()
      expect(r.headers.get('content-type')).toBe('application/problem+json')
      const body = (await r.json()) as { parameter: string; allowed: string[]; status: number }
      expect(body).toMatchObject({ status: 400, parameter: 'action' })
      expect(body.allowed).toEqual([...ACTIONS])
    })

  it('error: a phase and an action with no gate in common is a 404 listing the actions that phase has, before any challenge', async () => {
    const gates = await sourceGates()
    const phases = [...new Set(gates.map((g) => g.phase))]
    const pair = phases
      .flatMap((phase) => ACTIONS.map((action) => ({ phase, action })))
      .find(
        ({ phase, action }) =>
          !gates.some((g) => g.phase === phase && g.check_spec.applies_to.includes(action)),
      )
    expect(pair).toBeDefined()
    const { phase, action } = pair as { phase: string; action: (typeof ACTIONS)[number] }
    const r = await get(`/v1/fde-preship-checklist?phase=${phase}&action=${action}`)
    expect(r.status).toBe(404)
    expect(r.headers.get('www-authenticate')).toBeNull()
    const body = (await r.json()) as { parameter: string; allowed: string[] }
    expect(body.parameter).toBe('action')
    const inPhase = gates.filter((g) => g.phase === phase)
    expect(body.allowed).toEqual(
      ACTIONS.filter((a) => inPhase.some((g) => g.check_spec.applies_to.includes(a))),
    )
  })

  it('behavior: the free catalogue lists every action with its meaning and how many gates apply', async () => {
    const catalogue = (await (await get('/v1/catalogue')).json()) as {
      actions: { action: string; means: string; gates: number; rules: number }[]
    }
    const gates = await sourceGates()
    expect(catalogue.actions.map((a) => a.action)).toEqual([...ACTIONS])
    for (const a of catalogue.actions) {
      expect(a.means.length, a.action).toBeGreaterThan(0)
      expect(a.gates, a.action).toBe(
        gates.filter((g) => g.check_spec.applies_to.includes(a.action as never)).length,
      )
    }
  })

  it('behavior: openapi.json documents the action parameter (one or several, from the vocabulary) once, for both routes', async () => {
    const api = (await (await get('/openapi.json')).json()) as {
      paths: Record<string, { get: { parameters: { $ref?: string }[] } }>
      components: { parameters: Record<string, { name: string; schema: { items?: { enum?: string[] } } }> }
    }
    for (const path of ['/v1/fde-preship-checklist', '/v1/fde-lessons'])
      expect(api.paths[path]?.get.parameters.map((p) => p.$ref)).toContain('#/components/parameters/action')
    const param = api.components.parameters.action
    expect(param?.name).toBe('action')
    expect(param?.schema.items?.enum).toEqual([...ACTIONS])
  })

  it('behavior: a paid call with action=dns returns exactly the gates whose applies_to lists dns, each with its check_spec', async () => {
    // Every gate for dns applies with no fact answered; the do-no-harm rule leaves out what only an
    // unanswered yes would keep (those become questions).
    const expected = (
      await heldIds(
        await sourceGates(),
        (g) => g.check_spec,
        'gates',
        { action: 'dns', facts: {} },
        await contentFacts(),
      )
    ).sort()
    expect(expected.length).toBeGreaterThan(0)
    const { paid } = await payOnce('/v1/fde-preship-checklist?action=dns')
    expect(paid.status).toBe(200)
    const body = (await paid.json()) as {
      action: string
      count: number
      checklist: { id: string; check_spec: { applies_to: string[] } }[]
    }
    expect(body.action).toBe('dns')
    expect(answerIds(body, 'gate').sort()).toEqual(expected)
    for (const g of body.checklist) expect(g.check_spec.applies_to).toContain('dns')
  })

  it('behavior: action combines with phase', async () => {
    const inPhase = (await sourceGates()).filter((g) => g.phase === 'when-it-goes-wrong')
    const expected = (
      await heldIds(
        inPhase,
        (g) => g.check_spec,
        'gates',
        { action: 'revert', facts: {} },
        await contentFacts(),
      )
    ).sort()
    expect(expected.length).toBeGreaterThan(0)
    const { paid } = await payOnce('/v1/fde-preship-checklist?phase=when-it-goes-wrong&action=revert')
    expect(paid.status).toBe(200)
    const body = (await paid.json()) as { action: string; phase: string; checklist: { id: string }[] }
    expect(body.action).toBe('revert')
    expect(body.checklist.map((g) => g.id).sort()).toEqual(expected)
  })
})

describe('discovery documents', () => {
  const docs: [string, string][] = [
    ['/agents.json', 'application/json'],
    ['/.well-known/agents.json', 'application/json'],
    ['/.well-known/mcp.json', 'application/json'],
    ['/openapi.json', 'application/json'],
    ['/llms.txt', 'text/plain'],
  ]
  for (const [path, type] of docs)
    it(`behavior: ${path} is served as ${type} with CORS`, async () => {
      const r = await get(path)
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toContain(type)
      expect(r.headers.get('access-control-allow-origin')).toBe('*')
    })

  it('behavior: both agents.json paths serve the same bytes', async () => {
    expect(await (await get('/agents.json')).text()).toBe(
      await (await get('/.well-known/agents.json')).text(),
    )
  })
})

describe('retired feed', () => {
  for (const path of ['/v1/warn-feed', '/v1/warn-feed/preview', '/v1/warn-feed/status'])
    it(`behavior: ${path} answers 410 naming the free register, never a challenge`, async () => {
      const r = await get(path, { headers: { authorization: 'Payment e30' } })
      expect(r.status).toBe(410)
      expect(r.headers.get('www-authenticate')).toBeNull()
      const body = (await r.json()) as {
        replacement: Record<string, string>
        withdrawn_on: string
        status: number
      }
      expect(body.status).toBe(410)
      expect(body.withdrawn_on).toBe('2026-09-18')
      expect(body.replacement.licence).toBe('Apache-2.0')
      expect(body.replacement.csv).toMatch(/^https?:\/\/.+\.csv$/)
    })
})

describe('HTTP hygiene', () => {
  it('error: an unknown path is a 404 problem', async () => {
    const r = await get('/v1/nope')
    expect(r.status).toBe(404)
    expect(r.headers.get('content-type')).toBe('application/problem+json')
  })

  it('error: a wrong method is 405 with Allow', async () => {
    for (const route of ROUTES.filter((x) => x.path.startsWith('/v1/'))) {
      const method = route.method === 'GET' ? 'DELETE' : 'PUT'
      const r = await get(route.path, { method })
      expect(r.status, `${method} ${route.path}`).toBe(405)
      expect(r.headers.get('allow')).toContain(route.method)
    }
  })

  it('behavior: HEAD answers like GET without a body', async () => {
    const r = await get('/v1/catalogue', { method: 'HEAD' })
    expect(r.status).toBe(200)
    expect(await r.text()).toBe('')
    const paid = await get('/v1/fde-lessons', { method: 'HEAD' })
    expect(paid.status).toBe(402)
    expect(paid.headers.get('www-authenticate')).toMatch(/^Payment /)
  })

  it('behavior: a CORS preflight allows any origin and the payment headers', async () => {
    const r = await get('/v1/fde-lessons', {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'GET' },
    })
    expect(r.status).toBe(204)
    expect(r.headers.get('access-control-allow-origin')).toBe('*')
    expect(r.headers.get('access-control-allow-headers')).toMatch(/Authorization/)
    const paid = await get('/v1/fde-lessons')
    expect(paid.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/)
    expect(paid.headers.get('access-control-expose-headers')).toMatch(/Payment-Receipt/)
  })
})

describe('the bare address', () => {
  it('behavior: / is a short page that leads to llms.txt, openapi.json and every free document', async () => {
    const r = await get('/')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/text\/html/)
    const html = await r.text()
    for (const href of ['/llms.txt', '/openapi.json', '/agents.json', '/v1/catalogue'])
      expect(html).toContain(`href="${href}"`)
  })
})

/**
 * Issue 43 over the wire: asking with `technologies` (names or aliases, any case, an optional
 * @version) on the free preview and the paid checklist, over HTTP and MCP; the payment binds the set
 * of names, not their order or spelling; bad values are a 400 naming the parameter before any
 * challenge; names with no trap on file are said so and counted in /v1/stats for the editors.
 */
import { stripe } from 'mppx/client'
import { McpClient } from 'mppx/mcp/client'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Catalogue } from '../../schema/datasets.js'
import { CHANGE_MAX, LIMIT_DEFAULT } from '../../schema/routes.js'
import { mcpClient } from '../support/mcp.js'
import {
  authorization,
  challengeFrom,
  get,
  payOnce,
  processorLedger,
  token,
  until,
} from '../support/service.js'

interface Line {
  kind: string
  id: string
  title: string
  level: string
  why: string
}
interface Answer {
  technologies: { asked: string; covered: string[]; not_covered: string[]; notes: string[] }
  traps?: { id: string; technology: string; probe: string; safe_path: string; source_url: string }[]
  ranked: Line[]
  also_consider?: Line[]
  rules?: unknown[]
  checklist?: unknown[]
}

/** A name nothing covers, unique to this run so its count in /v1/stats is this test's own. */
const UNKNOWN = `zz-nothing-${process.pid}`
let covered: Catalogue['technologies']

beforeAll(async () => {
  covered = ((await (await get('/v1/catalogue')).json()) as Catalogue).technologies
})

/** A covered technology with an alias, and another covered one. */
const twoCovered = () => {
  const aliased = covered.find((t) => t.aliases.length > 0)
  const other = covered.find((t) => t.id !== aliased?.id)
  if (!aliased || !other) throw new Error('the content covers fewer than two technologies, one with an alias')
  return { aliased, other }
}

describe('the free catalogue and preview', () => {
  it('behavior: the catalogue lists each technology covered with its aliases and trap count', () => {
    expect(covered.length).toBeGreaterThan(0)
    for (const t of covered) {
      expect(t.id).toMatch(/^[a-z0-9-]+$/)
      expect(t.name.length).toBeGreaterThan(0)
      expect(t.kind.length).toBeGreaterThan(0)
      expect(t.traps).toBeGreaterThan(0)
    }
  })

  it('behavior: the preview names the traps on file for an alias in capitals, and says plainly which names have none', async () => {
    const { aliased } = twoCovered()
    const alias = aliased.aliases[0] as string
    const r = await get(`/v1/fde-lessons/preview?technologies=${alias.toUpperCase()},${UNKNOWN}`)
    expect(r.status).toBe(200)
    const body = (await r.json()) as Answer
    expect(body.technologies.covered).toEqual([aliased.id])
    expect(body.technologies.not_covered).toEqual([UNKNOWN])
    expect(body.technologies.notes).toContain(`no traps on file for ${UNKNOWN}`)
    expect(body.ranked).toHaveLength(aliased.traps)
    for (const line of body.ranked) {
      expect(line.kind).toBe('trap')
      expect(line.id.startsWith(`${aliased.id}-`)).toBe(true)
      // The probe, the stop condition, the safe path and the source are the paid part.
      expect(line).not.toHaveProperty('probe')
      expect(line.why).toContain('GET /v1/fde-preship-checklist')
    }
    // The free rules are still there, as without technologies.
    expect(body.rules?.length).toBeGreaterThan(0)
  })

  for (const [query, why] of [
    ['technologies=pg;drop', 'malformed'],
    [`technologies=${'x'.repeat(41)}`, 'longer than 40'],
    [`technologies=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`, 'at most 20'],
    ['technologies=pg@16!', 'malformed'],
  ] as const)
    it(`error: the preview refuses ${query.slice(0, 40)} with a 400 naming technologies`, async () => {
      const r = await get(`/v1/fde-lessons/preview?${query}`)
      expect(r.status).toBe(400)
      expect(r.headers.get('content-type')).toBe('application/problem+json')
      const body = (await r.json()) as { parameter: string; detail: string }
      expect(body.parameter).toBe('technologies')
      expect(body.detail).toContain(why)
    })
})

describe('the paid checklist with technologies', () => {
  it('error: bad technologies or limit are a 400 naming them, before any challenge', async () => {
    for (const [query, parameter] of [
      ['action=deploy&technologies=a%3Bb', 'technologies'],
      ['action=deploy&limit=0', 'limit'],
      ['action=deploy&limit=51', 'limit'],
      ['action=deploy&limit=many', 'limit'],
      ['action=deploy&limit=3&limit=4', 'limit'],
      // change ranks the traps of the names asked: alone it cannot be right.
      ['action=deploy&change=add+partitions', 'change'],
      [`action=deploy&technologies=kafka&change=${'word '.repeat(CHANGE_MAX / 5 + 1)}`, 'change'],
    ] as const) {
      const r = await get(`/v1/fde-preship-checklist?${query}`)
      expect(r.status, query).toBe(400)
      expect(r.headers.get('www-authenticate'), query).toBeNull()
      expect(((await r.json()) as { parameter: string }).parameter, query).toBe(parameter)
    }
  })

  it('behavior: a credential bought for b,a pays for an alias of a and b in another order, and the answer holds their traps in full', async () => {
    const { aliased, other } = twoCovered()
    const unpaid = await get(`/v1/fde-preship-checklist?action=deploy&technologies=${other.id},${aliased.id}`)
    expect(unpaid.status).toBe(402)
    const auth = authorization(challengeFrom(unpaid), { spt: token() })
    const alias = aliased.aliases[0] as string
    const paid = await get(
      `/v1/fde-preship-checklist?action=deploy&technologies=${alias}&technologies=${other.id.toUpperCase()}&limit=50`,
      { headers: { authorization: auth } },
    )
    // The limit differs from the challenge's query: a new binding, refused before any charge.
    expect(paid.status).toBe(402)
    const same = await get(
      `/v1/fde-preship-checklist?action=deploy&technologies=${alias}&technologies=${other.id.toUpperCase()}`,
      { headers: { authorization: auth } },
    )
    expect(same.status).toBe(200)
    const answer = (await same.json()) as Answer
    expect(answer.technologies.asked).toBe([aliased.id, other.id].sort().join(','))
    expect(answer.ranked.length).toBeLessThanOrEqual(LIMIT_DEFAULT)
    const inFull = answer.traps ?? []
    const listed = [...answer.ranked, ...(answer.also_consider ?? [])].filter((l) => l.kind === 'trap')
    expect(inFull.length).toBe(answer.ranked.filter((l) => l.kind === 'trap').length)
    for (const t of inFull) {
      expect([aliased.id, other.id]).toContain(t.technology)
      expect(t.probe.length).toBeGreaterThan(0)
      expect(t.safe_path.length).toBeGreaterThan(0)
      expect(t.source_url).toMatch(/^https:\/\//)
    }
    for (const l of listed) expect(l.why).toContain('for deploy')
  })

  it('behavior: with change, the trap told in its words leads the paid answer, and a credential for one change cannot buy another', async () => {
    // Any covered technology with two or more traps: the words of its last trap's line are the change.
    const technology = covered.find((t) => t.traps >= 2)
    if (!technology) throw new Error('no technology has two traps on file')
    const preview = (await (
      await get(`/v1/fde-lessons/preview?technologies=${technology.id}`)
    ).json()) as Answer
    const target = preview.ranked.at(-1) as Line
    const change = target.title.split(/\s+/).slice(0, 12).join(' ')
    const query = `technologies=${technology.id}&change=${encodeURIComponent(change)}`
    const { paid } = await payOnce(`/v1/fde-preship-checklist?${query}`)
    expect(paid.status).toBe(200)
    const answer = (await paid.json()) as Answer
    expect(answer.ranked[0]?.id).toBe(target.id)
    expect(answer.ranked[0]?.why).toContain("told in your change's words")
    const unpaid = await get(`/v1/fde-preship-checklist?${query}`)
    const other = await get(
      `/v1/fde-preship-checklist?technologies=${technology.id}&change=something+else+entirely`,
      {
        headers: { authorization: authorization(challengeFrom(unpaid), { spt: token() }) },
      },
    )
    expect(other.status).toBe(402)
    expect(((await other.json()) as { type: string }).type).toMatch(/invalid-challenge$/)
  })

  it('error: a credential bought for one set of technologies cannot buy another, and nothing is charged', async () => {
    const { aliased, other } = twoCovered()
    const challenge = challengeFrom(
      await get(`/v1/fde-preship-checklist?action=deploy&technologies=${aliased.id}`),
    )
    const before = await processorLedger()
    for (const query of [`technologies=${other.id}`, `technologies=${aliased.id},${other.id}`, '']) {
      const r = await get(`/v1/fde-preship-checklist?action=deploy${query ? `&${query}` : ''}`, {
        headers: { authorization: authorization(challenge, { spt: token() }) },
      })
      expect(r.status, query).toBe(402)
      expect(((await r.json()) as { type: string }).type, query).toMatch(/invalid-challenge$/)
    }
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('behavior: as Markdown, the traps come with probe, stop condition and safe path, and missing names are said plainly', async () => {
    const { other } = twoCovered()
    const { paid } = await payOnce(
      `/v1/fde-preship-checklist?action=deploy&technologies=${other.id},${UNKNOWN}&format=agents-md&limit=50`,
    )
    expect(paid.status).toBe(200)
    const text = await paid.text()
    expect(text).toContain(`No traps on file for ${UNKNOWN}.`)
    const answerHasTraps = /^## Traps of the technologies named \(\d+\)$/m.test(text)
    if (answerHasTraps) {
      expect(text).toMatch(/^ {2}- Probe first: `/m)
      expect(text).toMatch(/^ {2}- Stop if: /m)
      expect(text).toMatch(/^ {2}- Safe path: /m)
    } else expect(text).toContain(`No traps on file for ${other.name} (${other.id}) and deploy`)
  })

  it('behavior: names asked for and not covered are counted in /v1/stats for the editors', async () => {
    const count = async () =>
      ((await (await get('/v1/stats')).json()) as { technologies_not_covered: Record<string, number> })
        .technologies_not_covered[UNKNOWN] ?? 0
    // The preview above asked for it once, the paid Markdown once; a fresh free call adds one more.
    const before = await count()
    expect((await get(`/v1/fde-lessons/preview?technologies=${UNKNOWN}`)).status).toBe(200)
    // Hits leave each isolate in batches (gateway/stats.ts): wait for the count (the test's own limit bounds it).
    await until(async () => (await count()) >= before + 1)
    expect(await count()).toBeGreaterThanOrEqual(before + 1)
  })
})

describe('technologies and limit over MCP', () => {
  it('error: limit as the string "3" or technologies as a number is an isError naming it, no challenge', async () => {
    const client = await mcpClient('technologies-test')
    for (const [args, name, type] of [
      [{ action: 'deploy', limit: '3' }, 'limit', 'an integer'],
      [{ action: 'deploy', technologies: 5 }, 'technologies', 'string or array of strings'],
      [{ action: 'deploy', limit: 0 }, 'limit', 'from 1 to 50'],
    ] as const) {
      const result = await client.callTool({ name: 'fde_preship_checklist', arguments: args })
      expect(result.isError, name).toBe(true)
      expect(result._meta?.['org.paymentauth/payment-required'], name).toBeUndefined()
      const text = (result.content as { text: string }[])[0]?.text ?? ''
      expect(text, name).toContain(`"${name}"`)
      expect(text, name).toContain(type)
    }
    await client.close()
  })

  it('behavior: technologies as a list and limit as an integer answer as HTTP does, paid in band', async () => {
    const { aliased, other } = twoCovered()
    const client = await mcpClient('technologies-test')
    const paying = McpClient.wrap(client, {
      methods: [stripe({ paymentMethod: 'pm_card_visa', createToken: async () => token() })],
    })
    const tools = await client.listTools()
    const schema = tools.tools.find((t) => t.name === 'fde_preship_checklist')?.inputSchema
      .properties as Record<string, { type?: string; anyOf?: unknown[] }>
    expect(schema.limit?.type).toBe('integer')
    expect(schema.technologies?.anyOf).toHaveLength(2)
    const result = await paying.callTool({
      name: 'fde_preship_checklist',
      arguments: { action: 'deploy', technologies: [aliased.id, other.id, UNKNOWN], limit: 3 },
    })
    expect(result.isError).toBeFalsy()
    const viaMcp = result.structuredContent as unknown as Answer
    expect(viaMcp.ranked).toHaveLength(3)
    expect(viaMcp.technologies.notes).toContain(`no traps on file for ${UNKNOWN}`)
    const { paid } = await payOnce(
      `/v1/fde-preship-checklist?action=deploy&technologies=${UNKNOWN},${other.id},${aliased.id}&limit=3`,
    )
    const viaHttp = (await paid.json()) as Answer
    expect(viaMcp.ranked).toEqual(viaHttp.ranked)
    expect(viaMcp.technologies).toEqual(viaHttp.technologies)
    await client.close()
  })
})

/**
 * Issue 34, item 6: AGENTS.md is standing, a skill is one task. Without a situation the Markdown is
 * standing instructions; with one it is a per-task file that says so; every Markdown answer opens
 * with where it came from and a digest that can be recomputed from the saved file; a skill's name
 * tells two situations of one action apart and its header stays within the loaders' limits.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { skillIssues, soldMarkdown } from '../../build/checks/markdown-budgets.js'
import { skillHeader, skillHeaderBreaks } from '../../build/checks/skill-headers.js'
import { todayUtc } from '../../build/pricing/pricing-freshness.js'
import { collect } from '../../build/stages/collect.js'
import { compileDatasets } from '../../build/stages/datasets.js'
import type { BuildIssue } from '../../build/stages/issues.js'
import { validate } from '../../build/stages/validate.js'
import { SERVICE_NAME, SERVICE_VERSION } from '../../schema/routes.js'
import { sha256Text } from '../../schema/sha256-text.js'

const issues: BuildIssue[] = []
const content = validate(await collect('content', issues), undefined, issues)
const data = compileDatasets(content, todayUtc())
const ROUTINE = {
  action: 'deploy',
  emergency: 'false',
  targets: '3',
  stateful: 'false',
  one_way_changes: 'false',
}

/** The provenance quote block at the top of a Markdown answer (after a skill's header), and the rest. */
function split(text: string): { quote: string[]; rest: string } {
  const afterHeader = text.startsWith('---\n') ? text.slice(text.indexOf('\n---\n') + 5) : text
  const end = afterHeader.indexOf('\n\n')
  return {
    quote: afterHeader.slice(0, end).split('\n'),
    rest: afterHeader.slice(end + 2),
  }
}

describe('standing instructions and per-task files', () => {
  it('behavior: the preview as agents-md is standing: every foundational rule, every fact to send, how to read an answer, nothing bound to a situation', () => {
    expect(issues).toEqual([])
    const text = soldMarkdown(data, 'preview', {}) as string
    expect(text).toMatch(/standing instructions/i)
    expect(text).toMatch(/^## How to read a situated answer$/m)
    for (const r of data.preview.rules) expect(text).toContain(`\`${r.id}\``)
    for (const f of data.catalogue.facts) expect(text).toContain(`\`${f.fact}\``)
    expect(text).toContain('/v1/fde-preship-checklist?action=')
    expect(text).not.toMatch(/^Situation:/m)
    expect(text).not.toMatch(
      /Kept until you answer:|Worked out for this situation:|For this one task only|Applies because:/,
    )
  })

  it('behavior: a situated answer says it is for one task, and a whole set says it is not fitted to one change', () => {
    for (const route of ['lessons', 'checklist'] as const) {
      expect(soldMarkdown(data, route, ROUTINE)).toMatch(/For this one task only: .*not in AGENTS\.md/)
      expect(soldMarkdown(data, route, {})).toMatch(/not fitted to one change/)
    }
  })

  it('behavior: every Markdown answer opens with service, version, content date, how to fetch it again and a digest of the rest that recomputes', () => {
    for (const [route, filters, format] of [
      ['checklist', { ...ROUTINE, include: 'rules' }, 'agents-md'],
      ['lessons', ROUTINE, 'skill'],
      ['playbooks', {}, 'agents-md'],
      ['preview', {}, 'agents-md'],
    ] as const) {
      const text = soldMarkdown(data, route, filters, format) as string
      const { quote, rest } = split(text)
      expect(quote[0]).toContain(
        `${SERVICE_NAME} ${SERVICE_VERSION}, content of ${data.catalogue.content_date}`,
      )
      expect(quote[0]).toMatch(/fetch again: GET \/v1\/\S+/)
      expect(quote[0]).toContain(`format=${format}`)
      const digest = quote[1]?.match(/[0-9a-f]{64}/)?.[0]
      expect(digest, route).toBe(createHash('sha256').update(rest).digest('hex'))
    }
    expect(data.catalogue.content_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    // The traps an answer carries count: no trap was read after the content's date.
    const newestTrap = data.traps.technologies
      .flatMap((f) => f.traps.map((t) => t.read_on))
      .sort()
      .at(-1)
    expect(data.catalogue.content_date >= (newestTrap ?? '')).toBe(true)
  })

  it('behavior: two situations of one action get two skill names; each within 64 characters, never ending in a hyphen', () => {
    const name = (f: Record<string, string>) =>
      skillHeader(soldMarkdown(data, 'checklist', f, 'skill') as string)?.name
    const small = name({ ...ROUTINE, targets: '3' })
    const large = name({ ...ROUTINE, targets: '12' })
    expect(small).toMatch(/^preship-gates-deploy-[0-9a-f]{8}$/)
    expect(large).not.toBe(small)
    // The same situation, asked in another order, is the same skill.
    expect(
      name({
        one_way_changes: 'false',
        targets: '3',
        stateful: 'false',
        emergency: 'false',
        action: 'deploy',
      }),
    ).toBe(small)
    const compound = name({
      action: 'dependency-upgrade,schema-change,bulk-delete,capacity-change',
      stateful: 'true',
    })
    expect(compound?.length).toBeLessThanOrEqual(64)
    expect(compound).not.toMatch(/-$/)
  })

  it('behavior: every skill sold for the scenarios of content/ has a header within the loaders limits', () => {
    expect(content.scenarios.length).toBeGreaterThan(0)
    expect(skillIssues(data, content.scenarios)).toEqual([])
  })

  it('error: a header past a limit is named: a long name, one ending in a hyphen, a long description', () => {
    const header = (name: string, description: string) =>
      `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n# x\n`
    expect(skillHeaderBreaks(header('a'.repeat(65), 'ok'))).toEqual([
      expect.stringMatching(/65 characters \(at most 64\)/),
    ])
    expect(skillHeaderBreaks(header('preship-gates-', 'ok'))).toEqual([
      expect.stringMatching(/must not end in one/),
    ])
    expect(skillHeaderBreaks(header('ok', 'd'.repeat(1025)))).toEqual([
      expect.stringMatching(/description is 1025 characters \(at most 1024\)/),
    ])
    expect(skillHeaderBreaks(header('preship-gates-deploy-0a1b2c3d', 'Load before a deploy.'))).toEqual([])
  })

  it('behavior: the synchronous SHA-256 agrees with node:crypto, ASCII and not', () => {
    for (const s of [
      '',
      'abc',
      'x'.repeat(55),
      'x'.repeat(56),
      'x'.repeat(119),
      'wave 1 × 5 — ✓\n'.repeat(50),
    ])
      expect(sha256Text(s)).toBe(createHash('sha256').update(s).digest('hex'))
  })
})

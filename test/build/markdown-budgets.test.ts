/**
 * The Markdown sold for agents fits where agents load it, measured on the real content through
 * the gateway's own preparation: the routine deploy's gates and rules within 8 KiB each, the whole
 * lessons set within 32 KiB; content that outgrows a budget fails the build.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { ROUTINE_DEPLOY, soldMarkdown } from '../../build/checks/markdown-budgets.js'
import { todayUtc } from '../../build/pricing/pricing-freshness.js'
import { collect } from '../../build/stages/collect.js'
import { compileDatasets } from '../../build/stages/datasets.js'
import type { BuildIssue } from '../../build/stages/issues.js'
import { validate } from '../../build/stages/validate.js'
import { PREPARE } from '../../gateway/datasets/answers.js'
import { MARKDOWN_BUDGET } from '../../schema/markdown.js'
import { buildFailure, copyOfContent } from '../support/content-copy.js'

const issues: BuildIssue[] = []
const data = compileDatasets(validate(await collect('content', issues), undefined, issues), todayUtc())
const bytes = (s: string | undefined) => new TextEncoder().encode(s ?? '').length

describe('the Markdown an agent loads fits its budget', () => {
  it('behavior: the real content builds without an issue', () => {
    expect(issues).toEqual([])
  })

  it('behavior: the routine deploy gates, rules and both in one file are each within their budget, and not empty', () => {
    for (const [route, filters, budget] of [
      ['checklist', ROUTINE_DEPLOY, MARKDOWN_BUDGET.situation],
      ['lessons', ROUTINE_DEPLOY, MARKDOWN_BUDGET.situationRules],
      ['checklist', { ...ROUTINE_DEPLOY, include: 'rules' }, MARKDOWN_BUDGET.wholeAnswer],
      ['preview', {}, MARKDOWN_BUDGET.standing],
    ] as const) {
      const text = soldMarkdown(data, route, filters)
      expect(bytes(text), route).toBeGreaterThan(0)
      expect(bytes(text), route).toBeLessThanOrEqual(budget)
    }
  })

  it('behavior: the whole lessons set is within the 32 KiB budget and holds every paid rule', () => {
    const text = soldMarkdown(data, 'lessons', {}) as string
    expect(bytes(text)).toBeLessThanOrEqual(MARKDOWN_BUDGET.wholeLessons)
    for (const r of data.lessons.rules) expect(text).toContain(`### \`${r.id}\``)
  })

  it('behavior: an emergency revert is told to revert now, and no gate line tells it to hold back', () => {
    const text = soldMarkdown(data, 'checklist', {
      action: 'revert',
      emergency: 'true',
      one_way_changes: 'false',
    })
    expect(text).toMatch(/Revert now/)
    expect(text).not.toMatch(/do not go ahead|go ahead only once/)
    const rules = soldMarkdown(data, 'lessons', {
      action: 'revert',
      emergency: 'true',
      one_way_changes: 'false',
    })
    expect(rules).toMatch(/never hold the revert for it/)
    expect(rules).not.toMatch(/Cannot check it: stop/)
  })

  it('behavior: trap probes run before a planned change, after the step that stops the harm in an emergency, after a revert', () => {
    const asked = { technologies: 'redis', change: 'raise maxmemory', production: 'true', stateful: 'true' }
    const probes = (facts: Record<string, string>) =>
      soldMarkdown(data, 'checklist', { ...asked, ...facts }) as string
    expect(probes({ action: 'config-push', emergency: 'false' })).toContain(
      'Run each probe before the change',
    )
    const urgent = probes({ action: 'config-push', emergency: 'true' })
    expect(urgent).toContain('take the step that stops the harm first')
    expect(urgent).not.toContain('Run each probe before the change')
    // A revert that meets a trap of its own (a CI job re-run to roll back).
    const revert = soldMarkdown(data, 'checklist', {
      action: 'revert',
      emergency: 'true',
      production: 'true',
      technologies: 'gitlab-ci',
    }) as string
    expect(revert).toContain('Revert first.')
    expect(revert).not.toContain('Run each probe before the change')
  })

  it('behavior: a rule that cannot be checked stops only a planned change it guards against harm that cannot be undone', () => {
    const planned = {
      action: 'deploy',
      production: 'true',
      emergency: 'false',
      stateful: 'true',
      one_way_changes: 'true',
    }
    const answer = soldMarkdown(data, 'lessons', planned) as string
    const json = PREPARE.lessons?.(data, planned, 0)
    if (!json?.ok) throw new Error('refused')
    const lines = (json.payload() as { ranked: { kind: string; id: string; level: string }[] }).ranked
    const rules = lines.filter((l) => l.kind === 'rule')
    expect(rules.some((r) => r.level === 'irreversible')).toBe(true)
    expect(rules.some((r) => r.level !== 'irreversible')).toBe(true)
    for (const r of rules) {
      const section = answer.slice(answer.indexOf(`### \`${r.id}\``)).split('\n### ')[0] as string
      expect(section, r.id).toMatch(
        r.level === 'irreversible' ? /Cannot check it: stop/ : /Cannot check it: advice; note it in the plan/,
      )
    }
    // An input the change does not have is no failure: said once, where the answer says how to obey its rules.
    expect(answer.match(/does not have \(nothing of its kind exists here\) is no failure/g)).toHaveLength(1)
    // In an emergency nothing waits for a rule that cannot be read in time.
    const urgent = soldMarkdown(data, 'lessons', { ...planned, emergency: 'true' }) as string
    expect(urgent).not.toMatch(/Cannot check it: stop/)
    expect(urgent).toMatch(/never hold the fix for it/)
  })

  it('error: content that outgrows the whole-lessons budget fails the build, naming the budget', async () => {
    const dir = await copyOfContent()
    const rules = (await readdir(join(dir, 'rules'))).map((f) => join(dir, 'rules', f))
    for (const path of rules.slice(0, 8)) {
      const rule = parse(await readFile(path, 'utf8')) as { constraint: { statement: string } }
      rule.constraint.statement = `${rule.constraint.statement} ${'Keep the change log current. '.repeat(40)}`
      await writeFile(path, stringify(rule))
    }
    expect(await buildFailure(dir)).toMatch(/the whole lessons set: \d+ bytes as agents-md/)
  })
})

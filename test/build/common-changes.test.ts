/**
 * Issue 34, item 4: the free catalogue tells an agent which action or actions fit common changes,
 * from content/changes.yaml; the build refuses a change naming an action or fact that does not exist.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { todayUtc } from '../../build/pricing/pricing-freshness.js'
import { collect } from '../../build/stages/collect.js'
import { compileDatasets } from '../../build/stages/datasets.js'
import type { BuildIssue } from '../../build/stages/issues.js'
import { validate } from '../../build/stages/validate.js'
import { PREPARE } from '../../gateway/datasets/answers.js'
import { buildFailure, copyOfContent } from '../support/content-copy.js'

const issues: BuildIssue[] = []
const content = validate(await collect('content', issues), undefined, issues)
const data = compileDatasets(content, todayUtc())

/** The changes issue 34 names, as words a change's description must contain. */
const NAMED = [
  /database engine/i,
  /node pool|cluster/i,
  /feature flag/i,
  /CDN|edge cache/i,
  /TTL/,
  /switchover|failover/i,
  /retention/i,
  /leaked credential/i,
  /hotfix during an incident/i,
]

describe('the catalogue of common changes', () => {
  it('behavior: the free catalogue lists every change issue 34 names, each with its actions', () => {
    expect(issues).toEqual([])
    const changes = data.catalogue.changes
    for (const words of NAMED)
      expect(
        changes.some((c) => words.test(c.change)),
        String(words),
      ).toBe(true)
    for (const c of changes) expect(c.actions.length).toBeGreaterThan(0)
    expect(changes.some((c) => c.actions.length > 1)).toBe(true)
  })

  it('behavior: every listed change, asked as written, gets gates from each of its actions', () => {
    for (const c of data.catalogue.changes) {
      const filters = {
        action: c.actions.join(','),
        ...Object.fromEntries(Object.entries(c.facts).map(([k, v]) => [k, String(v)])),
      }
      const prepared = PREPARE.checklist?.(data, filters, Date.now())
      expect(prepared?.ok, c.change).toBe(true)
      if (!prepared?.ok) continue
      const answer = prepared.payload() as {
        applies_because: Record<string, { action: string; actions?: string[] }>
      }
      const bringing = new Set(Object.values(answer.applies_because).flatMap((w) => w.actions ?? [w.action]))
      for (const a of c.actions) expect(bringing.has(a), `${c.change}: ${a}`).toBe(true)
    }
  })

  it('error: a change naming an unknown action fails the build, naming the field', async () => {
    const report = await brokenChanges((c) => {
      c.actions = ['deploy', 'teleport']
    })
    expect(report).toMatch(/changes\.yaml/)
    expect(report).toMatch(/0\.actions\.1/)
  })

  it('error: a change naming an unknown fact fails the build, naming the fact', async () => {
    const report = await brokenChanges((c) => {
      c.facts = { blast_radius: 'small' }
    })
    expect(report).toMatch(/changes\.yaml/)
    expect(report).toContain('blast_radius')
  })
})

/** Builds a copy of the content whose first common change `edit` rewrote; the build's report. */
async function brokenChanges(edit: (change: { actions: string[]; facts?: Record<string, unknown> }) => void) {
  const dir = await copyOfContent()
  const path = join(dir, 'changes.yaml')
  const changes = parse(await readFile(path, 'utf8')) as {
    actions: string[]
    facts?: Record<string, unknown>
  }[]
  edit(changes[0] as (typeof changes)[number])
  await writeFile(path, stringify(changes))
  return buildFailure(dir)
}

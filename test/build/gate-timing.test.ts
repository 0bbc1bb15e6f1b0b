/**
 * Issue 34, item 2: every gate says when it is checked (before, between stages, after), the
 * Markdown an agent loads groups the gates under those three headings and never words an
 * after-check as a precondition, a gate's emergency path reaches the text, and the build refuses a
 * gate whose pass condition cannot hold at the time it names.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { gateTimingBreaks } from '../../build/checks/gate-timing.js'
import { soldMarkdown } from '../../build/checks/markdown-budgets.js'
import { todayUtc } from '../../build/pricing/pricing-freshness.js'
import { collect } from '../../build/stages/collect.js'
import { compileDatasets } from '../../build/stages/datasets.js'
import type { BuildIssue } from '../../build/stages/issues.js'
import { validate } from '../../build/stages/validate.js'
import { GATE_TIMES } from '../../schema/content.js'
import { buildFailure, copyOfContent } from '../support/content-copy.js'

const issues: BuildIssue[] = []
const content = validate(await collect('content', issues), undefined, issues)
const data = compileDatasets(content, todayUtc())

/** The text under one `## heading (n)` of a Markdown answer, up to the next heading. */
function section(md: string, heading: string): string | undefined {
  const start = md.indexOf(`## ${heading} (`)
  if (start < 0) return undefined
  const next = md.indexOf('\n## ', start + 3)
  return md.slice(start, next < 0 ? undefined : next)
}

async function editGate(dir: string, id: string, edit: (gate: Record<string, unknown>) => void) {
  const path = join(dir, 'gates', `${id}.yaml`)
  const gate = parse(await readFile(path, 'utf8')) as Record<string, unknown>
  edit(gate)
  await writeFile(path, stringify(gate))
}

describe('when each gate is checked', () => {
  it('behavior: every gate carries when, and the published JSON carries it too', () => {
    expect(issues).toEqual([])
    expect(content.gates.length).toBeGreaterThan(0)
    for (const g of content.gates) expect(GATE_TIMES).toContain(g.when)
    for (const g of data.checklist.checklist) expect(GATE_TIMES).toContain(g.when)
    // All three times are in use, so the grouping is not a single heading in disguise.
    expect(new Set(content.gates.map((g) => g.when)).size).toBe(3)
  })

  it('behavior: the emergency certificate swap places the lifetime check after the swap, never as a precondition', () => {
    const md = soldMarkdown(data, 'checklist', { action: 'certificate', emergency: 'true' }) as string
    const after = section(md, 'After the change') ?? ''
    expect(after).toContain('`certificates-valid-past-renewal-margin`')
    expect(section(md, 'Before the change') ?? '').not.toContain('certificates-valid-past-renewal-margin')
    expect(after).toMatch(/not preconditions/)
    expect(after).not.toMatch(/do not go ahead/)
  })

  it('behavior: a routine deploy groups its gates in the order a change meets them, each gate under its own time', () => {
    const md = soldMarkdown(data, 'checklist', {
      action: 'deploy',
      emergency: 'false',
      targets: '12',
      stateful: 'false',
      one_way_changes: 'false',
    }) as string
    const order = ['Before the change', 'Between stages', 'After the change']
    // The time groups only (an "Also consider" list may follow them).
    const headings = [...md.matchAll(/^## (.+) \(\d+\)$/gm)]
      .map((m) => m[1])
      .filter((h) => order.includes(h as string))
    expect(headings.length).toBeGreaterThan(1)
    expect(headings).toEqual(order.filter((h) => headings.includes(h)))
    for (const g of data.checklist.checklist) {
      // Only gates given in full have a time group; an also-consider line is one line below them.
      if (!md.includes(`- [ ] \`${g.id}\``)) continue
      const heading = order[GATE_TIMES.indexOf(g.when)] as string
      expect(section(md, heading), g.id).toContain(`\`${g.id}\``)
    }
    // An after-check's failure never reads "do not go ahead".
    expect(section(md, 'After the change') ?? '').not.toMatch(/do not go ahead/)
  })

  it("behavior: a gate's emergency path is in the text when the situation may be an emergency, and left out of routine work", async () => {
    const dir = await copyOfContent()
    await editGate(dir, 'certificates-valid-past-renewal-margin', (g) => {
      g.in_an_emergency = 'Swap first on one endpoint, confirm, then all; read the lifetimes after.'
    })
    const local = compileDatasets(validate(await collect(dir, []), undefined, []), todayUtc())
    const emergency = soldMarkdown(local, 'checklist', { action: 'certificate', emergency: 'true' }) as string
    expect(emergency).toContain('In an emergency: Swap first on one endpoint, confirm, then all')
    const routine = soldMarkdown(local, 'checklist', { action: 'certificate', emergency: 'false' }) as string
    expect(routine).not.toContain('In an emergency:')
    const json = local.checklist.checklist.find((g) => g.id === 'certificates-valid-past-renewal-margin')
    expect(json?.in_an_emergency).toMatch(/^Swap first/)
  })

  it('error: the build refuses an after-check marked before, naming the gate and the input that reads the outcome', async () => {
    const dir = await copyOfContent()
    await editGate(dir, 'every-host-runs-the-release', (g) => {
      g.when = 'before'
    })
    const report = await buildFailure(dir)
    expect(report).toContain('every-host-runs-the-release')
    expect(report).toMatch(/marked before, but input "running_version_after" reads the change's outcome/)
  })

  it('error: the build refuses a gate without when, and one with a time outside the three', async () => {
    const dir = await copyOfContent()
    await editGate(dir, 'first-wave-is-small', (g) => {
      delete g.when
    })
    await editGate(dir, 'dns-undo-time-known', (g) => {
      g.when = 'during'
    })
    const report = await buildFailure(dir)
    expect(report).toContain('first-wave-is-small')
    expect(report).toContain('dns-undo-time-known')
  })

  it('behavior: the timing check reads the words of the pass condition both ways', () => {
    const base = content.gates.find((g) => g.id === 'first-wave-is-small')
    if (!base) throw new Error('no first-wave-is-small')
    const saysAfter = {
      ...base,
      check_spec: { ...base.check_spec, pass_when: 'after the rollout, every host reports the new version' },
    }
    expect(gateTimingBreaks({ ...saysAfter, when: 'before' })).toHaveLength(1)
    expect(gateTimingBreaks({ ...saysAfter, when: 'after' })).toEqual([])
    const saysBefore = {
      ...base,
      check_spec: { ...base.check_spec, pass_when: 'the probe is green before the change starts' },
    }
    expect(gateTimingBreaks({ ...saysBefore, when: 'after' })).toHaveLength(1)
    expect(gateTimingBreaks({ ...saysBefore, when: 'before' })).toEqual([])
  })
})

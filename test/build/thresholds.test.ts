/**
 * Thresholds as data: every number an agent enforces is defined once in content/thresholds.yaml,
 * rendered into the text by the build, and carried on each paid item as {name, value, unit}.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { formatThreshold } from '../../build/checks/thresholds.js'
import { build } from '../../build/index.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { Threshold, ThresholdUse } from '../../schema/content.js'
import type { BundleManifest, ChecklistBundle, PlaybooksBundle, RulesBundle } from '../../schema/datasets.js'
import { buildFailure, copyOfContent, tempDir } from '../support/content-copy.js'

const definitions = async (dir = 'content') =>
  parse(await readFile(join(dir, 'thresholds.yaml'), 'utf8')) as Threshold[]

/** The published bundles (free preview and the paid ones), read the way the gateway serves them. */
async function bundles() {
  const { files } = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
  const manifest = JSON.parse(files.get('private/manifest.json') as string) as BundleManifest
  const read = <T>(name: 'preview' | 'lessons' | 'playbooks' | 'checklist') =>
    JSON.parse(files.get(manifest.bundles[name].file) as string) as T
  return {
    free: read<RulesBundle>('preview').rules,
    rules: read<RulesBundle>('lessons').rules,
    playbooks: read<PlaybooksBundle>('playbooks').playbooks,
    gates: read<ChecklistBundle>('checklist').checklist,
  }
}

describe('thresholds', () => {
  it('behavior: a unit that starts with % or × joins its value, with the words that follow; any other unit follows a space', () => {
    expect(formatThreshold({ value: 80, unit: '% of the quota or rate limit' })).toBe(
      '80% of the quota or rate limit',
    )
    expect(formatThreshold({ value: 1.2, unit: '× the miss rate before the batch' })).toBe(
      '1.2× the miss rate before the batch',
    )
    expect(formatThreshold({ value: 5, unit: '%' })).toBe('5%')
    expect(formatThreshold({ value: 2, unit: 's' })).toBe('2 s')
  })

  it('behavior: every paid item carries its thresholds, and its text shows each one as value and unit', async () => {
    const published = await bundles()
    const defined = new Map((await definitions()).map((t) => [t.name, t]))
    const items = [...published.free, ...published.rules, ...published.playbooks, ...published.gates]
    expect(items.length).toBeGreaterThan(0)
    let uses = 0
    for (const item of items) {
      expect(Array.isArray(item.thresholds), item.id).toBe(true)
      const text = JSON.stringify({ ...item, thresholds: undefined })
      expect(text, item.id).not.toMatch(/\{\{/)
      for (const use of item.thresholds) {
        const t = defined.get(use.name)
        expect(t, `${item.id} uses ${use.name}`).toBeDefined()
        expect(use).toEqual({
          name: t?.name,
          value: t?.value,
          unit: t?.unit,
          ...(t?.relative_to ? { relative_to: t.relative_to } : {}),
        })
        expect(text, `${item.id} shows ${use.name}`).toContain(formatThreshold(use))
        uses++
      }
    }
    expect(uses).toBeGreaterThanOrEqual(defined.size)
  })

  it('behavior: no threshold name has two values anywhere in the published payloads', async () => {
    const published = await bundles()
    const seen = new Map<string, ThresholdUse>()
    for (const item of [...published.free, ...published.rules, ...published.playbooks, ...published.gates])
      for (const use of item.thresholds) {
        const first = seen.get(use.name) ?? use
        expect(use, `${item.id}: ${use.name}`).toEqual(first)
        seen.set(use.name, first)
      }
    expect([...seen.keys()].sort()).toEqual((await definitions()).map((t) => t.name).sort())
  })

  it('error: a reference to an unknown threshold fails the build, naming the file, field and name', async () => {
    const dir = await copyOfContent()
    const file = join(dir, 'rules', 'back-off-with-jitter-and-a-retry-budget.yaml')
    const rule = parse(await readFile(file, 'utf8'))
    rule.constraint.check = `${rule.constraint.check} At most {{no-such-threshold}}.`
    await writeFile(file, stringify(rule))
    const report = await buildFailure(dir)
    const section = report.slice(report.indexOf('rules/back-off-with-jitter-and-a-retry-budget.yaml'))
    expect(section).toMatch(/constraint\.check: unknown threshold "no-such-threshold"/)
  })

  it('error: a threshold nothing uses fails the build, naming it', async () => {
    const dir = await copyOfContent()
    const all = await definitions(dir)
    const spare = { ...(all[0] as Threshold), name: 'spare-threshold' }
    await writeFile(join(dir, 'thresholds.yaml'), stringify([...all, spare]))
    const report = await buildFailure(dir)
    expect(report).toMatch(/thresholds\.yaml\n.*: threshold "spare-threshold" is not used/)
  })

  it('error: one name defined twice fails the build, so a concept cannot hold two values', async () => {
    const dir = await copyOfContent()
    const all = await definitions(dir)
    const first = all[0] as Threshold
    await writeFile(join(dir, 'thresholds.yaml'), stringify([...all, { ...first, value: first.value + 1 }]))
    const report = await buildFailure(dir)
    expect(report).toContain(`threshold "${first.name}" is defined twice`)
  })

  it('behavior: every threshold has a basis, a cited source (RESEARCH) or our reasoning (ANALYSIS, MODELED)', async () => {
    const all = await definitions()
    for (const t of all) {
      expect(['RESEARCH', 'ANALYSIS', 'MODELED'], t.name).toContain(t.label)
      expect(t.why.trim().length, t.name).toBeGreaterThan(0)
      if (t.label === 'RESEARCH') {
        expect(t.source_url, t.name).toMatch(/^https:\/\//)
        expect(t.read_on, t.name).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        expect((t.basis_quote ?? '').length, t.name).toBeGreaterThan(0)
      }
    }
    const cited = new Set(all.filter((t) => t.label === 'RESEARCH').map((t) => t.source_url))
    expect(cited.size).toBeGreaterThanOrEqual(8)
  })

  /** A copy of the content whose first RESEARCH threshold is changed by `edit`; the build's report. */
  async function reportWithResearchThreshold(edit: (t: Threshold) => Threshold) {
    const dir = await copyOfContent()
    const all = await definitions(dir)
    const i = all.findIndex((t) => t.label === 'RESEARCH')
    expect(i).toBeGreaterThanOrEqual(0)
    all[i] = edit(all[i] as Threshold)
    await writeFile(join(dir, 'thresholds.yaml'), stringify(all))
    return { report: await buildFailure(dir), name: (all[i] as Threshold).name }
  }

  it('error: a threshold with neither a source nor our reasoning (labelled RECOMMENDATION) fails the build', async () => {
    const { report, name } = await reportWithResearchThreshold((t) => ({ ...t, label: 'RECOMMENDATION' }))
    expect(report).toContain(
      `threshold "${name}" is labelled RECOMMENDATION: a number with neither a cited source nor our reasoning`,
    )
  })

  for (const field of ['source_url', 'read_on', 'basis_quote'] as const)
    it(`error: a RESEARCH threshold without ${field} fails the build, naming the threshold and the field`, async () => {
      const { report, name } = await reportWithResearchThreshold((t) => ({ ...t, [field]: null }))
      expect(report).toContain(`threshold "${name}" is labelled RESEARCH but has no ${field}`)
    })

  it('error: a limit written inline instead of as a threshold fails the build, naming the file and field', async () => {
    const dir = await copyOfContent()
    const file = join(dir, 'gates', 'bulk-delete-marks-before-purging.yaml')
    const gate = parse(await readFile(file, 'utf8'))
    gate.check = `${gate.check} Keep the snapshot for at least 14 days.`
    await writeFile(file, stringify(gate))
    const report = await buildFailure(dir)
    const section = report.slice(report.indexOf('gates/bulk-delete-marks-before-purging.yaml'))
    expect(section).toMatch(/check: "14 days" is a number an agent must enforce, written inline/)
  })
})

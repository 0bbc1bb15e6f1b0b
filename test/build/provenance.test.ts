/**
 * Provenance is enforced by the build: a gate that names an incident carries its source and the
 * date it was read, no gate stands on nothing, and every rule records when its postmortem was read.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { collect } from '../../build/stages/collect.js'
import type { BuildIssue } from '../../build/stages/issues.js'
import { validate } from '../../build/stages/validate.js'
import { buildFailure, copyOfContent } from '../support/content-copy.js'

/**
 * A copy of the content with one file of `kind` edited: the first (by name) that cites its own
 * source, so the edit removes something that is there; the edited file's name.
 */
async function editOne(
  kind: 'gates' | 'rules',
  edit: (item: Record<string, unknown>) => void,
): Promise<{ dir: string; file: string }> {
  const dir = await copyOfContent()
  for (const file of (await readdir(join(dir, kind))).sort()) {
    const path = join(dir, kind, file)
    const item = parse(await readFile(path, 'utf8')) as Record<string, unknown>
    if (kind === 'gates' && !item.source_url) continue
    edit(item)
    await writeFile(path, stringify(item))
    return { dir, file }
  }
  throw new Error(`no ${kind} file cites a source`)
}

describe('provenance', () => {
  it('error: a gate that names an incident but gives no source is refused, naming the file and field', async () => {
    const { dir, file } = await editOne('gates', (gate) => {
      delete gate.source_url
      delete gate.read_on
    })
    const report = await buildFailure(dir)
    expect(report).toContain(file)
    expect(report).toMatch(/source_url.*names an incident but the gate gives no source/)
  })

  it('error: a gate with a source but no date read is refused', async () => {
    const { dir, file } = await editOne('gates', (gate) => {
      delete gate.read_on
    })
    const report = await buildFailure(dir)
    expect(report).toContain(file)
    expect(report).toMatch(/read_on.*source_url and read_on go together/)
  })

  it('error: a gate with no source is refused, even when it names no incident and enforces a rule', async () => {
    const { dir, file } = await editOne('gates', (gate) => {
      delete gate.source_url
      delete gate.read_on
      gate.prevents = 'A failure described without any incident.'
      gate.rules = ['stage-every-production-change']
    })
    const report = await buildFailure(dir)
    expect(report).toContain(file)
    expect(report).toMatch(/source_url.*gives no public source/)
  })

  it('behavior: every gate of the real content has a source and the day it was read', async () => {
    const issues: BuildIssue[] = []
    const content = validate(await collect('content', issues), undefined, issues)
    expect(content.gates.length).toBeGreaterThan(0)
    for (const g of content.gates) {
      expect(g.source_url, g.id).toMatch(/^https:\/\//)
      expect(g.read_on, g.id).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    }
  })

  it('error: a rule whose postmortem has no date read is refused', async () => {
    const { dir, file } = await editOne('rules', (rule) => {
      delete (rule.incident as Record<string, unknown>).read_on
    })
    const report = await buildFailure(dir)
    expect(report).toContain(file)
    expect(report).toContain('incident.read_on')
  })
})

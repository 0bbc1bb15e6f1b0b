/**
 * Provenance is enforced by the build: a gate that names an incident carries its source and the
 * date it was read, no gate stands on nothing, and every rule records when its postmortem was read.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
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

  it('error: a gate with no source of its own and no rule is refused, even when it names no incident', async () => {
    const { dir, file } = await editOne('gates', (gate) => {
      delete gate.source_url
      delete gate.read_on
      gate.prevents = 'A failure described without any incident.'
      gate.rules = []
    })
    const report = await buildFailure(dir)
    expect(report).toContain(file)
    expect(report).toMatch(/source_url.*enforces no rule, so nothing backs it/)
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

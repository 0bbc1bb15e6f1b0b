/**
 * The build refuses situation content it cannot evaluate: a condition on a fact facts.yaml does not
 * define or that no answer can meet, a gate without on_fail, a fixed fact redefined with another
 * type, and a scenario the router answers otherwise than it demands.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { buildFailure, copyOfContent } from '../support/content-copy.js'

type Doc = Record<string, unknown> & { check_spec: Record<string, unknown> }

async function editFile(dir: string, file: string, edit: (doc: Doc) => unknown) {
  const path = join(dir, file)
  const doc = parse(await readFile(path, 'utf8')) as Doc
  const edited = edit(doc) ?? doc
  await writeFile(path, stringify(edited))
}

const GATE = 'gates/first-wave-is-small.yaml'

describe('the build refuses what the router cannot evaluate', () => {
  it('error: an undefined fact and an impossible range in applies_when are named with the file and the field', async () => {
    const dir = await copyOfContent()
    await editFile(dir, GATE, (g) => {
      g.check_spec.applies_when = [{ blast_radius: true }, { targets: { at_most: 0 } }]
    })
    const report = await buildFailure(dir)
    expect(report).toContain(GATE)
    expect(report).toMatch(/check_spec\.applies_when\.0\.blast_radius: "blast_radius" is not a fact/)
    expect(report).toMatch(/check_spec\.applies_when\.1\.targets: targets can never be/)
  })

  it('error: a gate without on_fail is refused, naming block and defer', async () => {
    const dir = await copyOfContent()
    await editFile(dir, GATE, (g) => {
      delete g.check_spec.on_fail
    })
    const report = await buildFailure(dir)
    expect(report).toContain(GATE)
    expect(report).toMatch(/on_fail/)
  })

  it('error: a fixed fact with another type is refused', async () => {
    const dir = await copyOfContent()
    await editFile(dir, 'facts.yaml', (facts) => {
      const list = facts as unknown as Record<string, unknown>[]
      const targets = list.find((f) => f.fact === 'targets') as Record<string, unknown>
      targets.type = 'boolean'
      delete targets.min
      return list
    })
    expect(await buildFailure(dir)).toMatch(/facts\.yaml[\s\S]*the fixed fact targets is a boolean/)
  })

  it('error: a scenario the router answers otherwise fails the build, naming the scenario and the miss', async () => {
    const dir = await copyOfContent()
    await writeFile(
      join(dir, 'scenarios/zz-demands-the-impossible.yaml'),
      stringify({
        id: 'zz-demands-the-impossible',
        situation: 'A routine deploy that demands a gate of another action and allows no gate at all.',
        action: 'deploy',
        facts: { emergency: false, targets: 3, stateful: false, one_way_changes: false },
        must_apply: { gates: ['dns-answers-non-empty-everywhere'] },
        max: { gates: 0 },
      }),
    )
    const report = await buildFailure(dir)
    expect(report).toContain('scenarios/zz-demands-the-impossible.yaml')
    expect(report).toMatch(/must_apply\.gates: dns-answers-non-empty-everywhere does not apply/)
    expect(report).toMatch(/max\.gates: \d+ gates apply/)
  })
})

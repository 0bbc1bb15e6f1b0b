/**
 * check_spec and the action vocabulary: every gate and rule carries its check in structured form,
 * the build refuses one without it or with an unknown action or a thresholds list that disagrees
 * with the text, and the catalogue, the paid bundles and the tool schemas publish it.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { build } from '../../build/index.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { CheckSpec } from '../../schema/content.js'
import type { BundleManifest, Catalogue, ChecklistBundle, RulesBundle } from '../../schema/datasets.js'
import { ACTIONS } from '../../schema/vocabulary.js'
import { buildFailure, copyOfContent, tempDir } from '../support/content-copy.js'

interface Item {
  id: string
  check?: string
  check_spec?: CheckSpec
  constraint?: { check: string; check_spec?: CheckSpec }
}

async function items(dir: string, folder: 'gates' | 'rules'): Promise<[string, Item][]> {
  const names = (await readdir(join(dir, folder))).filter((n) => n.endsWith('.yaml')).sort()
  return Promise.all(
    names.map(
      async (n) => [n, parse(await readFile(join(dir, folder, n), 'utf8')) as Item] as [string, Item],
    ),
  )
}

/** A copy of the content with one gate changed by `edit`; the build's report section for that gate. */
async function reportForGate(edit: (gate: Item) => void, pick = (_: Item) => true) {
  const dir = await copyOfContent()
  const [name, gate] = (await items(dir, 'gates')).find(([, g]) => pick(g)) as [string, Item]
  edit(gate)
  await writeFile(join(dir, 'gates', name), stringify(gate))
  const report = await buildFailure(dir)
  return report.slice(report.indexOf(`gates/${name}`)).split('\n\n')[0] as string
}

describe('check_spec in the content', () => {
  it('behavior: every gate and rule in content/ has a check_spec whose actions are in the vocabulary', async () => {
    const all = [...(await items('content', 'gates')), ...(await items('content', 'rules'))]
    expect(all.length).toBeGreaterThan(0)
    for (const [name, item] of all) {
      const spec = item.check_spec ?? item.constraint?.check_spec
      expect(spec, name).toBeDefined()
      expect(spec?.applies_to.length, name).toBeGreaterThan(0)
      for (const action of spec?.applies_to ?? []) expect(ACTIONS, name).toContain(action)
      expect(spec?.on_unreadable, name).toBe('fail-closed')
    }
  })

  it('behavior: actions.yaml lists exactly the vocabulary, each with a meaning', async () => {
    const listed = parse(await readFile('content/actions.yaml', 'utf8')) as {
      action: string
      means: string
    }[]
    expect(listed.map((a) => a.action)).toEqual([...ACTIONS])
    for (const a of listed) expect(a.means.length).toBeGreaterThan(10)
  })
})

describe('the build refuses a check_spec that breaks the contract', () => {
  it('error: a gate without check_spec', async () => {
    const section = await reportForGate((g) => {
      delete g.check_spec
    })
    expect(section).toMatch(/check_spec: /)
  })

  it('error: a rule without constraint.check_spec', async () => {
    const dir = await copyOfContent()
    const [name, rule] = (await items(dir, 'rules'))[0] as [string, Item]
    delete rule.constraint?.check_spec
    await writeFile(join(dir, 'rules', name), stringify(rule))
    const report = await buildFailure(dir)
    expect(report.slice(report.indexOf(`rules/${name}`))).toMatch(/constraint\.check_spec: /)
  })

  it('error: an action that is not in actions.yaml', async () => {
    const section = await reportForGate((g) => {
      g.check_spec?.applies_to.push('teleport' as never)
    })
    expect(section).toMatch(/check_spec\.applies_to\.\d+: .*(teleport|Invalid option|expected one of)/i)
  })

  it('error: an empty applies_to', async () => {
    const section = await reportForGate((g) => {
      if (g.check_spec) g.check_spec.applies_to = []
    })
    expect(section).toMatch(/check_spec\.applies_to: /)
  })

  it('error: a threshold used in the check but not listed', async () => {
    const section = await reportForGate(
      (g) => {
        if (g.check_spec) g.check_spec.thresholds = []
      },
      (g) => (g.check_spec?.thresholds.length ?? 0) > 0,
    )
    expect(section).toMatch(/check_spec\.thresholds: \{\{[a-z0-9-]+\}\} is used in the check but not listed/)
  })

  it('error: a threshold listed but used nowhere in the check, pass_when or inputs', async () => {
    const thresholds = parse(await readFile('content/thresholds.yaml', 'utf8')) as { name: string }[]
    const unused = (g: Item) =>
      thresholds.find((t) => !`${g.check}${JSON.stringify(g.check_spec)}`.includes(`{{${t.name}}}`))?.name
    let name = ''
    const section = await reportForGate((g) => {
      name = unused(g) as string
      g.check_spec?.thresholds.push(name)
    })
    expect(section).toContain(
      `check_spec.thresholds: "${name}" is listed but the check, pass_when and inputs never use {{${name}}}`,
    )
  })

  it('error: a limit written inline in pass_when instead of as a threshold', async () => {
    const section = await reportForGate((g) => {
      if (g.check_spec) g.check_spec.pass_when = `${g.check_spec.pass_when}, within 5 minutes`
    })
    expect(section).toMatch(
      /check_spec\.pass_when: "5 minutes" is a number an agent must enforce, written inline/,
    )
  })

  it('error: on_unreadable other than fail-closed', async () => {
    const section = await reportForGate((g) => {
      if (g.check_spec) g.check_spec.on_unreadable = 'proceed' as never
    })
    expect(section).toMatch(/check_spec\.on_unreadable: /)
  })

  it('error: the agent as exception approver', async () => {
    const section = await reportForGate((g) => {
      if (g.check_spec) g.check_spec.exception_approver = 'the agent itself'
    })
    expect(section).toMatch(/check_spec\.exception_approver: .*never the agent/)
  })

  it('error: actions.yaml that differs from the vocabulary', async () => {
    const dir = await copyOfContent()
    const listed = parse(await readFile(join(dir, 'actions.yaml'), 'utf8')) as { action: string }[]
    await writeFile(join(dir, 'actions.yaml'), stringify(listed.slice(1)))
    const report = await buildFailure(dir)
    expect(report).toContain('actions.yaml')
    expect(report).toContain(`missing: ${ACTIONS[0]}`)
  })
})

describe('check_spec published', () => {
  it('behavior: the paid bundles carry check_spec on every gate and rule, and the catalogue lists every action with counts derived from the content', async () => {
    const { files } = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
    const manifest = JSON.parse(files.get('private/manifest.json') as string) as BundleManifest
    const read = <T>(name: keyof BundleManifest['bundles']) =>
      JSON.parse(files.get(manifest.bundles[name].file) as string) as T
    const gates = read<ChecklistBundle>('checklist').checklist
    const rules = [...read<RulesBundle>('lessons').rules, ...read<RulesBundle>('preview').rules]
    for (const g of gates) expect(g.check_spec.applies_to.length, g.id).toBeGreaterThan(0)
    for (const r of rules) expect(r.constraint.check_spec.inputs.length, r.id).toBeGreaterThan(0)

    const catalogue = read<Catalogue>('catalogue')
    const sourceGates = (await items('content', 'gates')).map(([, g]) => g)
    const sourceRules = (await items('content', 'rules')).map(([, r]) => r)
    expect(catalogue.actions.map((a) => a.action)).toEqual([...ACTIONS])
    for (const a of catalogue.actions) {
      expect(a.means.length).toBeGreaterThan(0)
      expect(a.gates, a.action).toBe(
        sourceGates.filter((g) => g.check_spec?.applies_to.includes(a.action as never)).length,
      )
      expect(a.rules, a.action).toBe(
        sourceRules.filter((r) => r.constraint?.check_spec?.applies_to.includes(a.action as never)).length,
      )
    }
    // The free catalogue names the actions, never a check.
    expect(JSON.stringify(catalogue)).not.toContain('"check_spec"')

    const schemas = JSON.parse(files.get('private/tool-output-schemas.json') as string) as Record<
      string,
      unknown
    >
    expect(JSON.stringify(schemas.fde_preship_checklist)).toContain('"check_spec"')
    expect(JSON.stringify(schemas.fde_lessons_full)).toContain('"check_spec"')

    // The action is one shared parameter, a list of actions from the vocabulary (several may be named).
    const api = JSON.parse(files.get('public/openapi.json') as string) as {
      paths: Record<string, { get: { parameters: { $ref?: string }[] } }>
      components: { parameters: Record<string, { name: string; schema: { items?: { enum?: string[] } } }> }
    }
    const refs = api.paths['/v1/fde-preship-checklist']?.get.parameters.map((p) => p.$ref)
    expect(refs).toContain('#/components/parameters/action')
    expect(api.components.parameters.action?.schema.items?.enum).toEqual([...ACTIONS])
  })
})

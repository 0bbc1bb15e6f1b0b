/**
 * The build on real content and on broken copies of it: determinism, content hashing, the grouped
 * report, the inventory derived from files.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { build } from '../../build/index.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { BundleManifest, PlaybooksBundle, RulesBundle } from '../../schema/datasets.js'
import { PHASES } from '../../schema/vocabulary.js'
import { buildFailure, copyOfContent, tempDir } from '../support/content-copy.js'

const buildInto = async (contentDir = 'content') => {
  const outDir = await tempDir()
  const result = await build({ contentDir, outDir, urls: LOCAL_URLS })
  return { outDir, files: result.files }
}

const manifestOf = (files: Map<string, string>) =>
  JSON.parse(files.get('private/manifest.json') as string) as BundleManifest

describe('build', () => {
  it('behavior: two builds of the same content give byte-identical files', async () => {
    const a = await buildInto()
    const b = await buildInto()
    expect([...a.files.keys()].sort()).toEqual([...b.files.keys()].sort())
    for (const [path, text] of a.files) expect(b.files.get(path), path).toBe(text)
    expect(await readFile(join(a.outDir, 'public/openapi.json'), 'utf8')).toBe(
      a.files.get('public/openapi.json'),
    )
  })

  it('behavior: with a service-owned public folder, every file the Worker module imports exists (a fresh clone starts)', async () => {
    const outDir = await tempDir()
    const publicDir = join(await tempDir(), 'public')
    await build({ contentDir: 'content', outDir, publicDir, urls: LOCAL_URLS })
    const module = await readFile(join(outDir, 'private/bundles.js'), 'utf8')
    const imports = [...module.matchAll(/from '(\.[^']+)'/g)].map((m) => m[1] as string)
    expect(imports.length).toBeGreaterThan(1)
    for (const path of imports)
      await expect(readFile(join(outDir, 'private', path), 'utf8'), path).resolves.toBeTruthy()
    for (const path of imports.filter((p) => p.includes('/public/')))
      await expect(
        readFile(join(publicDir, path.replace('../public/', '')), 'utf8'),
        path,
      ).resolves.toBeTruthy()
  })

  it('behavior: changing one paid rule changes only the bundles that contain it', async () => {
    const before = manifestOf((await buildInto()).files)
    const dir = await copyOfContent()
    const rules = (await import('node:fs/promises')).readdir(join(dir, 'rules'))
    let target = ''
    for (const file of await rules) {
      const rule = parse(await readFile(join(dir, 'rules', file), 'utf8'))
      if (rule.kind === 'paid') {
        rule.rule = `${rule.rule} (edited)`
        await writeFile(join(dir, 'rules', file), stringify(rule))
        target = file
        break
      }
    }
    expect(target).not.toBe('')
    const after = manifestOf((await buildInto(dir)).files)
    const changed = Object.keys(before.bundles).filter(
      (name) =>
        before.bundles[name as keyof BundleManifest['bundles']].sha256 !==
        after.bundles[name as keyof BundleManifest['bundles']].sha256,
    )
    expect(changed).toEqual(['lessons'])
  })

  it('behavior: paid bundles are written outside the public file set', async () => {
    const { files } = await buildInto()
    const manifest = manifestOf(files)
    for (const entry of Object.values(manifest.bundles)) {
      expect(files.has(entry.file)).toBe(true)
      expect(entry.file.startsWith(entry.access === 'paid' ? 'private/' : 'public/')).toBe(true)
    }
  })

  it('behavior: the inventory is derived from the files', async () => {
    const { files } = await buildInto()
    const agents = JSON.parse(files.get('public/agents.json') as string)
    const catalogue = JSON.parse(files.get(manifestOf(files).bundles.catalogue.file) as string)
    expect(agents.inventory).toEqual(catalogue.inventory)
    const expected = parse(await readFile('content/inventory.yaml', 'utf8'))
    expect(agents.inventory).toMatchObject({
      total: expected.foundational + expected.paid,
      free: expected.foundational,
      paid: expected.paid,
      playbooks: expected.playbooks,
      checklistItems: expected.gates,
    })
    expect(agents.inventory.phases).toEqual(PHASES.map((p) => p.name))
    // The example topics of schema/CONTRACT.md §2.1 each select at least three paid rules (what /v1/fde-lessons?topic= sells),
    // and a deploy search finds the playbook for a deploy gone bad.
    const lessons = JSON.parse(files.get(manifestOf(files).bundles.lessons.file) as string) as RulesBundle
    for (const topic of ['retry', 'deploy', 'cache', 'verify', 'metadata', 'config', 'dns', 'preflight'])
      expect(lessons.rules.filter((r) => r.tags.includes(topic)).length, topic).toBeGreaterThanOrEqual(3)
    const playbooks = JSON.parse(
      files.get(manifestOf(files).bundles.playbooks.file) as string,
    ) as PlaybooksBundle
    expect(playbooks.playbooks.filter((p) => p.tags.includes('deploy')).map((p) => p.id)).toContain(
      'production-change-went-bad',
    )
  })

  it('error: broken content fails once with a report grouped by file', async () => {
    const dir = await copyOfContent()
    const [first, second] = (await (await import('node:fs/promises')).readdir(join(dir, 'rules'))).sort()
    const a = parse(await readFile(join(dir, 'rules', first as string), 'utf8'))
    a.phase = 'part-nine'
    a.tags = ['retry', 'not-a-topic']
    a.why.label = 'GUESSED'
    await writeFile(join(dir, 'rules', first as string), stringify(a))
    const b = parse(await readFile(join(dir, 'rules', second as string), 'utf8'))
    delete b.incident.postmortem_url
    b.rule = `${b.rule} [SPECULATION]`
    await writeFile(join(dir, 'rules', second as string), stringify(b))
    const report = await buildFailure(dir)
    expect(report).toMatch(/^Build failed: \d+ problem\(s\) in \d+ file\(s\)\./)
    const sectionA = report.slice(report.indexOf(`rules/${first}`))
    expect(sectionA).toMatch(/phase: .*allowed: .*"three-laws"/)
    expect(sectionA).toMatch(/why\.label: .*allowed: .*"REPORTED"/)
    const sectionB = report.slice(report.indexOf(`rules/${second}`))
    expect(sectionB).toMatch(/incident\.postmortem_url: /)
    expect(sectionB).toMatch(/rule: unknown evidence label \[SPECULATION\]/)
    // Each file appears once as a heading, with its problems beneath it.
    expect(report.split('\n').filter((l) => l === `rules/${first}`)).toHaveLength(1)
  })

  it('behavior: adding a rule changes every count in every document, once the inventory says so', async () => {
    const dir = await copyOfContent()
    const rules = (await (await import('node:fs/promises')).readdir(join(dir, 'rules'))).sort()
    let source: Record<string, unknown> | undefined
    for (const file of rules) {
      const rule = parse(await readFile(join(dir, 'rules', file), 'utf8'))
      if (rule.kind === 'paid') source = rule
    }
    if (!source) throw new Error('no paid rule to copy')
    // A short statement: the whole lessons set as agents-md has a size budget of its own.
    const constraint = {
      ...(source.constraint as Record<string, unknown>),
      statement: 'Obey the check below.',
    }
    await writeFile(
      join(dir, 'rules', 'an-added-rule.yaml'),
      stringify({ ...source, id: 'an-added-rule', title: `${source.title} (a second reading)`, constraint }),
    )
    // Every rule says what it guards against (content/harm.yaml), the copy as its source does.
    const harm = parse(await readFile(join(dir, 'harm.yaml'), 'utf8'))
    harm.rules['an-added-rule'] = harm.rules[source.id as string]
    await writeFile(join(dir, 'harm.yaml'), stringify(harm))
    // Without the inventory change the build names the file that holds the expectation.
    const refused = await buildFailure(dir)
    expect(refused).toMatch(/inventory\.yaml/)
    expect(refused).toMatch(/paid: .*content holds \d+ valid paid item/)
    const inventory = parse(await readFile(join(dir, 'inventory.yaml'), 'utf8'))
    const before = { paid: inventory.paid, total: inventory.paid + inventory.foundational }
    inventory.paid += 1
    await writeFile(join(dir, 'inventory.yaml'), stringify(inventory))
    const { files } = await buildInto(dir)
    const paid = before.paid + 1
    const total = before.total + 1
    const agents = JSON.parse(files.get('public/agents.json') as string)
    expect(agents.inventory).toMatchObject({ paid, total })
    const catalogue = JSON.parse(files.get(manifestOf(files).bundles.catalogue.file) as string)
    expect(catalogue.inventory).toMatchObject({ paid, total })
    const llms = files.get('public/llms.txt') as string
    expect(llms).toContain(`${total} rules (`)
    expect(llms).toContain(`${paid} paid`)
    // No document still states the old count.
    for (const [path, text] of files)
      if (path.startsWith('public/') && !path.includes('/data/'))
        expect(text, path).not.toMatch(new RegExp(`\\b${before.paid} paid|\\b${before.total} rules`))
  })

  it('error: a published price missing from its quote is refused', async () => {
    const dir = await copyOfContent()
    const rows = await (await import('node:fs/promises')).readdir(join(dir, 'pricing/rows'))
    for (const file of rows) {
      const row = parse(await readFile(join(dir, 'pricing/rows', file), 'utf8'))
      if (row.unit_price_usd === null) continue
      row.unit_price_usd = row.unit_price_usd + 1234.5
      await writeFile(join(dir, 'pricing/rows', file), stringify(row))
      const report = await buildFailure(dir)
      expect(report).toContain(`pricing/rows/${file}`)
      expect(report).toMatch(/unit_price_usd: price .* does not appear in the quote/)
      return
    }
    throw new Error('no priced row to break')
  })
})

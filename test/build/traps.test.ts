/**
 * Issue 43, item 2 at build time: trap files (content/traps/<technology>.yaml) are held to their
 * format with a clear report, counted apart from the inventory, listed in the free catalogue, and
 * each trap is kept by a scenario: asking with its technology and first action returns it. Item 3:
 * every scenario's answer, ranked and cut at the limit, still holds each item it demands, in full
 * or as an "also consider" line.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { OPENAPI_MAX_BYTES } from '../../build/checks/check-openapi.js'
import { rankedScenarioIssues } from '../../build/checks/ranked-scenarios.js'
import { trapScenarioIssues } from '../../build/checks/trap-scenarios.js'
import { build } from '../../build/index.js'
import { collect } from '../../build/stages/collect.js'
import { compileDatasets } from '../../build/stages/datasets.js'
import { TECHNOLOGIES_EXAMPLE } from '../../build/stages/discovery.js'
import type { BuildIssue } from '../../build/stages/issues.js'
import { validate } from '../../build/stages/validate.js'
import { PREPARE } from '../../gateway/datasets/answers.js'
import { LOCAL_URLS } from '../../schema/config.js'
import { FAST_PATH_LIMIT, LIMIT_DEFAULT, LIMIT_MAX } from '../../schema/routes.js'
import type { TrapFile } from '../../schema/traps.js'
import { buildFailure, copyOfContent, tempDir } from '../support/content-copy.js'

const issues: BuildIssue[] = []
const content = validate(await collect('content', issues), undefined, issues)
const data = compileDatasets(content, '2026-11-27')

interface Line {
  kind: string
  id: string
  why: string
}
interface Ranked {
  checklist: { id: string }[]
  rules?: { id: string }[]
  traps?: { id: string }[]
  ranked: Line[]
  also_consider: Line[]
}

const checklist = (filters: Record<string, string>) => {
  const prepared = PREPARE.checklist?.(data, filters, 0)
  if (!prepared?.ok) throw new Error(`refused ${JSON.stringify(filters)}`)
  return prepared.payload() as Ranked
}

/** A trap file that passes every check, to break one field at a time. */
const validFile = (technology: string, id = `${technology}-example-trap`): TrapFile => ({
  technology,
  name: technology,
  kind: 'database',
  aliases: [],
  traps: [
    {
      id,
      actions: ['deploy'],
      severity: 'outage',
      trap: 'What breaks.',
      probe: 'SELECT 1;',
      stop_if: 'any row',
      safe_path: 'Do the other thing.',
      source_url: 'https://example.org/docs',
      quote: 'A sentence from the page.',
      read_on: '2026-11-27',
    },
  ],
})

describe('trap files', () => {
  it('behavior: the real content builds, with traps counted apart from the inventory', async () => {
    expect(issues).toEqual([])
    const files = (await readdir('content/traps')).filter((f) => f.endsWith('.yaml'))
    expect(content.traps.length).toBe(files.length)
    expect(content.traps.length).toBeGreaterThan(0)
    const inventory = data.catalogue.inventory
    expect([inventory.free, inventory.paid, inventory.playbooks, inventory.checklistItems]).toEqual([
      2, 24, 2, 34,
    ])
  })

  it('behavior: the free catalogue lists each technology covered: id, name, kind, aliases and trap count', () => {
    expect(data.catalogue.technologies.map((t) => t.id)).toEqual(content.traps.map((t) => t.technology))
    for (const file of content.traps) {
      const listed = data.catalogue.technologies.find((t) => t.id === file.technology)
      expect(listed).toEqual({
        id: file.technology,
        name: file.name,
        kind: file.kind,
        aliases: [...new Set(file.aliases)].filter((a) => a !== file.technology).sort(),
        traps: file.traps.length,
      })
    }
  })

  it('behavior: each trap is returned when asked with its technology and first action', () => {
    expect(trapScenarioIssues(data)).toEqual([])
    for (const file of content.traps)
      for (const trap of file.traps) {
        const answer = checklist({ technologies: file.technology, action: trap.actions[0] as string })
        const lines = [...answer.ranked, ...answer.also_consider]
        expect(
          lines.some((l) => l.kind === 'trap' && l.id === trap.id),
          trap.id,
        ).toBe(true)
      }
  })

  it('error: a trap the asking cannot reach fails the scenario check, naming the file and the question', () => {
    const [first] = data.traps.technologies
    if (!first) throw new Error('no trap file')
    // An id written in capitals can never be asked for (names are read in lower case).
    const unreachable = {
      ...data,
      traps: { technologies: [{ ...first, technology: first.technology.toUpperCase() }] },
    }
    const found = trapScenarioIssues(unreachable)
    expect(found).toHaveLength(first.traps.length)
    expect(found[0]?.file).toBe(`traps/${first.technology.toUpperCase()}.yaml`)
    expect(found[0]?.problem).toContain(`does not return ${first.traps[0]?.id}`)
  })

  it('error: every broken rule of the format is reported by file and field, in one report', async () => {
    const dir = await copyOfContent()
    const write = (name: string, file: unknown) =>
      writeFile(join(dir, 'traps', `${name}.yaml`), stringify(file))
    const good = validFile('alpha-db')
    await write('alpha-db', { ...good, aliases: ['shared-name'] })
    await write('beta-db', {
      ...validFile('beta-db', 'alpha-db-example-trap'),
      aliases: ['shared-name'],
    })
    const broken = validFile('gamma-db')
    const [trap] = broken.traps
    if (!trap) throw new Error('no trap')
    await write('gamma-db', {
      ...broken,
      traps: [
        { ...trap, actions: ['deploy', 'teleport'], source_url: 'http://example.org/', quote: '' },
        { ...trap, id: 'gamma-db-second', versions: 'soon' },
      ],
    })
    const { probe: _, ...withoutProbe } = trap
    await write('delta-db', { ...validFile('delta-db'), traps: [withoutProbe] })
    // Valid alone; the rules that span files find these.
    const eta = validFile('eta-db')
    await write('eta-db', {
      ...eta,
      manages: ['no-such-engine'],
      includes: ['no-such-protocol'],
      traps: eta.traps.flatMap((t) => [
        { ...t, trap: 'Upgrading eta to 2 drops a setting.' },
        {
          ...t,
          id: 'eta-db-second',
          trap: 'Upgrading the platform under eta drops a setting.',
          premise: 'version-upgrade',
          upgrade_of: ['no-such-platform'],
          engine: 'alpha-db',
        },
        { ...t, id: 'eta-db-third', trap: 'Deleting a table drops its grants.' },
      ]),
    })
    await write('wrong-name', validFile('epsilon-db'))
    const report = await buildFailure(dir)
    for (const expected of [
      'traps/beta-db.yaml',
      'traps.0.id: "alpha-db-example-trap" does not start with the technology',
      '"alpha-db-example-trap" is also a trap of traps/alpha-db.yaml',
      'aliases.0: "shared-name" already names the technology of traps/alpha-db.yaml',
      'traps/gamma-db.yaml',
      'traps.0.actions.1',
      'traps.0.source_url',
      'traps.0.quote',
      'traps/eta-db.yaml',
      'traps.0.premise: its line opens "Upgrading…" but its premise is not version-upgrade',
      'traps.2.premise: its line opens "Deleting…" but it has no premise',
      'traps/delta-db.yaml',
      'traps.0.probe',
      'manages.0: "no-such-engine" is not a technology id in traps/',
      'includes.0: "no-such-protocol" is not a technology id in traps/',
      'traps.1.upgrade_of.0: "no-such-platform" is not a technology id in traps/',
      'traps.1.engine: "alpha-db" is not an engine this technology manages or connects to',
      'traps/wrong-name.yaml',
      'technology "epsilon-db" differs from the file name',
    ])
      expect(report).toContain(expected)
  })

  it('error: a version range the answers cannot read is a build error naming it', async () => {
    const dir = await copyOfContent()
    const file = validFile('zeta-db')
    const [trap] = file.traps
    if (!trap) throw new Error('no trap')
    await writeFile(
      join(dir, 'traps', 'zeta-db.yaml'),
      stringify({ ...file, traps: [{ ...trap, versions: '>= 17, < 16' }] }),
    )
    const report = await buildFailure(dir)
    expect(report).toContain('traps/zeta-db.yaml')
    expect(report).toContain('traps.0.versions: ">= 17, < 16" admits no version')
  })
})

describe('nothing sold when nothing applies', () => {
  // A checklist with no gate for the action: only the traps of the named technologies can fill it.
  const noGates = (action: string) => ({
    ...data,
    checklist: {
      ...data.checklist,
      checklist: data.checklist.checklist.filter(
        (g) => !(g.check_spec.applies_to as readonly string[]).includes(action),
      ),
    },
  })
  const withTrap = content.traps.flatMap((f) =>
    f.traps.map((t) => ({ technology: f.technology, trap: t })),
  )[0]

  it('error: no gate applies and the names have no trap for it: a 404 saying so, before any challenge', () => {
    const prepared = PREPARE.checklist?.(
      noGates('deploy'),
      { action: 'deploy', technologies: 'no-such-thing' },
      0,
    )
    expect(prepared?.ok).toBe(false)
    if (prepared?.ok !== false) return
    expect(prepared.problem.status).toBe(404)
    expect(prepared.problem.detail).toContain('no traps on file for no-such-thing')
    expect(prepared.problem.detail).toContain('nothing was charged')
  })

  it('behavior: no gate applies but a named technology has a trap for the action: the answer is the trap', () => {
    if (!withTrap) throw new Error('no trap on file')
    const action = withTrap.trap.actions[0] as string
    const prepared = PREPARE.checklist?.(noGates(action), { action, technologies: withTrap.technology }, 0)
    if (!prepared?.ok) throw new Error('refused')
    const answer = prepared.payload() as Ranked
    expect(answer.checklist).toEqual([])
    expect(answer.ranked.map((l) => l.kind)).toContain('trap')
    expect(answer.ranked.every((l) => l.kind === 'trap')).toBe(true)
    expect([...answer.ranked, ...answer.also_consider].map((l) => l.id)).toContain(withTrap.trap.id)
  })
})

describe('the free standing instructions with technologies', () => {
  it('behavior: as agents-md, the preview lists the traps on file for the names asked, and says which have none', () => {
    const [file] = content.traps
    if (!file) throw new Error('no trap file')
    const prepared = PREPARE.preview?.(
      data,
      { technologies: `${file.technology},no-such-thing`, format: 'agents-md' },
      0,
    )
    if (!prepared?.ok) throw new Error('refused')
    const text = prepared.markdown?.() ?? ''
    const names = [file.technology, 'no-such-thing'].sort().join(',')
    expect(text).toContain(`## Traps on file for ${names} (${file.traps.length})`)
    expect(text).toContain('- No traps on file for no-such-thing.')
    for (const trap of file.traps) expect(text).toContain(`- \`${trap.id}\` (${trap.severity}): `)
    // The paid part stays paid.
    for (const trap of file.traps) expect(text).not.toContain(trap.probe.trim())
    const plain = PREPARE.preview?.(data, { format: 'agents-md' }, 0)
    expect(plain?.ok && plain.markdown?.()).not.toContain('## Traps on file')
  })
})

describe('short and ranked answers keep what the scenarios demand', () => {
  it(`behavior: every scenario's ranked answer holds its demanded gates and rules, in full or as also consider, at most ${LIMIT_DEFAULT} in full`, () => {
    expect(content.scenarios.length).toBeGreaterThan(0)
    for (const s of content.scenarios) {
      const situation = {
        action: [s.action].flat().join(','),
        ...Object.fromEntries(Object.entries(s.facts).map(([k, v]) => [k, String(v)])),
      }
      // No gate applies (a 404, nothing sold): the rules alone are the answer.
      const both = PREPARE.checklist?.(data, { ...situation, include: 'rules' }, 0)
      const prepared = both?.ok ? both : PREPARE.lessons?.(data, situation, 0)
      // Nothing applies (a 404, nothing sold): right only for a scenario that demands nothing.
      if (!prepared?.ok) {
        expect([...s.must_apply.gates, ...s.must_apply.rules], `${s.id}: refused`).toEqual([])
        continue
      }
      const answer = { checklist: [], ...(prepared.payload() as Partial<Ranked>) } as Ranked
      expect(answer.ranked.length, s.id).toBeLessThanOrEqual(LIMIT_DEFAULT)
      const inFull = answer.checklist.length + (answer.rules?.length ?? 0) + (answer.traps?.length ?? 0)
      expect(inFull, s.id).toBe(answer.ranked.length)
      const held = (kind: string) => [
        ...answer.ranked.filter((l) => l.kind === kind).map((l) => l.id),
        ...answer.also_consider.filter((l) => l.kind === kind).map((l) => l.id),
      ]
      for (const id of s.must_apply.gates) expect(held('gate'), `${s.id}: ${id}`).toContain(id)
      for (const id of s.must_apply.rules) expect(held('rule'), `${s.id}: ${id}`).toContain(id)
      // Each item once, however many actions brought it.
      const all = [...answer.ranked, ...answer.also_consider].map((l) => `${l.kind}:${l.id}`)
      expect(new Set(all).size, s.id).toBe(all.length)
    }
    // The build holds the same (build/checks/ranked-scenarios.ts).
    expect(rankedScenarioIssues(data, content.scenarios)).toEqual([])
  })

  it('error: a scenario demanding an item the ranked answer lacks fails the build check, naming file and item', () => {
    const [scenario] = content.scenarios
    if (!scenario) throw new Error('no scenario')
    const demanding = { ...scenario, must_apply: { gates: ['no-such-gate'], rules: [] } }
    expect(rankedScenarioIssues(data, [demanding])).toEqual([
      {
        file: `scenarios/${scenario.id}.yaml`,
        field: 'must_apply.gates',
        problem: 'no-such-gate is neither in the ranked answer nor among its also-consider lines',
        allowed: 'an answer holding no-such-gate',
      },
    ])
  })

  it('behavior: limit raises the items in full, and the rest stay as also consider', () => {
    const asked = { action: 'deploy,schema-change', stateful: 'true', include: 'rules' }
    const short = checklist(asked)
    const long = checklist({ ...asked, limit: '20' })
    const total = short.ranked.length + short.also_consider.length
    expect(total).toBeGreaterThan(LIMIT_DEFAULT)
    expect(short.ranked).toHaveLength(LIMIT_DEFAULT)
    // Only what is known to apply comes in full: an item an unanswered yes keeps stays one line.
    const open = [...short.ranked, ...short.also_consider].filter((l) =>
      /kept until you answer/.test(l.why),
    ).length
    expect(long.ranked.length).toBeLessThanOrEqual(Math.min(20, total))
    expect(long.ranked.length).toBeGreaterThan(LIMIT_DEFAULT)
    expect(long.ranked.length + open).toBeGreaterThanOrEqual(Math.min(20, total))
    expect(long.ranked.slice(0, LIMIT_DEFAULT)).toEqual(short.ranked)
    expect([...long.ranked, ...long.also_consider]).toEqual([...short.ranked, ...short.also_consider])
  })

  it('behavior: a CI change outside production and an emergency get no gate or rule that stages, waits or asks for approval', () => {
    const slows = (l: Line) =>
      (l.kind === 'gate' ? data.harm.gates[l.id] : l.kind === 'rule' ? data.harm.rules[l.id] : undefined)
        ?.slows === true
    const items = (a: Ranked) => [...a.ranked, ...a.also_consider].filter((l) => l.kind !== 'trap')
    const ci = checklist({
      action: 'config-push,dependency-upgrade',
      technologies: 'github-actions',
      production: 'false',
      shared_platform: 'true',
      targets: '45',
      include: 'rules',
    })
    expect(items(ci).length).toBeGreaterThan(0)
    expect(items(ci).filter(slows)).toEqual([])
    // In an emergency an item that slows a planned change comes only with its own emergency path,
    // which never waits (the gate's or rule's in_an_emergency).
    const urgent = checklist({
      action: 'deploy,config-push',
      emergency: 'true',
      production: 'true',
      stateful: 'true',
      targets: '40',
      include: 'rules',
    })
    const emergencyPath = new Set(
      [...data.checklist.checklist, ...data.lessons.rules, ...data.preview.rules]
        .filter((i) => i.in_an_emergency)
        .map((i) => i.id),
    )
    expect(items(urgent).length).toBeGreaterThan(0)
    expect(items(urgent).filter((l) => slows(l) && !emergencyPath.has(l.id))).toEqual([])
  })

  it(`behavior: a fast path (an emergency, or outside production) holds ${FAST_PATH_LIMIT} in full by default, and limit still raises it`, () => {
    const asked = { action: 'deploy,schema-change', stateful: 'true', include: 'rules', production: 'true' }
    const fastPaths: Record<string, string>[] = [{ emergency: 'true' }, { production: 'false' }]
    for (const fast of fastPaths) {
      const short = checklist({ ...asked, ...fast })
      const total = short.ranked.length + short.also_consider.length
      expect(total, JSON.stringify(fast)).toBeGreaterThan(FAST_PATH_LIMIT)
      expect(short.ranked.length, JSON.stringify(fast)).toBeLessThanOrEqual(FAST_PATH_LIMIT)
      const raised = checklist({ ...asked, ...fast, limit: String(LIMIT_MAX) })
      expect([...raised.ranked, ...raised.also_consider]).toEqual([...short.ranked, ...short.also_consider])
    }
    expect(checklist({ ...asked, emergency: 'false' }).ranked).toHaveLength(LIMIT_DEFAULT)
  })
})

describe('asking with technologies is documented where agents and people read', () => {
  it('behavior: llms.txt and the README show the example, and openapi.json documents both parameters within its cap', async () => {
    expect(TECHNOLOGIES_EXAMPLE).toBe(
      'technologies=postgresql@16,pgbouncer&action=dependency-upgrade&change=pg_upgrade+to+17',
    )
    const { files } = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
    expect(files.get('public/llms.txt')).toContain(`/v1/fde-preship-checklist?${TECHNOLOGIES_EXAMPLE}`)
    const readme = await readFile('README.md', 'utf8')
    const section = readme.slice(readme.indexOf('## Asking with technologies'))
    expect(section.length).toBeLessThan(readme.length)
    expect(section.slice(0, 3000)).toContain(TECHNOLOGIES_EXAMPLE)
    const text = files.get('public/openapi.json') as string
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(OPENAPI_MAX_BYTES)
    const api = JSON.parse(text)
    expect(api.components.parameters.technologies.schema.type).toBe('array')
    expect(api.components.parameters.limit.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: LIMIT_MAX,
    })
    for (const path of ['/v1/fde-preship-checklist', '/v1/fde-lessons'])
      for (const name of ['technologies', 'limit'])
        expect(api.paths[path].get.parameters, `${path} ${name}`).toContainEqual({
          $ref: `#/components/parameters/${name}`,
        })
    expect(api.paths['/v1/fde-lessons/preview'].get.parameters).toContainEqual({
      $ref: '#/components/parameters/technologies',
    })
  })
})

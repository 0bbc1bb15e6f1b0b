/**
 * Issue 43, items for an operation the change does not do: a change names several technologies,
 * most as where it happens. A trap written for upgrading one of them (premise version-upgrade) is
 * in full only when the change upgrades that one (or the one the trap's upgrade_of names); when the
 * change says of none which it upgrades, nothing is decided by it.
 */
import { describe, expect, it } from 'vitest'
import { rank } from '../../gateway/datasets/ranking.js'
import { selectTraps } from '../../gateway/datasets/trap-selection.js'
import { changeVersions, movesOfRunning, upgradesUnnamed } from '../../gateway/datasets/upgraded.js'
import type { Trap, TrapFile, TrapsBundle } from '../../schema/traps.js'
import { fixtureTrap } from '../support/trap-fixture.js'

const trap = (id: string, text: string, extra: Partial<Trap> = {}): Trap =>
  fixtureTrap(id, text, { premise: 'version-upgrade', ...extra })
const file = (technology: string, name: string, traps: Trap[], aliases: string[] = []): TrapFile => ({
  technology,
  name,
  kind: 'observability',
  aliases,
  traps,
})

const bundle: TrapsBundle = {
  technologies: [
    file('metricstore', 'MetricStore', [
      trap('metricstore-v3-drops-old-blocks', 'Upgrading to v3 drops old blocks.'),
    ]),
    file('dashboards', 'Dashboards', [
      trap('dashboards-upgrade-migrates-database', 'Upgrading dashboards migrates its database one way.'),
    ]),
    file('charts', 'Charts', [
      trap('charts-release-stuck-after-platform-upgrade', 'Upgrading the platform leaves releases stuck.', {
        upgrade_of: ['metricstore'],
      }),
    ]),
  ],
}
const upgraded = (change: string, files: readonly TrapFile[]) => new Set(changeVersions(change, files).keys())
const asked = bundle.technologies.map((t) => ({ name: t.technology, id: t.technology }))
const inFull = (change: string) => {
  const s = selectTraps(bundle, asked, 'all', ['dependency-upgrade'], change)
  const r = rank({ traps: s.traps, gates: [], rules: [], because: {} }, 7)
  return { full: r.ranked.map((i) => i.id), lines: r.also_consider }
}

describe('which technology a change upgrades', () => {
  it('behavior: named right after a word of upgrading, or right before a version; a place named is not upgraded', () => {
    const files = bundle.technologies
    expect([...upgraded('upgrade metricstore to v3', files)]).toEqual(['metricstore'])
    expect([...upgraded('roll the agent 1.2 to 1.4 on every metricstore node', files)]).toEqual([])
    // An upgrade word before a word of place is not the named one's.
    expect([...upgraded('dashboards 15 to 16 upgrade on local metricstore', files)]).toEqual(['dashboards'])
    expect([...upgraded('move the orders metricstore cluster to 3.1 lts', files)]).toEqual(['metricstore'])
    expect([...upgraded('weekly release', files)]).toEqual([])
  })

  it('behavior: a version in reach carries the versions joined to it, however far the last one stands', () => {
    const files = bundle.technologies
    expect(
      changeVersions('rolling upgrade of metricstore cluster from 2.53 to 3.1', files).get('metricstore'),
    ).toEqual(['2.53', '3.1'])
    expect(changeVersions('metricstore 2.6 then 2.7 and 3.0', files).get('metricstore')).toEqual([
      '2.6',
      '2.7',
      '3.0',
    ])
    // A version out of reach with none in reach is not the technology's.
    expect(
      changeVersions('metricstore on the hosts of the eu cluster to 3.1', files).get('metricstore'),
    ).toBeUndefined()
  })

  it("behavior: another named technology's upgrade trap is one line saying why; the one upgraded stays in full", () => {
    const r = inFull('upgrade metricstore to v3')
    expect(r.full).toContain('metricstore-v3-drops-old-blocks')
    expect(r.full).not.toContain('dashboards-upgrade-migrates-database')
    expect(r.lines.find((l) => l.id === 'dashboards-upgrade-migrates-database')?.why).toContain(
      'written for upgrading dashboards, which your change does not upgrade',
    )
  })

  it('behavior: a trap written for upgrading another technology (upgrade_of) follows that one', () => {
    expect(inFull('upgrade metricstore to v3').full).toContain('charts-release-stuck-after-platform-upgrade')
    expect(inFull('upgrade dashboards to 11').full).not.toContain(
      'charts-release-stuck-after-platform-upgrade',
    )
  })

  it('behavior: a technology named at two versions is upgraded though the change never says the word', () => {
    const cutover = 'cut over the old blocks from metricstore 2.53 to 3.1 once replication catches up'
    expect(inFull(cutover).full).toContain('metricstore-v3-drops-old-blocks')
    // One version alone says where it runs, not that it moves.
    const one = 'cut over the old blocks to metricstore 3.1 once replication catches up'
    expect(inFull(one).lines.find((l) => l.id === 'metricstore-v3-drops-old-blocks')?.why).toContain(
      'written for a version-upgrade change',
    )
  })

  it("behavior: the traps of the version a change moves to lead, ahead of a chart tool's traps told in more of its words", () => {
    const chartTraps = ['a', 'b', 'c', 'd'].map((x) =>
      fixtureTrap(`charts-${x}`, `Running a chart upgrade with values ${x} resets them.`),
    )
    const bundleWithChart: TrapsBundle = {
      technologies: [
        file('metricstore', 'MetricStore', [
          trap('metricstore-3-renames-labels', 'Label values are written differently.', {
            premise: undefined,
            versions: '>= 3',
          }),
        ]),
        file('charts', 'Charts', chartTraps),
      ],
    }
    const s = selectTraps(
      bundleWithChart,
      [
        { name: 'metricstore', id: 'metricstore', version: '2.53' },
        { name: 'charts', id: 'charts' },
      ],
      'm',
      ['dependency-upgrade'],
      'upgrade metricstore from 2.53 to 3.1 with a chart upgrade and its values',
    )
    const ranked = rank({ traps: s.traps, gates: [], rules: [], because: {} }, 2).ranked.map((i) => i.id)
    expect(ranked).toContain('metricstore-3-renames-labels')
  })

  it('behavior: a count after a name is no version; a move of something no name asked is, and upgrades none of them', () => {
    expect(
      upgraded('upgrade metricstore to 3.1 with dashboards across 420 hosts', bundle.technologies),
    ).toEqual(new Set(['metricstore']))
    expect(changeVersions('upgrade metricstore to 3', bundle.technologies).get('metricstore')).toEqual(['3'])
    // A version of the technology's client, chart or operator is not the technology's.
    expect(changeVersions('bump the metricstore js client 2.5 to 2.11', bundle.technologies)).toEqual(
      new Map(),
    )
    expect(changeVersions('upgrade metricstore chart 18.1', bundle.technologies)).toEqual(new Map())
    // A whole number before a plural it counts is no version, even after "to".
    expect(changeVersions('scale metricstore compactor to 2 replicas', bundle.technologies)).toEqual(
      new Map(),
    )
    expect(
      changeVersions('move metricstore to 3 on two hosts', bundle.technologies).get('metricstore'),
    ).toEqual(['3'])
    // A quantity with its unit is no version: a retention "from 3 to 7 days" upgrades nothing.
    expect(upgraded('raise metricstore retention from 3 to 7 days', bundle.technologies)).toEqual(new Set())
    expect(upgraded('set the metricstore timeout to 30 seconds', bundle.technologies)).toEqual(new Set())
    const r = inFull('deploy the exporter with the libfoo 60.2 to 61.2 upgrade before month end')
    expect(r.full).toEqual([])
    expect(r.lines.find((l) => l.id === 'metricstore-v3-drops-old-blocks')?.why).toContain(
      'written for upgrading metricstore, which your change does not upgrade',
    )
    // A named technology moved by version is upgraded as before.
    expect(inFull('upgrade metricstore from 2.9 to 3.1').full).toContain('metricstore-v3-drops-old-blocks')
  })

  it('behavior: a move said by versions alone moves the technology run at the first; a place moved is no unnamed thing', () => {
    const running = [{ id: 'metricstore', version: '13.15.2' }]
    expect(movesOfRunning('upgrade the orders store from 13.15 to 16.4', running)).toEqual(
      new Map([['metricstore', ['16.4']]]),
    )
    expect(movesOfRunning('upgrade libfoo from 2.1 to 2.2', running)).toEqual(new Map())
    // Named at the version it moves to, the move starts at the other.
    expect(
      movesOfRunning('upgrade the cluster from 16.3 to 16.4', [{ id: 'metricstore', version: '16.4' }]),
    ).toEqual(new Map([['metricstore', ['16.3']]]))
    const files = bundle.technologies
    expect(upgradesUnnamed('upgrade the orders store from 13.15 to 16.4', files, running)).toBe(false)
    expect(upgradesUnnamed('rolling upgrade of the logging cluster from 7.17 to 8.15', files)).toBe(false)
    expect(upgradesUnnamed('ship with the libfoo 60.2 to 61.2 upgrade', files, running)).toBe(true)
    // The version it moves to is asked too: a trap of that version holds and leads.
    const versioned: TrapsBundle = {
      technologies: [
        file('metricstore', 'MetricStore', [
          trap('metricstore-16-drops-old-format', 'Old format files are refused.', { versions: '>= 16' }),
        ]),
      ],
    }
    const s = selectTraps(
      versioned,
      [{ name: 'metricstore', id: 'metricstore', version: '13.15' }],
      'm',
      ['dependency-upgrade'],
      'upgrade the orders store from 13.15 to 16.4',
    )
    expect(s.traps.map((t) => t.id)).toEqual(['metricstore-16-drops-old-format'])
    expect(s.traps[0]?.one_line_because).toBeUndefined()
  })

  it('behavior: an upgrade trap of arriving at a version is one line for a move that starts there already', () => {
    const arriving: TrapsBundle = {
      technologies: [
        file('metricstore', 'MetricStore', [
          trap('metricstore-7-drops-old-checks', 'Upgrading to 7 drops old checks.', { versions: '>= 7' }),
          trap('metricstore-7-5-renames', 'Upgrading to 7.5 renames a flag.', { versions: '>= 7.5, < 8' }),
        ]),
      ],
    }
    const select = (change: string) =>
      selectTraps(arriving, [{ name: 'metricstore', id: 'metricstore' }], 'm', ['dependency-upgrade'], change)
    const within = select('upgrade metricstore from 7.49 to 7.58')
    expect(within.traps.find((t) => t.id === 'metricstore-7-drops-old-checks')?.one_line_because).toBe(
      'written for upgrading to >= 7, and your change moves from 7.49, already there',
    )
    // A range with an upper bound is not only an arrival: it stays.
    expect(within.traps.find((t) => t.id === 'metricstore-7-5-renames')?.one_line_because).toBeUndefined()
    // A move across the bound meets it.
    const across = select('upgrade metricstore from 6.9 to 7.58')
    expect(
      across.traps.find((t) => t.id === 'metricstore-7-drops-old-checks')?.one_line_because,
    ).toBeUndefined()
  })

  it('behavior: a trap written for a major upgrade is one line for a move within one major, and in full across majors', () => {
    const majors: TrapsBundle = {
      technologies: [
        file('metricstore', 'MetricStore', [
          trap(
            'metricstore-major-upgrade-rewrites-files',
            'Upgrading MetricStore a major version rewrites its files.',
          ),
          trap('metricstore-upgrade-restarts-nodes', 'Upgrading MetricStore restarts every node.'),
          trap(
            'metricstore-upgrade-major-or-minor-drops-cache',
            'Upgrading MetricStore (major or minor) drops its cache.',
          ),
        ]),
      ],
    }
    const select = (change: string, version?: string) =>
      selectTraps(
        majors,
        [{ name: 'metricstore', id: 'metricstore', ...(version ? { version } : {}) }],
        'm',
        ['dependency-upgrade'],
        change,
      )
    const reason = (s: ReturnType<typeof select>, id: string) =>
      s.traps.find((t) => t.id === id)?.one_line_because
    const patch = select('upgrade metricstore from 4.1.4 to 4.1.7')
    expect(reason(patch, 'metricstore-major-upgrade-rewrites-files')).toBe(
      'written for a major version upgrade, and your change keeps metricstore within 4',
    )
    // What every upgrade meets, and a trap that says it holds for minor moves too, stay.
    expect(reason(patch, 'metricstore-upgrade-restarts-nodes')).toBeUndefined()
    expect(reason(patch, 'metricstore-upgrade-major-or-minor-drops-cache')).toBeUndefined()
    // Told as a minor upgrade, with one version known.
    expect(
      reason(
        select('minor upgrade of metricstore to the latest release', '16.3'),
        'metricstore-major-upgrade-rewrites-files',
      ),
    ).toBeDefined()
    // Across majors, and below 1 where the second number is the major, it is in full.
    expect(
      reason(select('upgrade metricstore from 4.1.4 to 5.0.2'), 'metricstore-major-upgrade-rewrites-files'),
    ).toBeUndefined()
    expect(
      reason(select('upgrade metricstore from 0.98 to 0.109'), 'metricstore-major-upgrade-rewrites-files'),
    ).toBeUndefined()
  })

  it('behavior: a trap filed under one technology and written for upgrading another leads when the change upgrades that other', () => {
    const s = selectTraps(
      bundle,
      asked,
      'all',
      ['dependency-upgrade'],
      'upgrade metricstore from 2.9 to 3.1 and keep the charts and dashboards',
    )
    const r = rank({ traps: s.traps, gates: [], rules: [], because: {} }, 7)
    const lead = r.ranked.find((i) => i.id === 'charts-release-stuck-after-platform-upgrade')
    expect(lead?.why).toContain('the upgrade of metricstore')
    expect(r.ranked.slice(0, 3).map((i) => i.id)).toContain('charts-release-stuck-after-platform-upgrade')
  })

  it('behavior: a change that says of none which it upgrades keeps every upgrade trap', () => {
    const r = inFull('upgrade everything this weekend')
    expect(r.full.sort()).toEqual(bundle.technologies.flatMap((t) => t.traps.map((x) => x.id)).sort())
  })

  it('behavior: a trap of the version the change moves to holds and leads (after the best told in its words) although the agent named the version it runs', () => {
    const versioned: TrapsBundle = {
      technologies: [
        file('metricstore', 'MetricStore', [
          trap('metricstore-3-renames-labels', 'Label values are written differently.', {
            premise: undefined,
            versions: '>= 3',
          }),
          trap('metricstore-upgrade-needs-disk', 'Upgrading needs free disk for the upgrade.', {
            premise: undefined,
          }),
        ]),
      ],
    }
    const change = 'upgrade metricstore from 2.53 to 3.1'
    expect(changeVersions(change, versioned.technologies).get('metricstore')).toEqual(['2.53', '3.1'])
    const ask = (c?: string) => {
      const s = selectTraps(
        versioned,
        [{ name: 'metricstore', id: 'metricstore', version: '2.53' }],
        'm',
        ['dependency-upgrade'],
        c,
      )
      return {
        ids: s.traps.map((t) => t.id),
        ranked: rank({ traps: s.traps, gates: [], rules: [], because: {} }, 7).ranked,
      }
    }
    expect(ask().ids).not.toContain('metricstore-3-renames-labels')
    const r = ask(change)
    const moved = r.ranked.find((i) => i.id === 'metricstore-3-renames-labels')
    expect(moved?.why).toContain('the version it moves to')
    expect(r.ranked.slice(0, 2).map((i) => i.id)).toContain('metricstore-3-renames-labels')
    // Both versions named as technologies, the change saying none: the same.
    const both = selectTraps(
      versioned,
      [
        { name: 'metricstore', id: 'metricstore', version: '2.53' },
        { name: 'metricstore', id: 'metricstore', version: '3.1' },
      ],
      'm',
      ['dependency-upgrade'],
      'major upgrade of the metric store',
    )
    expect(both.traps.find((t) => t.id === 'metricstore-3-renames-labels')?.matched?.words).toContain(
      'the version it moves to',
    )
    // A trap of the new version whose stop-if is scoped to an operation the change does not say
    // (creating a store on 3) does not lead an upgrade.
    const scoped: TrapsBundle = {
      technologies: versioned.technologies.map((f) => ({
        ...f,
        traps: [
          ...f.traps,
          trap('metricstore-3-new-store-denies-writes', 'A new store on 3 denies writes to other roles.', {
            premise: undefined,
            versions: '>= 3',
            stop_if: 'Only when the change creates a store: the writer role lacks the grant',
          }),
        ],
      })),
    }
    const upgraded = selectTraps(
      scoped,
      [{ name: 'metricstore', id: 'metricstore', version: '2.53' }],
      'm',
      ['dependency-upgrade'],
      change,
    ).traps
    expect(
      upgraded.find((t) => t.id === 'metricstore-3-new-store-denies-writes')?.matched?.words,
    ).not.toContain('the version it moves to')
    expect(upgraded.find((t) => t.id === 'metricstore-3-renames-labels')?.matched?.words).toContain(
      'the version it moves to',
    )
  })

  it('behavior: a managed service named at one version and its engine at another name one upgrade of both, when the change says an upgrade', () => {
    const managed: TrapsBundle = {
      technologies: [
        {
          ...file('dbservice', 'DB Service', [
            trap(
              'dbservice-upgrade-drops-parameter-group',
              'Upgrading the engine drops the custom parameter group.',
            ),
          ]),
          manages: ['dbengine'],
        },
        file('dbengine', 'DB Engine', [
          trap('dbengine-16-refuses-old-roles', 'Role admins lose rights on 16.', {
            premise: undefined,
            versions: '>= 16',
          }),
        ]),
      ],
    }
    const ask = (change: string) =>
      selectTraps(
        managed,
        [
          { name: 'dbservice', id: 'dbservice', version: '14.12' },
          { name: 'dbengine', id: 'dbengine', version: '16.4' },
        ],
        'd',
        ['dependency-upgrade'],
        change,
      ).traps
    const upgrade = ask('major version upgrade of the reporting database')
    expect(upgrade.find((t) => t.id === 'dbengine-16-refuses-old-roles')?.matched?.words).toContain(
      'the version it moves to',
    )
    expect(
      upgrade.find((t) => t.id === 'dbservice-upgrade-drops-parameter-group')?.one_line_because,
    ).toBeUndefined()
    // Outside an upgrade, the service's own version says no move of its engine.
    const widen = ask('widen a column of the reporting database')
    expect(widen.find((t) => t.id === 'dbengine-16-refuses-old-roles')?.matched?.words ?? []).not.toContain(
      'the version it moves to',
    )
  })
})

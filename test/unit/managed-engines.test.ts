/**
 * Issue 43, items whose inputs cannot exist for the technology named: a trap that needs the server
 * itself (a config file, a Sentinel, the provider's own upgrade) is one line, never in full, when
 * the agent names a managed service that runs the engine for it, by name or in its change's words.
 * Its other traps, and the engine asked alone, are untouched.
 */
import { describe, expect, it } from 'vitest'
import { rank } from '../../gateway/datasets/ranking.js'
import { selectTraps } from '../../gateway/datasets/trap-selection.js'
import type { Trap, TrapsBundle } from '../../schema/traps.js'
import { fixtureTechnology, fixtureTrap } from '../support/trap-fixture.js'

const trap = (id: string, text: string, needsServer = false): Trap =>
  fixtureTrap(id, text, needsServer ? { needs_server: true } : {})

const bundle: TrapsBundle = {
  technologies: [
    {
      technology: 'keystore',
      name: 'Keystore',
      kind: 'cache',
      aliases: [],
      traps: [
        trap(
          'keystore-watchers-need-three',
          'Failover with two watcher processes never elects a primary.',
          true,
        ),
        trap('keystore-scan-blocks', 'A full key scan during failover blocks every client.'),
      ],
    },
    {
      technology: 'cloud-keystore',
      name: 'Cloud Keystore',
      kind: 'cache',
      aliases: ['hosted-keystore'],
      manages: ['keystore'],
      traps: [trap('cloud-keystore-endpoint-moves', 'After failover the node endpoint points at a replica.')],
    },
  ],
}

const inFull = (names: string[], change?: string) => {
  const asked = names.map((n) => ({ name: n, id: n }))
  const s = selectTraps(bundle, asked, names.join(','), ['dependency-upgrade'], change)
  const r = rank({ traps: s.traps, gates: [], rules: [], because: {} }, 7)
  return { full: r.ranked.map((i) => i.id), lines: r.also_consider }
}

describe('traps that need the server, beside a managed service', () => {
  it('behavior: the engine asked alone keeps every trap in full', () => {
    expect(inFull(['keystore']).full.sort()).toEqual(['keystore-scan-blocks', 'keystore-watchers-need-three'])
  })

  it('behavior: with the managed service named, a trap needing the server is one line saying why; the rest stay', () => {
    for (const change of [undefined, 'failover during the engine upgrade']) {
      const r = inFull(['keystore', 'cloud-keystore'], change)
      expect(r.full, change).not.toContain('keystore-watchers-need-three')
      expect(r.full, change).toContain('keystore-scan-blocks')
      const line = r.lines.find((l) => l.id === 'keystore-watchers-need-three')
      expect(line?.why, change).toContain('needs the server itself, which cloud-keystore runs for you')
    }
  })

  it('behavior: a managed service said in the change, by an alias, counts as named', () => {
    const r = inFull(['keystore'], 'hosted-keystore failover during the engine upgrade')
    expect(r.full).not.toContain('keystore-watchers-need-three')
    expect(r.full).toContain('keystore-scan-blocks')
  })

  it('behavior: a technology that includes another (a DNS provider, dns) brings its traps, saying through which name', () => {
    const withProtocol: TrapsBundle = {
      technologies: [
        {
          ...bundle.technologies[1],
          includes: ['keystore'],
          manages: [],
        } as TrapsBundle['technologies'][number],
        bundle.technologies[0] as TrapsBundle['technologies'][number],
      ],
    }
    const s = selectTraps(
      withProtocol,
      [{ name: 'cloud-keystore', id: 'cloud-keystore' }],
      'cloud-keystore',
      [],
    )
    const scan = s.traps.find((t) => t.id === 'keystore-scan-blocks')
    expect(scan?.asked_as).toEqual(['keystore via cloud-keystore'])
    expect(s.echo.covered).toEqual(['cloud-keystore', 'keystore'])
  })
})

describe('traps written for one engine of a service that runs several', () => {
  const engines: TrapsBundle = {
    technologies: [
      fixtureTechnology('rowstore', 'Rowstore', 'database', [trap('rowstore-a', 'A.')], {
        aliases: ['rows'],
      }),
      fixtureTechnology('docstore', 'Docstore', 'database', [trap('docstore-a', 'A.')]),
      fixtureTechnology('scheduler', 'Scheduler', 'orchestration', [trap('scheduler-a', 'A.')]),
      fixtureTechnology(
        'cloud-scheduler',
        'Cloud Scheduler',
        'orchestration',
        [trap('cloud-scheduler-a', 'A.')],
        {
          manages: ['scheduler'],
        },
      ),
      fixtureTechnology(
        'cloud-db',
        'Cloud DB',
        'database',
        [
          fixtureTrap('cloud-db-rewind-rowstore-only', 'Rewinding the cluster loses writes.', {
            engine: 'rowstore',
          }),
          fixtureTrap('cloud-db-failover-cache', 'Clients cache the old writer after failover.'),
        ],
        { aliases: ['cloud-db-rowstore'], manages: ['rowstore', 'docstore'] },
      ),
    ],
  }
  const oneLine = (names: string[], change?: string) => {
    const asked = names.map((n) => ({ name: n, id: n === 'cloud-db-rowstore' ? 'cloud-db' : n }))
    const s = selectTraps(engines, asked, names.join(','), ['dependency-upgrade'], change)
    return Object.fromEntries(s.traps.map((t) => [t.id, t.one_line_because]))
  }

  it("behavior: named with another engine, a trap for one engine is one line saying so; the service's other traps stay", () => {
    for (const [names, change] of [
      [['cloud-db', 'docstore'], undefined],
      [['cloud-db'], 'cloud-db docstore engine upgrade'],
    ] as const) {
      const r = oneLine([...names], change)
      expect(r['cloud-db-rewind-rowstore-only'], String(change)).toBe(
        'written for rowstore, and your change names docstore',
      )
      expect(r['cloud-db-failover-cache'], String(change)).toBeUndefined()
    }
  })

  it('behavior: named with its own engine (by id, alias or the name asked), or with none, it stays in full', () => {
    expect(oneLine(['cloud-db', 'rowstore'])['cloud-db-rewind-rowstore-only']).toBeUndefined()
    expect(oneLine(['cloud-db'], 'upgrade the rows engine')['cloud-db-rewind-rowstore-only']).toBeUndefined()
    expect(oneLine(['cloud-db-rowstore'])['cloud-db-rewind-rowstore-only']).toBeUndefined()
    expect(oneLine(['cloud-db'])['cloud-db-rewind-rowstore-only']).toBeUndefined()
  })

  it("behavior: an engine another service named runs (a cluster's scheduler) does not set aside this service's trap for its own engine", () => {
    const r = oneLine(
      ['cloud-db', 'cloud-scheduler', 'scheduler'],
      'move the rowstore cloud-db behind the scheduler',
    )
    expect(r['cloud-db-rewind-rowstore-only']).toBeUndefined()
    expect(oneLine(['cloud-db', 'scheduler', 'docstore'])['cloud-db-rewind-rowstore-only']).toBe(
      'written for rowstore, and your change names docstore',
    )
  })
})

describe('traps of a tool that connects to several engines', () => {
  const cdc: TrapsBundle = {
    technologies: [
      ...bundle.technologies,
      {
        technology: 'keylog',
        name: 'Keylog',
        kind: 'cache',
        aliases: [],
        traps: [trap('keylog-log-kept-while-reader-paused', 'A paused reader keeps the write log growing.')],
      },
      {
        technology: 'capture',
        name: 'Capture',
        kind: 'queue-stream',
        aliases: [],
        connects_to: ['keystore', 'keylog'],
        traps: [
          {
            ...trap(
              'capture-keystore-purges-while-paused',
              'Pausing the reader lets the source purge its log.',
            ),
            engine: 'keystore',
          },
          {
            ...trap(
              'capture-keylog-slot-grows-while-paused',
              'Pausing the reader keeps the slot and its log.',
            ),
            engine: 'keylog',
          },
        ],
      },
    ],
  }
  const select = (names: string[], change: string) => {
    const s = selectTraps(
      cdc,
      names.map((n) => ({ name: n, id: n })),
      names.join(','),
      ['dependency-upgrade'],
      change,
    )
    const r = rank({ traps: s.traps, gates: [], rules: [], because: {} }, 7)
    return { full: r.ranked.map((i) => i.id), lines: r.also_consider }
  }

  it('behavior: a trap written for another engine than the one named is one line saying why; the named engine keeps its trap', () => {
    const r = select(['capture', 'keylog'], 'pause the capture reader for ten days')
    expect(r.full).toContain('capture-keylog-slot-grows-while-paused')
    expect(r.full).not.toContain('capture-keystore-purges-while-paused')
    expect(r.lines.find((l) => l.id === 'capture-keystore-purges-while-paused')?.why).toContain(
      'written for keystore, and your change names keylog',
    )
    // No engine named: both stay.
    expect(select(['capture'], 'pause the capture reader for ten days').full.sort()).toEqual([
      'capture-keylog-slot-grows-while-paused',
      'capture-keystore-purges-while-paused',
    ])
  })

  it('behavior: an engine a tool connects to is not run for you: its server-side traps stay in full', () => {
    const r = select(['capture', 'keystore'], 'failover with two watcher processes')
    expect(r.full).toContain('keystore-watchers-need-three')
  })
})

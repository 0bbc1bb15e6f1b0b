/**
 * Issue 43, item 3: a situated answer holds at most `limit` items in full (7 by default), what is
 * known to apply before what an unanswered fact keeps, most severe first, each with one line of why;
 * the rest are one-line "also consider" entries, each item once whatever the actions that brought it.
 */
import { describe, expect, it } from 'vitest'
import { LIMIT_DEFAULT, LIMIT_MAX, rank, readLimit } from '../../gateway/datasets/ranking.js'
import type { SelectedTrap } from '../../gateway/datasets/trap-selection.js'
import { selectTraps } from '../../gateway/datasets/trap-selection.js'
import type { PublishedGate, PublishedRule } from '../../schema/datasets.js'
import type { AppliesBecause } from '../../schema/situation.js'
import type { Severity, TrapsBundle } from '../../schema/traps.js'

const gate = (id: string, onFail: 'block' | 'defer') =>
  ({ id, title: `Gate ${id}.`, check_spec: { on_fail: onFail } }) as unknown as PublishedGate
const rule = (id: string) =>
  ({
    id,
    title: `Rule ${id}`,
    incident: { organisation: 'Example', date: '2020-01-01' },
  }) as unknown as PublishedRule
const trap = (id: string, severity: Severity, brought: string[] = ['deploy']) =>
  ({
    id,
    technology: 'kafka',
    severity,
    trap: `Trap ${id}.`,
    actions: brought,
    brought_by: brought,
    asked_as: ['kafka'],
  }) as unknown as SelectedTrap
const held = (action = 'deploy'): AppliesBecause => ({ action, matched: {} })
const open = (fact: string): AppliesBecause => ({
  action: 'deploy',
  matched: {},
  unanswered: [{ fact, question: `${fact}?`, drops_if: false }],
})

describe('ranking a situated answer', () => {
  it('behavior: known to apply first, then most severe, then trap before gate before rule', () => {
    const r = rank(
      {
        traps: [trap('t-degraded', 'degraded'), trap('t-irreversible', 'irreversible')],
        gates: [gate('g-defer', 'defer'), gate('g-block', 'block'), gate('g-block-open', 'block')],
        rules: [rule('r-one')],
        because: {
          'g-defer': held(),
          'g-block': held(),
          'g-block-open': open('kubernetes'),
          'r-one': held(),
        },
      },
      LIMIT_MAX,
    )
    // Known to apply, in full, most severe first; what an unanswered yes keeps is one line below.
    expect(r.ranked.map((i) => i.id)).toEqual(['t-irreversible', 'g-block', 'g-defer', 't-degraded', 'r-one'])
    expect(r.ranked.map((i) => i.level)).toEqual([
      'irreversible',
      'irreversible',
      'outage',
      'degraded',
      'degraded',
    ])
    expect(r.also_consider.map((i) => i.id)).toEqual(['g-block-open'])
    // Each line says why it is here, on one line.
    for (const item of r.ranked) expect(item.why).toMatch(/^[^\n]{10,}$/)
    expect(r.also_consider[0]?.why).toContain('kept until you answer kubernetes')
    expect(r.ranked.find((i) => i.id === 'g-block')?.why).toContain('blocks the change')
    expect(r.ranked.find((i) => i.id === 't-irreversible')?.why).toContain('trap of kafka for deploy')
    expect(r.ranked.find((i) => i.id === 'g-block')?.title).toBe('Gate g-block')
  })

  it('behavior: the limit keeps that many in full and lists the rest, in order, as also consider', () => {
    const gates = Array.from({ length: 10 }, (_, i) => gate(`g${i}`, i % 2 ? 'defer' : 'block'))
    const because = Object.fromEntries(gates.map((g) => [g.id, held()]))
    const r = rank({ traps: [], gates, rules: [], because }, 3)
    expect(r.ranked.map((i) => i.id)).toEqual(['g0', 'g2', 'g4'])
    expect(r.also_consider.map((i) => i.id)).toEqual(['g6', 'g8', 'g1', 'g3', 'g5', 'g7', 'g9'])
    expect([...r.kept.gates].sort()).toEqual(['g0', 'g2', 'g4'])
    const all = rank({ traps: [], gates, rules: [], because }, LIMIT_DEFAULT)
    expect(all.ranked).toHaveLength(LIMIT_DEFAULT)
    expect(all.also_consider).toHaveLength(3)
  })

  it('behavior: several actions bring a trap once, naming every action asked that it holds for', () => {
    const bundle: TrapsBundle = {
      technologies: [
        {
          technology: 'kafka',
          name: 'Apache Kafka',
          kind: 'queue-stream',
          aliases: [],
          traps: [
            {
              id: 'kafka-both',
              actions: ['capacity-change', 'config-push'],
              severity: 'degraded',
              trap: 'x',
              probe: 'p',
              stop_if: 's',
              safe_path: 'sp',
              source_url: 'https://kafka.apache.org/',
              quote: 'q',
              read_on: '2026-11-27',
            },
          ],
        },
      ],
    }
    const selected = selectTraps(bundle, [{ name: 'kafka', id: 'kafka' }], 'kafka', [
      'capacity-change',
      'config-push',
      'deploy',
    ])
    expect(selected.traps.map((t) => t.id)).toEqual(['kafka-both'])
    const r = rank({ traps: selected.traps, gates: [], rules: [], because: {} }, LIMIT_DEFAULT)
    expect(r.ranked).toHaveLength(1)
    expect(r.ranked[0]?.actions).toEqual(['capacity-change', 'config-push'])
    // Asked for another change only: none on file for it, said so.
    const none = selectTraps(bundle, [{ name: 'kafka', id: 'kafka', version: '3.7' }], 'kafka@3.7', ['dns'])
    expect(none.traps).toEqual([])
    expect(none.echo.notes).toEqual([
      'no traps on file for Apache Kafka (kafka) and dns at 3.7; 1 other trap on file for it',
    ])
  })

  it('behavior: limit absent is the default and unbound; a given limit is read as a whole number', () => {
    expect(readLimit(undefined)).toEqual({ limit: LIMIT_DEFAULT, given: false })
    expect(readLimit(String(LIMIT_DEFAULT))).toEqual({ limit: LIMIT_DEFAULT, given: false })
    expect(readLimit('12')).toEqual({ limit: 12, given: true })
    expect(readLimit(String(LIMIT_MAX))).toEqual({ limit: LIMIT_MAX, given: true })
  })

  for (const bad of ['0', String(LIMIT_MAX + 1), 'ten', '-3', '7.5', ''])
    it(`error: limit "${bad}" is refused, saying what is allowed`, () => {
      const read = readLimit(bad)
      expect('detail' in read && read.detail).toContain(`from 1 to ${LIMIT_MAX}`)
    })
  it('behavior: the places in full that go to traps go to those the change tells best; a weakly told one ranks a level down', () => {
    const told = (t: SelectedTrap, score: number): SelectedTrap => ({
      ...t,
      matched: { score, words: ['w'], elsewhere: [] },
    })
    const traps = [
      told(trap('t-lead', 'irreversible'), 10),
      told(trap('t-lead-2', 'outage'), 9),
      told(trap('t-lead-3', 'outage'), 8),
      told(trap('t-weak-irreversible', 'irreversible'), 3),
      told(trap('t-told-outage', 'outage'), 6),
    ]
    const r = rank({ traps, gates: [gate('g-block', 'block')], rules: [], because: { 'g-block': held() } }, 5)
    // Four places go to traps, as by severity alone; the fourth goes to the outage trap told twice
    // as well as the irreversible one that shares a word in passing, and the gate keeps its place.
    expect(r.ranked.map((i) => i.id)).toEqual(['t-lead', 't-lead-2', 't-lead-3', 't-told-outage', 'g-block'])
    expect(r.also_consider.map((i) => i.id)).toEqual(['t-weak-irreversible'])
  })
})

/**
 * Issue 43: the trap a change walks into comes first. An agent names its technologies and says the
 * change in its own words (`change=add partitions to the orders topic`); among a technology's traps
 * for the action, those told in the same words lead the answer, and one sharing two or more of the
 * words comes even when the agent chose another action.
 */
import { describe, expect, it } from 'vitest'
import { matchChange, readChange, stem, wordsOf } from '../../gateway/datasets/change-match.js'
import { CHANGE_LEADS, rank } from '../../gateway/datasets/ranking.js'
import { CHANGE_WORDS_TO_BRING, selectTraps } from '../../gateway/datasets/trap-selection.js'
import type { PublishedGate } from '../../schema/datasets.js'
import { CHANGE_MAX } from '../../schema/routes.js'
import type { Trap, TrapsBundle } from '../../schema/traps.js'

const trap = (
  id: string,
  text: string,
  actions: Trap['actions'],
  severity: Trap['severity'] = 'outage',
): Trap => ({
  id,
  actions,
  severity,
  trap: text,
  probe: 'read it',
  stop_if: 'it says so',
  safe_path: 'the safe way',
  source_url: 'https://example.org/doc',
  quote: 'a quote',
  read_on: '2026-11-27',
})

const kafka: TrapsBundle = {
  technologies: [
    {
      technology: 'kafka',
      name: 'Apache Kafka',
      kind: 'queue-stream',
      aliases: [],
      traps: [
        trap(
          'kafka-retention-deletes',
          'Lowering retention.ms on a topic deletes every older segment at once.',
          ['config-push'],
          'irreversible',
        ),
        trap(
          'kafka-unclean-election',
          'Turning on unclean leader election on a topic loses acknowledged writes.',
          ['config-push'],
          'irreversible',
        ),
        trap(
          'kafka-add-partitions-remaps-keys',
          'Adding partitions to a topic changes which partition each key hashes to, breaking per-key order.',
          ['capacity-change'],
        ),
        trap(
          'kafka-rebalance-storm',
          'Scaling a consumer group one instance at a time triggers a rebalance each time.',
          ['capacity-change'],
          'degraded',
        ),
      ],
    },
  ],
}
const asked = [{ name: 'kafka', id: 'kafka' }]

describe('reading change', () => {
  it('behavior: stems meet the forms an engineer writes (adding/add, partitions/partition, raising/raise)', () => {
    expect(stem('adding')).toBe(stem('add'))
    expect(stem('partitions')).toBe(stem('partition'))
    expect(stem('raising')).toBe(stem('raise'))
    expect([...wordsOf('Add the partitions to our orders topic').keys()]).toEqual([
      stem('add'),
      stem('partitions'),
      stem('orders'),
      stem('topic'),
    ])
  })

  it('error: an empty, over-long or wordless change is refused, naming what is allowed', () => {
    expect(readChange(undefined)).toEqual({})
    expect(readChange('  Add   Partitions ')).toEqual({ change: 'add partitions' })
    expect(readChange('   ')).toHaveProperty('detail')
    expect(readChange('x'.repeat(CHANGE_MAX + 1))).toHaveProperty('detail')
    expect(readChange('to a of')).toMatchObject({ detail: expect.stringContaining('no word') })
  })

  it('behavior: a word every trap holds weighs less than a word one trap holds', () => {
    const m = matchChange('topic partitions', kafka.technologies[0]?.traps ?? [])
    const partitions = m.get('kafka-add-partitions-remaps-keys')
    const retention = m.get('kafka-retention-deletes')
    expect(partitions?.words).toEqual(['topic', 'partitions'])
    expect(retention?.words).toEqual(['topic'])
    expect(partitions?.score ?? 0).toBeGreaterThan(retention?.score ?? 0)
  })
})

describe('change in selection and ranking', () => {
  it(`behavior: a trap sharing ${CHANGE_WORDS_TO_BRING}+ words with the change comes although its action differs; one sharing fewer does not`, () => {
    const without = selectTraps(kafka, asked, 'kafka', ['config-push'])
    expect(without.traps.map((t) => t.id)).not.toContain('kafka-add-partitions-remaps-keys')
    const withChange = selectTraps(
      kafka,
      asked,
      'kafka',
      ['config-push'],
      'add partitions to the orders topic',
    )
    expect(withChange.traps.map((t) => t.id)).toContain('kafka-add-partitions-remaps-keys')
    // "consumer" alone: one shared word is not enough to bring a trap of another action.
    const oneWord = selectTraps(kafka, asked, 'kafka', ['config-push'], 'consumer')
    expect(oneWord.traps.map((t) => t.id)).not.toContain('kafka-rebalance-storm')
  })

  it('behavior: the trap told in the change words leads, above more severe traps and every gate, and says why', () => {
    const gate = {
      id: 'g-block',
      title: 'A gate.',
      check_spec: { on_fail: 'block' },
    } as unknown as PublishedGate
    const selection = selectTraps(
      kafka,
      asked,
      'kafka',
      ['config-push', 'capacity-change'],
      'add partitions to orders',
    )
    const r = rank(
      {
        traps: selection.traps,
        gates: [gate],
        rules: [],
        because: { 'g-block': { action: 'config-push', matched: {} } },
      },
      3,
    )
    expect(r.ranked[0]?.id).toBe('kafka-add-partitions-remaps-keys')
    expect(r.ranked[0]?.why).toContain("told in your change's words (add, partitions")
    // Without the change, severity orders them and the partition trap is not in the top 3.
    const plain = rank(
      {
        traps: selectTraps(kafka, asked, 'kafka', ['config-push', 'capacity-change']).traps,
        gates: [gate],
        rules: [],
        because: { 'g-block': { action: 'config-push', matched: {} } },
      },
      3,
    )
    expect(plain.ranked.map((i) => i.id)).not.toContain('kafka-add-partitions-remaps-keys')
  })

  it(`behavior: at most ${CHANGE_LEADS} traps lead, each scoring at least half the best`, () => {
    const many: TrapsBundle = {
      technologies: [
        {
          ...(kafka.technologies[0] as TrapsBundle['technologies'][number]),
          traps: Array.from({ length: CHANGE_LEADS + 2 }, (_, i) =>
            trap(`kafka-topic-${i}`, `Changing a topic setting number ${i}.`, ['config-push'], 'degraded'),
          ).concat(trap('kafka-other', 'Something unrelated.', ['config-push'], 'irreversible')),
        },
      ],
    }
    const selection = selectTraps(many, asked, 'kafka', ['config-push'], 'change the topic setting')
    const r = rank({ traps: selection.traps, gates: [], rules: [], because: {} }, 50)
    const leading = r.ranked.slice(0, CHANGE_LEADS).map((i) => i.id)
    expect(leading.every((id) => id.startsWith('kafka-topic-'))).toBe(true)
    // After the leads, severity again: the irreversible trap before the remaining degraded ones.
    expect(r.ranked[CHANGE_LEADS]?.id).toBe('kafka-other')
  })
})

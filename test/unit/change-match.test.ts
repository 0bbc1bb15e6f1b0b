/**
 * Issue 43: the trap a change walks into comes first. An agent names its technologies and says the
 * change in its own words (`change=add partitions to the orders topic`); among a technology's traps
 * for the action, those told in the same words lead the answer, and one sharing two or more of the
 * words comes even when the agent chose another action.
 */
import { describe, expect, it } from 'vitest'
import {
  ELSEWHERE_WEIGHT,
  matchChange,
  OUT_OF_SCOPE_WEIGHT,
  readChange,
  stem,
  wordsOf,
} from '../../gateway/datasets/change-match.js'
import { CHANGE_LEADS, CHANGE_SHARE_IN_FULL, rank } from '../../gateway/datasets/ranking.js'
import { CHANGE_WORDS_TO_BRING, selectTraps } from '../../gateway/datasets/trap-selection.js'
import type { PublishedGate } from '../../schema/datasets.js'
import { CHANGE_MAX } from '../../schema/routes.js'
import type { Trap, TrapsBundle } from '../../schema/traps.js'
import { fixtureTrap } from '../support/trap-fixture.js'

const trap = (
  id: string,
  text: string,
  actions: Trap['actions'],
  severity: Trap['severity'] = 'outage',
): Trap => fixtureTrap(id, text, { actions, severity })

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

/** A trap told only in its line: probe, stop-if and safe path share no word with any change here. */
const lineOnly = (id: string, trap: string) => ({ id, trap, probe: 'p', stop_if: 's', safe_path: 'x' })

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
    // A setting's name meets its words, and an irregular plural its singular.
    expect(wordsOf('set number_of_replicas').has(stem('replicas'))).toBe(true)
    expect(stem('indices')).toBe(stem('index'))
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
    // After the leads, the other traps told in the change's words; the irreversible trap that shares
    // no word with the change is never in full, however severe: one line under "also consider".
    expect(r.ranked.map((i) => i.id)).toHaveLength(CHANGE_LEADS + 2)
    expect(r.ranked.map((i) => i.id)).not.toContain('kafka-other')
    expect(r.also_consider.find((i) => i.id === 'kafka-other')?.why).toContain('no word of your change')
  })

  it('behavior: a change of several operations leads with the best trap of each, though words of one add up in traps of another', () => {
    const compound: TrapsBundle = {
      technologies: [
        {
          ...(kafka.technologies[0] as TrapsBundle['technologies'][number]),
          traps: [
            trap('kafka-memory-limit', 'Raising a broker memory limit above the node starves it.', [
              'config-push',
            ]),
            trap('kafka-memory-quota', 'Adding a memory quota limit at scale rejects brokers.', [
              'config-push',
            ]),
            trap('kafka-memory-requests', 'Raising memory requests at scale leaves brokers pending.', [
              'config-push',
            ]),
            trap(
              'kafka-second-controller',
              'A second controller replica splits the cluster.',
              ['config-push'],
              'degraded',
            ),
            trap('kafka-controller-quorum', 'Moving the controller quorum to new hosts loses its log.', [
              'config-push',
            ]),
            trap('kafka-topic-replicas', 'Changing the replicas of a topic reassigns its partitions.', [
              'config-push',
            ]),
          ],
        },
      ],
    }
    const change = 'scale the controller to 2 replicas and raise the memory limit'
    const selection = selectTraps(compound, asked, 'kafka', ['config-push'], change)
    const byScore = [...selection.traps].sort((a, b) => (b.matched?.score ?? 0) - (a.matched?.score ?? 0))
    // By score alone the three memory traps lead and the controller's own trap does not.
    expect(byScore.slice(0, CHANGE_LEADS).map((t) => t.id)).not.toContain('kafka-second-controller')
    const leading = rank({ traps: selection.traps, gates: [], rules: [], because: {} }, 50)
      .ranked.slice(0, CHANGE_LEADS)
      .map((i) => i.id)
    expect(leading).toContain('kafka-second-controller')
    expect(leading[0]).toBe(byScore[0]?.id)
    // One operation: the leads are the best by score, as before.
    const one = selectTraps(compound, asked, 'kafka', ['config-push'], 'raise the memory limit')
    expect(one.traps.every((t) => t.matched?.parts === undefined)).toBe(true)
  })

  it('behavior: when the change meets a trap by what it acts on, a trap met only by a verb of changing is one line; an upgrade is its own object', () => {
    const selection = selectTraps(
      kafka,
      asked,
      'kafka',
      ['config-push', 'capacity-change'],
      'add partitions to orders and turn on compaction',
    )
    const r = rank({ traps: selection.traps, gates: [], rules: [], because: {} }, 7)
    // "turn" alone meets the unclean-election trap ("Turning on ..."): another operation's.
    expect(selection.traps.find((t) => t.id === 'kafka-unclean-election')?.matched?.verbsOnly).toBe(true)
    expect(r.ranked.map((i) => i.id)).toEqual(['kafka-add-partitions-remaps-keys'])
    // With no trap met by an object, a verb alone still counts.
    const verbs = selectTraps(kafka, asked, 'kafka', ['config-push'], 'turn it on')
    expect(
      rank({ traps: verbs.traps, gates: [], rules: [], because: {} }, 7).ranked.map((i) => i.id),
    ).toContain('kafka-unclean-election')
  })

  it(`behavior: a trap scoring under ${CHANGE_SHARE_IN_FULL} of the best is one line, and a word only in a probe or safe path counts ${ELSEWHERE_WEIGHT} as much as one in the trap's line`, () => {
    const body = (id: string, text: string, safe: string): Trap => ({
      ...trap(id, text, ['config-push']),
      safe_path: safe,
    })
    const traps = [
      body(
        'kafka-retention-lowered',
        'Lowering retention on a topic deletes older segments.',
        'keep replicas',
      ),
      body('kafka-disk-full', 'A broker whose disk fills stops.', 'add disk before raising replicas'),
      body('kafka-acl-default', 'Turning on the authorizer denies every client.', 'add ACLs first'),
    ]
    const m = matchChange('raise replicas on the topic', traps)
    // "raise" is in its safe path too, but a verb of changing there describes the fix, not the change.
    expect(m.get('kafka-disk-full')).toMatchObject({ words: [], elsewhere: ['replicas'] })
    expect(m.get('kafka-retention-lowered')?.words).toEqual(['topic'])
    const bundle: TrapsBundle = {
      technologies: [{ ...(kafka.technologies[0] as TrapsBundle['technologies'][number]), traps }],
    }
    const r = rank(
      {
        traps: selectTraps(bundle, asked, 'kafka', ['config-push'], 'raise replicas on the topic').traps,
        gates: [],
        rules: [],
        because: {},
      },
      50,
    )
    const best = Math.max(...[...m.values()].map((x) => x.score))
    for (const [id, x] of m) {
      const inFull = r.ranked.some((i) => i.id === id)
      expect(inFull, id).toBe(x.score > 0 && x.score >= best * CHANGE_SHARE_IN_FULL)
    }
    expect(r.also_consider.map((i) => i.id)).toContain('kafka-acl-default')
  })

  it('behavior: words of one meaning meet (grow/add, nodes/servers/hosts); unrelated words do not', () => {
    expect(stem('grow')).toBe(stem('adding'))
    expect(stem('nodes')).toBe(stem('servers'))
    expect(stem('hosts')).toBe(stem('instances'))
    expect(stem('grow')).not.toBe(stem('nodes'))
    const m = matchChange('grow the pool from six to eight nodes', [
      lineOnly('cache-add-server-remaps', 'Adding a server remaps most keys.'),
    ])
    expect(m.get('cache-add-server-remaps')?.words).toEqual(['grow', 'nodes'])
    // A short form an engineer writes meets the word a trap spells out.
    const short = matchChange('secret synced into an env var of the db client', [
      lineOnly('app-env-not-reloaded', 'Values read as environment variables never update.'),
      lineOnly('app-database-pool', 'A database pool keeps old connections.'),
    ])
    expect(short.get('app-env-not-reloaded')?.words).toEqual(['env', 'var'])
    expect(short.get('app-database-pool')?.words).toEqual(['db'])
    // A pause is a stop for what it holds; a number in words says no mechanism.
    const paused = matchChange('pause the reader for ten days', [
      lineOnly('log-kept-while-stopped', 'A stopped reader keeps the log growing.'),
      lineOnly('ten-partitions', 'Ten partitions per topic.'),
    ])
    expect(paused.get('log-kept-while-stopped')?.words).toEqual(['pause', 'reader'])
    expect(paused.get('ten-partitions')?.score).toBe(0)
  })

  it('behavior: a thing named in two words ("IP set", "allow list") or in two letters ("ip") meets its trap; "set" alone says nothing', () => {
    const m = matchChange('add the partner CIDRs to the WAF IP set allowlist', [
      lineOnly('list-replaced', 'Updating an IP set replaces its whole allow list.'),
      lineOnly('rule-order', 'Setting a rule priority reorders the web ACL.'),
    ])
    expect(m.get('list-replaced')?.words).toEqual(['ipset', 'allowlist'])
    expect(m.get('rule-order')?.words ?? []).toEqual([])
    expect(wordsOf('open the ip ranges').has(stem('ip'))).toBe(true)
    // An id is a thing too, said in the plural as often: "new ids" meets "changing an input's id".
    expect(
      matchChange('split the input into two with new ids', [
        lineOnly('id-changed', "Changing an input's id re-reads every file."),
      ]).get('id-changed')?.words,
    ).toEqual(['input', 'ids'])
    expect(wordsOf('set the timeout').size).toBe(1)
  })

  it('behavior: a word of when ("before expiry", "after 90 days") says nothing about the mechanism', () => {
    const m = matchChange('rotate the client certificate before expiry', [
      lineOnly('drains-before-stop', 'Stopping a target before it drains cuts requests.'),
      lineOnly('expiry-unnoticed', 'A certificate past its expiry fails every handshake.'),
    ])
    expect(m.get('drains-before-stop')?.score).toBe(0)
    expect(m.get('expiry-unnoticed')?.words).toEqual(['certificate', 'expiry'])
  })

  it('behavior: "new" tells making a thing from changing one: a new file system meets the trap of creating one first', () => {
    const m = matchChange('move the cache to a new file system', [
      lineOnly('created-with-defaults', 'Creating a new file system takes the API defaults.'),
      lineOnly('policy-replaced', 'Putting a file system policy replaces the default one.'),
    ])
    expect(m.get('created-with-defaults')?.words).toEqual(['new', 'file', 'system'])
    expect(m.get('created-with-defaults')?.score).toBeGreaterThan(m.get('policy-replaced')?.score ?? 0)
  })

  it('behavior: a unit right after a number is the size of the change, not its mechanism', () => {
    const m = matchChange('raise the function timeout to 8 minutes', [
      lineOnly('batches-a-minute', 'Raising concurrency adds 300 batches a minute.'),
      lineOnly(
        'timeout-coupled',
        'Raising the function timeout past the queue visibility timeout redelivers.',
      ),
    ])
    expect(m.get('batches-a-minute')?.words).toEqual(['raise'])
    expect(m.get('timeout-coupled')?.words).toEqual(['raise', 'function', 'timeout'])
    // Said as a thing, not a size, the word still counts.
    expect(
      matchChange('shorten the minute rollup', [lineOnly('rollup', 'A minute rollup drops raw points.')]).get(
        'rollup',
      )?.words,
    ).toEqual(['minute', 'rollup'])
  })

  it('behavior: a bigger or smaller value meets however it is said, and a disk is a volume; raising is not adding', () => {
    expect(stem('raise')).toBe(stem('bigger'))
    expect(stem('lowering')).toBe(stem('reduce'))
    expect(stem('persistence')).toBe(stem('volume'))
    expect(stem('pvc')).toBe(stem('disk'))
    expect(stem('raise')).not.toBe(stem('add'))
    expect(stem('raise')).not.toBe(stem('lower'))
    const m = matchChange('raise the postgresql persistence size in the chart values', [
      lineOnly(
        'set-volume-template-immutable',
        "Changing a set's volume template (a bigger disk) is rejected.",
      ),
    ])
    expect(m.get('set-volume-template-immutable')?.words).toEqual(['raise', 'persistence'])
  })

  it('behavior: a noun made of a verb meets the verb (replication/replicate, deployment/deploy, encryption/encrypted)', () => {
    for (const [noun, verb] of [
      ['replication', 'replicate'],
      ['deployments', 'deploy'],
      ['encryption', 'encrypted'],
      ['migration', 'migrating'],
    ])
      expect(stem(noun as string)).toBe(stem(verb as string))
    // A word that only ends like one keeps its own stem.
    expect(stem('version')).not.toBe(stem('verse'))
  })

  it('behavior: a deploy is its own object: a trap met by "rolling deploy" alone is not another operation\'s, one met by "deploy" alone is', () => {
    const traps = [
      lineOnly(
        'svc-port-blocks-rolling-deploy',
        'A rolling deploy with a fixed host port cannot start a new task.',
      ),
      lineOnly('svc-worker-early-ack', 'A worker acking early loses tasks when killed.'),
      lineOnly('svc-turn-on-strict', 'Turning on strict mode refuses old clients.'),
    ]
    const m = matchChange('rolling deploy of the worker', traps)
    expect(m.get('svc-port-blocks-rolling-deploy')?.verbsOnly).toBeUndefined()
    expect(matchChange('turn it off for the worker', traps).get('svc-turn-on-strict')?.verbsOnly).toBe(true)
    // "deploy" alone, said by every release (and "fix", said by most), tells no more than "add".
    const release = matchChange('deploy the one-line footer fix', traps)
    expect(release.get('svc-port-blocks-rolling-deploy')?.words).toEqual(['deploy'])
    expect(release.get('svc-port-blocks-rolling-deploy')?.verbsOnly).toBe(true)
  })

  it(`behavior: a trap whose stop-if is scoped to an operation the change says no word of scores ${OUT_OF_SCOPE_WEIGHT} as much`, () => {
    const scoped = (stop_if: string) => ({
      id: 'q-consumers',
      trap: 'Consumers of a queue with a deep prefetch hold messages others could take.',
      probe: 'p',
      stop_if,
      safe_path: 'x',
    })
    const clause = 'Only when the change adds consumers to clear a backlog: the prefetch is the default'
    const met = matchChange('add consumers to the orders queue', [scoped(clause)]).get('q-consumers')
    const unmet = matchChange('rename the orders queue', [scoped(clause)]).get('q-consumers')
    // A verb alone ("add") is not the operation the stop-if is scoped to: its object is.
    const otherObject = matchChange('add a dead-letter queue', [scoped(clause)]).get('q-consumers')
    const otherUnscoped = matchChange('add a dead-letter queue', [scoped('the prefetch is the default')]).get(
      'q-consumers',
    )
    expect(otherObject?.score).toBeCloseTo((otherUnscoped?.score ?? 0) * OUT_OF_SCOPE_WEIGHT)
    const unscoped = matchChange('rename the orders queue', [scoped('the prefetch is the default')]).get(
      'q-consumers',
    )
    expect(met?.score).toBeGreaterThan(0)
    expect(unmet?.score).toBeCloseTo((unscoped?.score ?? 0) * OUT_OF_SCOPE_WEIGHT)
    expect(unscoped?.score).toBeGreaterThan(0)
  })

  it("behavior: an alias of several words names a part of the technology, and its words are the change's own", () => {
    const vpc: TrapsBundle = {
      technologies: [
        {
          technology: 'netcloud',
          name: 'NetCloud',
          kind: 'cloud-network',
          aliases: ['nc', 'security-group'],
          traps: [
            trap(
              'netcloud-inline-rules-fight',
              'Inline rules in a security group fight separate rule resources.',
              ['network-change'],
            ),
            trap('netcloud-peering-routes', 'Peering adds no routes by itself.', ['network-change']),
          ],
        },
      ],
    }
    const s = selectTraps(
      vpc,
      [{ name: 'netcloud', id: 'netcloud' }],
      'netcloud',
      ['network-change'],
      'open the nc security group to a subnet',
    )
    expect(s.traps.find((t) => t.id === 'netcloud-inline-rules-fight')?.matched?.words).toEqual([
      'security',
      'group',
    ])
  })

  it('behavior: an alias some traps are named by, and what a display name lists in brackets, tell the mechanism', () => {
    const dnsLike: TrapsBundle = {
      technologies: [
        {
          technology: 'zonehost',
          name: 'ZoneHost name servers (records, TTLs)',
          kind: 'cloud-network',
          aliases: ['zh', 'dnssec'],
          traps: [
            trap('zonehost-dnssec-ds-left', 'Moving a zone with signing on leaves the parent DS.', ['dns']),
            trap('zonehost-ttl-cut-late', 'Cutting a TTL on the day of a move waits out the old one.', [
              'dns',
            ]),
            trap('zonehost-added-server-serves-empty', 'Adding a server before its zone transfer ends.', [
              'dns',
            ]),
          ],
        },
      ],
    }
    const s = selectTraps(
      dnsLike,
      [{ name: 'zonehost', id: 'zonehost' }],
      'zonehost',
      ['dns'],
      'zh: turn on dnssec, lower the ttls, add servers',
    )
    // "dnssec" names one of its traps, "TTLs" is listed in brackets and "servers" is what the display
    // name says it is: all are the change's words; "zh" and "ZoneHost" name the technology.
    expect(s.traps.find((t) => t.id === 'zonehost-dnssec-ds-left')?.matched?.words).toEqual(['dnssec'])
    expect(s.traps.find((t) => t.id === 'zonehost-ttl-cut-late')?.matched?.words).toEqual(['ttls'])
    expect(s.traps.find((t) => t.id === 'zonehost-added-server-serves-empty')?.matched?.words).toEqual([
      'add',
      'servers',
    ])
    expect(
      matchChange('zh', dnsLike.technologies[0]?.traps ?? [], ['zh']).get('zonehost-ttl-cut-late')?.score,
    ).toBe(0)
  })

  it('behavior: the names of the technologies asked are not counted: they tell which technology, not which trap', () => {
    const traps = kafka.technologies[0]?.traps ?? []
    const m = matchChange('kafka topic partitions', traps, ['kafka', 'Apache Kafka'])
    expect(m.get('kafka-add-partitions-remaps-keys')?.words).toEqual(['topic', 'partitions'])
    expect(m.get('kafka-rebalance-storm')).toMatchObject({ score: 0, words: [] })
  })

  it(`behavior: in an emergency only the ${CHANGE_LEADS} traps the change leads with are in full`, () => {
    const many: TrapsBundle = {
      technologies: [
        {
          ...(kafka.technologies[0] as TrapsBundle['technologies'][number]),
          traps: Array.from({ length: CHANGE_LEADS + 2 }, (_, i) =>
            trap(`kafka-topic-${i}`, `Changing a topic setting number ${i}.`, ['config-push'], 'degraded'),
          ),
        },
      ],
    }
    const items = {
      traps: selectTraps(many, asked, 'kafka', ['config-push'], 'change the topic setting').traps,
      gates: [],
      rules: [],
      because: {},
    }
    expect(rank(items, 50).ranked).toHaveLength(CHANGE_LEADS + 2)
    expect(rank(items, 50, undefined, true).ranked).toHaveLength(CHANGE_LEADS)
  })

  it('behavior: when no trap is told in the change words, the answer says so and gives none of them in full', () => {
    const selection = selectTraps(kafka, asked, 'kafka', ['config-push'], 'rotate certificates')
    expect(selection.echo.notes.join(' ')).toContain("told in your change's words")
    const r = rank({ traps: selection.traps, gates: [], rules: [], because: {} }, 7)
    expect(r.ranked).toEqual([])
    expect(r.also_consider.map((i) => i.id).sort()).toEqual(selection.traps.map((t) => t.id).sort())
  })
})

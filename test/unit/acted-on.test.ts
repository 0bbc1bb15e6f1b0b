/**
 * Issue 43, items whose inputs cannot exist: whether an item fits is decided by the technologies the
 * change acts on, the ones its own words name, not by names given for context. A memcached upgrade
 * that names the database behind it for context gets no database restore test.
 */
import { describe, expect, it } from 'vitest'
import { actedOn } from '../../gateway/datasets/acted-on.js'
import { doNoHarm } from '../../gateway/datasets/do-no-harm.js'
import { selectTraps } from '../../gateway/datasets/trap-selection.js'
import type { PublishedGate } from '../../schema/datasets.js'
import type { TrapsBundle } from '../../schema/traps.js'
import { harmMap } from '../support/do-no-harm.js'
import { fixtureTechnology, fixtureTrap } from '../support/trap-fixture.js'

const bundle: TrapsBundle = {
  technologies: [
    fixtureTechnology('memcached', 'Memcached', 'cache', [fixtureTrap('memcached-a', 'A.')], {
      aliases: ['memcache'],
    }),
    fixtureTechnology('aws-aurora', 'Amazon Aurora', 'database', [fixtureTrap('aws-aurora-a', 'A.')], {
      aliases: ['aurora'],
    }),
  ],
}
const named = [
  { name: 'memcached', id: 'memcached' },
  { name: 'aws-aurora', id: 'aws-aurora' },
]
const ids = (change?: string) => actedOn(named, change, bundle).map((r) => r.id)

describe('the technologies a change acts on', () => {
  it('behavior: the names the change says (id, alias or display name) are the ones it acts on', () => {
    expect(ids('upgrade memcached 1.6.9 to 1.6.22 and restart in batches')).toEqual(['memcached'])
    expect(ids('flush the memcache pool')).toEqual(['memcached'])
    expect(ids('resize the Amazon Aurora writer')).toEqual(['aws-aurora'])
    expect(ids('upgrade memcached; aurora takes the misses')).toEqual(['memcached', 'aws-aurora'])
  })

  it('behavior: a change that names none of them, or no change, leaves every name', () => {
    expect(ids('upgrade the cache tier')).toEqual(['memcached', 'aws-aurora'])
    expect(ids(undefined)).toEqual(['memcached', 'aws-aurora'])
  })

  it('behavior: a database restore test does not fit a memcached upgrade that names the database for context', async () => {
    const harm = await harmMap()
    const gate = 'latest-backup-restored-and-checked'
    const kinds: Record<string, string> = { memcached: 'cache', 'aws-aurora': 'database' }
    const held = (change: string) =>
      doNoHarm(harm, { production: true }, actedOn(named, change, bundle), (id) => kinds[id], {
        gates: [{ id: gate } as PublishedGate],
        rules: [],
        traps: [],
        because: { [gate]: { action: 'dependency-upgrade', matched: {} } },
      }).gates.length === 1
    expect(held('upgrade memcached in place, 144 nodes')).toBe(false)
    expect(held('upgrade the aurora cluster engine')).toBe(true)
  })

  it("behavior: a trap of a name given for context needs two of the change's words to be given in full; the tool the change is made with is no context", () => {
    const traps: TrapsBundle = {
      technologies: [
        fixtureTechnology('fluent-bit', 'Fluent Bit', 'observability', [
          fixtureTrap('fluent-bit-a', 'Upgrading Fluent Bit drops the offsets of the tail input.'),
        ]),
        fixtureTechnology('linux', 'Linux', 'runtime', [
          fixtureTrap('linux-a', 'An sshd config edit with a typo locks out remote access.', {
            actions: ['config-push'],
          }),
          fixtureTrap('linux-b', 'Converting the agent config to YAML on hosts loses its buffers.', {
            actions: ['config-push'],
          }),
        ]),
        fixtureTechnology('ansible', 'Ansible', 'iac', [
          fixtureTrap('ansible-a', 'A restart play on a config change hits every host at once.', {
            actions: ['config-push'],
          }),
        ]),
      ],
    }
    const asked = ['fluent-bit', 'linux', 'ansible'].map((id) => ({ name: id, id }))
    const oneLine = (change: string) =>
      Object.fromEntries(
        selectTraps(
          traps,
          asked,
          'fluent-bit,linux,ansible',
          ['config-push', 'dependency-upgrade'],
          change,
        ).traps.map((t) => [t.id, t.one_line_because !== undefined]),
      )
    const upgrade = oneLine('upgrade fluent-bit and convert config to yaml on 380 hosts')
    expect(upgrade['fluent-bit-a']).toBe(false)
    expect(upgrade['linux-a']).toBe(true)
    expect(upgrade['linux-b']).toBe(false)
    expect(upgrade['ansible-a']).toBe(false)
    // A change that says none of them has no context: every name counts.
    expect(oneLine('convert config on 380 hosts')['linux-a']).toBe(false)
  })

  it('behavior: a name not on file that the change says by two of its words is what the change acts on, and a name on file said only through those words is beside it', () => {
    const traps: TrapsBundle = {
      technologies: [
        fixtureTechnology(
          'jvm',
          'JVM',
          'runtime',
          [
            fixtureTrap('jvm-a', 'Upgrading the JDK makes strong encapsulation break reflection.', {
              premise: 'version-upgrade',
            }),
          ],
          { aliases: ['java', 'jdk'] },
        ),
        fixtureTechnology(
          'aws-elb',
          'Elastic Load Balancing',
          'proxy-cdn',
          [
            fixtureTrap(
              'aws-elb-a',
              'Raising the idle timeout past the backend keep-alive resets connections.',
              {
                actions: ['config-push'],
              },
            ),
          ],
          { aliases: ['alb'] },
        ),
      ],
    }
    const javaAgent = [{ name: 'opentelemetry-java-agent' }, { name: 'jvm', id: 'jvm' }]
    expect(
      actedOn(javaAgent, 'upgrade the java tracing agent in the base image', traps).map((r) => r.name),
    ).toEqual(['opentelemetry-java-agent'])
    const jvm = selectTraps(
      traps,
      javaAgent,
      'jvm,opentelemetry-java-agent',
      ['dependency-upgrade'],
      'upgrade the java tracing agent in the base image',
    )
    expect(jvm.traps.map((t) => [t.id, t.one_line_because])).toEqual([
      ['jvm-a', expect.stringContaining('named beside what your change acts on (opentelemetry-java-agent)')],
    ])
    // The missing technology is what the change moves: the answer says where its traps are found.
    expect(jvm.echo.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^no traps on file for opentelemetry-java-agent, which your change acts on: .*release notes/,
        ),
      ]),
    )
    // Named beside a change that does not act on it, it is said plainly.
    expect(
      selectTraps(
        traps,
        javaAgent,
        'jvm,opentelemetry-java-agent',
        ['dependency-upgrade'],
        'upgrade the jdk to 21',
      ).echo.notes,
    ).toContain('no traps on file for opentelemetry-java-agent')
    // Fits are still decided by the kinds of the names on file.
    expect(jvm.acted_on.map((r) => r.name)).toEqual(['opentelemetry-java-agent', 'jvm'])
    // Upgrading the JDK itself, said so, is what the JVM trap is for.
    const jdk = selectTraps(
      traps,
      javaAgent,
      'jvm,opentelemetry-java-agent',
      ['dependency-upgrade'],
      'upgrade java from 17 to 21 under the tracing agent',
    )
    expect(jdk.traps[0]?.one_line_because).toBeUndefined()
    // A name not on file whose words are all names on file claims nothing: "alb" is the load balancer's.
    const alb = [{ name: 'aws-alb' }, { name: 'aws-elb', id: 'aws-elb' }]
    expect(actedOn(alb, 'raise the alb idle timeout on aws', traps).map((r) => r.name)).toEqual(['aws-elb'])
  })

  it('behavior: a change said only through its tool ("via Terraform") acts on every name: none is context', () => {
    const traps: TrapsBundle = {
      technologies: [
        fixtureTechnology('terraform', 'Terraform', 'iac', [
          fixtureTrap('terraform-a', 'A plan replaces it.'),
        ]),
        fixtureTechnology(
          'aws-ecs',
          'Amazon ECS',
          'orchestration',
          [
            fixtureTrap('aws-ecs-a', 'Applying the service resets the autoscaled desired count.', {
              actions: ['capacity-change'],
            }),
          ],
          { aliases: ['ecs'] },
        ),
      ],
    }
    const asked = [
      { name: 'terraform', id: 'terraform' },
      { name: 'aws-ecs', id: 'aws-ecs' },
    ]
    const pick = (change: string) =>
      selectTraps(traps, asked, 'aws-ecs,terraform', ['capacity-change'], change).traps.find(
        (t) => t.id === 'aws-ecs-a',
      )?.one_line_because
    expect(pick('give the orders tasks more cpu and memory via terraform')).toBeUndefined()
    expect(pick('give the ecs orders tasks more cpu via terraform')).toBeUndefined()
  })

  it('behavior: a name on file said as a phrase ("kafka connect workers") claims its words from a name said by one of them; a service keeps none of its engine\'s', () => {
    const traps: TrapsBundle = {
      technologies: [
        fixtureTechnology('kafka', 'Apache Kafka', 'queue-stream', [fixtureTrap('kafka-a', 'A.')]),
        fixtureTechnology(
          'kafka-connect',
          'Kafka Connect',
          'queue-stream',
          [fixtureTrap('kafka-connect-a', 'A.')],
          {
            aliases: ['connect'],
          },
        ),
        fixtureTechnology('redis', 'Redis', 'cache', [fixtureTrap('redis-a', 'A.')]),
        fixtureTechnology(
          'aws-elasticache',
          'Amazon ElastiCache',
          'cache',
          [fixtureTrap('aws-elasticache-a', 'A.')],
          {
            aliases: ['elasticache', 'elasticache-redis'],
            manages: ['redis'],
          },
        ),
      ],
    }
    const ids = (names: string[], change: string) =>
      actedOn(
        names.map((n) => ({ name: n, id: n })),
        change,
        traps,
      ).map((r) => r.id)
    expect(ids(['kafka', 'kafka-connect'], 'restart the kafka connect workers one by one')).toEqual([
      'kafka-connect',
    ])
    expect(ids(['kafka', 'kafka-connect'], 'raise kafka retention, then restart connect')).toEqual([
      'kafka',
      'kafka-connect',
    ])
    expect(ids(['redis', 'aws-elasticache'], 'upgrade elasticache redis to 7.1')).toEqual([
      'redis',
      'aws-elasticache',
    ])
  })

  it('behavior: a tool the change upgrades is its object: a store named beside it is context', () => {
    const traps: TrapsBundle = {
      technologies: [
        fixtureTechnology('terraform', 'Terraform', 'iac', [fixtureTrap('terraform-a', 'Upgrading state.')], {
          aliases: ['opentofu'],
        }),
        fixtureTechnology('aws-dynamodb', 'Amazon DynamoDB', 'database', [
          fixtureTrap('aws-dynamodb-a', 'Restoring a table creates a new table.'),
        ]),
      ],
    }
    const asked = [
      { name: 'terraform', id: 'terraform' },
      { name: 'aws-dynamodb', id: 'aws-dynamodb' },
    ]
    const picked = (change: string) =>
      selectTraps(traps, asked, 'aws-dynamodb,terraform', ['dependency-upgrade'], change)
    const upgrade = picked('migrate terraform 1.5.7 to opentofu 1.8')
    expect(upgrade.acted_on.map((r) => r.id)).toEqual(['terraform'])
    expect(upgrade.traps.find((t) => t.id === 'aws-dynamodb-a')?.one_line_because).toContain('named beside')
    // Made through the tool, the change acts on everything named.
    expect(picked('raise the lock table capacity via terraform').acted_on.map((r) => r.id)).toEqual([
      'terraform',
      'aws-dynamodb',
    ])
  })
})

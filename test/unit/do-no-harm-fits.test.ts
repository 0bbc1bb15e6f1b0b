/**
 * Issue 43, do no harm: an item whose inputs cannot exist for the technologies named never comes.
 * Read from the real content: a restore test into a new instance fits a database, not object storage
 * (which keeps versions), a stream, a cache or a search index rebuilt from its source; a sandbox's
 * reach check fits anything but a CI change, which holds no copied data and sends to no one; gates
 * whose inputs are a provider's quotas, a host list or a soft-delete job come only where those exist.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { doNoHarm } from '../../gateway/datasets/do-no-harm.js'
import type { SelectedTrap } from '../../gateway/datasets/trap-selection.js'
import type { Gate } from '../../schema/content.js'
import type { PublishedGate, PublishedRule } from '../../schema/datasets.js'
import { coveredByBreaks } from '../../schema/harm.js'
import { appliesBecause, type Fact, type Situation } from '../../schema/situation.js'
import type { TrapFile } from '../../schema/traps.js'
import { harmMap } from '../support/do-no-harm.js'
import { fixtureTrap } from '../support/trap-fixture.js'

const kindOf = async (id: string) =>
  (parse(await readFile(`content/traps/${id}.yaml`, 'utf8')) as TrapFile).kind

async function kept(gate: string, technology: string, facts: Record<string, unknown>, change?: string) {
  const harm = await harmMap()
  const kind = await kindOf(technology)
  const result = doNoHarm(
    harm,
    facts,
    [{ name: technology, id: technology }],
    () => kind,
    {
      gates: [{ id: gate } as PublishedGate],
      rules: [],
      traps: [],
      because: { [gate]: { action: 'deploy', matched: {} } },
    },
    change,
  )
  return { held: result.gates.length === 1, left_out: result.left_out }
}

describe('items that do not fit the technologies named never come', () => {
  it('behavior: the restore-test gate comes for a database, never for object storage, a stream, cache or search index', async () => {
    for (const t of ['postgresql', 'aws-rds'])
      expect((await kept('latest-backup-restored-and-checked', t, {})).held, t).toBe(true)
    for (const t of ['aws-s3', 'kafka', 'redis', 'elasticsearch']) {
      const r = await kept('latest-backup-restored-and-checked', t, {})
      expect(r.held, t).toBe(false)
      expect(r.left_out.join(' '), t).toContain('its inputs do not exist')
    }
  })

  it('behavior: quota and spend ceilings come for what scales on a cloud or cluster, not a self-run search index', async () => {
    expect((await kept('quota-and-spend-ceilings-set', 'aws-eks', {})).held).toBe(true)
    expect((await kept('quota-and-spend-ceilings-set', 'opensearch', {})).held).toBe(false)
  })

  it('behavior: a host-list gate never comes for a cluster rollout, nor a soft-delete gate for cache keys', async () => {
    expect((await kept('fleet-command-echoes-target-count', 'linux', {})).held).toBe(true)
    expect((await kept('fleet-command-echoes-target-count', 'gke', {})).held).toBe(false)
    expect((await kept('bulk-delete-marks-before-purging', 'postgresql', {})).held).toBe(true)
    expect((await kept('bulk-delete-marks-before-purging', 'redis', {})).held).toBe(false)
  })

  it('behavior: a deletion by retention or lifecycle age gets no gate that resolves or marks named objects', async () => {
    for (const gate of ['delete-ids-resolve-to-intended-type', 'bulk-delete-marks-before-purging']) {
      expect((await kept(gate, 'aws-s3', {}, 'delete the 40 scratch prefixes')).held, gate).toBe(true)
      const byAge = await kept(
        gate,
        'aws-s3',
        {},
        'lifecycle rule expiring noncurrent versions after 30 days',
      )
      expect(byAge.held, gate).toBe(false)
      expect(byAge.left_out.join(' '), gate).toContain('a change of this form (deletion-by-age)')
    }
    expect(
      (await kept('delete-ids-resolve-to-intended-type', 'kafka', {}, 'lower retention.ms to 24h')).held,
    ).toBe(false)
    // The store deletes by age, not the agent's credential: no block on what that credential may delete.
    const credential = 'agent-cannot-delete-production'
    const lifecycle = 'bucket lifecycle rule: coldline at 90 days, delete at 400 days'
    expect((await kept(credential, 'gcp-cloud-storage', {}, 'delete the 40 scratch prefixes')).held).toBe(
      true,
    )
    expect((await kept(credential, 'gcp-cloud-storage', {}, lifecycle)).held).toBe(false)
  })

  it('behavior: a name not on file beside one on file leaves the decision to the one on file; names none on file keep the item', async () => {
    const harm = await harmMap()
    const kinds: Record<string, string> = { rabbitmq: 'queue-stream' }
    const held = (technologies: { name: string; id?: string }[]) =>
      doNoHarm(harm, {}, technologies, (id) => kinds[id], {
        gates: [{ id: 'latest-backup-restored-and-checked' } as PublishedGate],
        rules: [],
        traps: [],
        because: { 'latest-backup-restored-and-checked': { action: 'dependency-upgrade', matched: {} } },
      }).gates.length === 1
    expect(held([{ name: 'rabbitmq', id: 'rabbitmq' }, { name: 'erlang' }])).toBe(false)
    expect(held([{ name: 'erlang' }])).toBe(true)
  })

  it('behavior: the sandbox reach gate comes for a staging database, never for a CI change', async () => {
    const outside = { production: false }
    expect((await kept('non-production-cannot-reach-people-or-production', 'aws-rds', outside)).held).toBe(
      true,
    )
    expect(
      (await kept('non-production-cannot-reach-people-or-production', 'github-actions', outside)).held,
    ).toBe(false)
  })

  it('behavior: a CI change that also names the cluster its runners use still gets no sandbox reach gate', async () => {
    const harm = await harmMap()
    const gate = 'non-production-cannot-reach-people-or-production'
    const kinds: Record<string, string> = {}
    for (const t of ['gitlab-ci', 'kubernetes', 'aws-rds']) kinds[t] = await kindOf(t)
    const run = (named: string[]) =>
      doNoHarm(
        harm,
        { production: false },
        named.map((t) => ({ name: t, id: t })),
        (id) => kinds[id],
        {
          gates: [{ id: gate } as PublishedGate],
          rules: [],
          traps: [],
          because: { [gate]: { action: 'config-push', matched: {} } },
        },
        'replace kaniko with buildkit in the shared build template',
      )
    const ci = run(['gitlab-ci', 'kubernetes'])
    expect(ci.gates).toHaveLength(0)
    expect(ci.left_out.join(' ')).toContain('its inputs do not exist for a ci change (gitlab-ci)')
    // The cluster alone, or a staging database, is no CI change: the gate still comes.
    expect(run(['kubernetes']).gates).toHaveLength(1)
    expect(run(['aws-rds']).gates).toHaveLength(1)
  })

  it('behavior: a change told as already going out in canary waves gets no first-wave sizing; one told plainly does', async () => {
    const routine = { production: true, emergency: false }
    const canary = await kept(
      'first-wave-is-small',
      'google-cloud-run',
      routine,
      'deploy 2.31 with canary traffic split',
    )
    expect(canary.held).toBe(false)
    expect(canary.left_out.join(' ')).toContain('already does this (canary)')
    expect(
      (await kept('first-wave-is-small', 'google-cloud-run', routine, 'deploy invoice-web 2.31')).held,
    ).toBe(true)
    // A tool's rolling deploy sets its own batches; a bucket's rule is one target, nothing to wave.
    const rolling = await kept('first-wave-is-small', 'aws-ecs', routine, 'routine rolling deploy of api 5.8')
    expect(rolling.left_out.join(' ')).toContain('already does this (rolling)')
    const bucket = await kept('first-wave-is-small', 'gcp-cloud-storage', routine, 'bucket lifecycle rule')
    expect(bucket.held).toBe(false)
    expect(bucket.left_out.join(' ')).toContain('its inputs do not exist for gcp-cloud-storage')
    // Nor any item checked between stages or asking for them: a bucket's rule has none.
    for (const gate of ['no-step-on-stale-telemetry', 'unexplained-warning-halts-rollout'])
      expect((await kept(gate, 'gcp-cloud-storage', routine, 'bucket lifecycle rule')).held, gate).toBe(false)
  })

  it('behavior: when the trap the change meets best is one switch for every client, no item that stages by units comes; other items do', async () => {
    const harm = await harmMap()
    const staging = Object.entries(harm.gates).flatMap(([id, e]) => (e.stages ? [id] : []))
    const other = Object.entries(harm.gates).flatMap(([id, e]) =>
      !e.stages && !e.fits && !e.premise && !e.unless_premise && !e.done_by ? [id] : [],
    )
    expect(staging.length).toBeGreaterThan(0)
    const trapOf = (id: string, score: number, oneSwitch: boolean): SelectedTrap => ({
      ...fixtureTrap(id, `Trap ${id}.`, oneSwitch ? { one_switch: true } : {}),
      technology: 'thanos',
      brought_by: ['capacity-change'],
      asked_as: ['thanos'],
      matched: { score, words: ['compactor'], elsewhere: [] },
    })
    const run = (traps: SelectedTrap[]) =>
      doNoHarm(
        harm,
        { production: true, emergency: false },
        [{ name: 'thanos', id: 'thanos' }],
        () => 'observability',
        {
          gates: [...staging, ...other].map((id) => ({ id }) as PublishedGate),
          rules: [],
          traps,
          because: Object.fromEntries(
            [...staging, ...other].map((id) => [id, { action: 'capacity-change', matched: {} }]),
          ),
        },
      )
    const single = run([trapOf('thanos-second-compactor', 9, true), trapOf('thanos-memory', 4, false)])
    expect(single.gates.map((g) => g.id).sort()).toEqual([...other].sort())
    expect(single.left_out.join(' ')).toContain('one switch for every client (thanos-second-compactor)')
    // Met second, after a trap of a change that can be staged: the staging items stay.
    const staged = run([trapOf('thanos-second-compactor', 4, true), trapOf('thanos-memory', 9, false)])
    expect(staged.gates.map((g) => g.id).sort()).toEqual([...staging, ...other].sort())
  })

  it('behavior: an item guarding a degraded service that only an unanswered yes would bring becomes a question, also when no single answer decides it', async () => {
    const harm = await harmMap()
    const gate = 'affected-owners-told-and-parts-changed-apart'
    const open = [
      { fact: 'shared_platform', question: 'Shared?' },
      { fact: 'removes_objects', question: 'Removes?' },
    ]
    const result = doNoHarm(harm, { production: true }, undefined, () => undefined, {
      gates: [{ id: gate } as PublishedGate],
      rules: [],
      traps: [],
      because: { [gate]: { action: 'config-push', matched: { production: true }, unanswered: open } },
    })
    expect(result.gates).toEqual([])
    expect(result.questions.map((q) => q.fact).sort()).toEqual(['removes_objects', 'shared_platform'])
  })

  it('behavior: an item another kept item covers more closely is left out (one disuse check for an old credential)', async () => {
    const harm = await harmMap()
    const rule = 'confirm-replacement-before-removing'
    const answer = (gates: string[]) =>
      doNoHarm(harm, { production: true }, [{ name: 'aws-iam', id: 'aws-iam' }], () => 'secrets-identity', {
        gates: gates.map((id) => ({ id }) as PublishedGate),
        rules: [{ id: rule } as PublishedRule],
        traps: [],
        because: {},
      })
    const both = answer(['old-credential-revoked-only-when-unused'])
    expect(both.rules).toEqual([])
    expect(both.left_out).toContain(
      `${rule}: old-credential-revoked-only-when-unused checks the same for this change`,
    )
    expect(answer([]).rules.map((r) => r.id)).toEqual([rule])
    expect(
      coveredByBreaks(
        { gates: {}, rules: { [rule]: { harm: 'outage', slows: false, covered_by: ['nope'] } } },
        [rule],
      ),
    ).toEqual([`${rule} is covered_by nope, which is no gate or rule`])
  })

  it("behavior: the access-grant block meets a grant to people, not a fix to a service role's policy", async () => {
    const gate = 'access-grants-are-scoped-approved-and-expire'
    const routine = { production: true, emergency: false }
    const fix = await kept(gate, 'aws-iam', routine, 'certbot renewal failing on IAM policy with old zone id')
    expect(fix.held).toBe(false)
    expect(fix.left_out.join(' ')).toContain('principal-grant')
    expect((await kept(gate, 'aws-iam', routine, 'grant the analysts read access to the lake')).held).toBe(
      true,
    )
    // A workload's access key moved to a role is no grant to a person.
    const workload = 'replace static IAM user access key in a Kubernetes Secret with EKS Pod Identity'
    expect((await kept(gate, 'aws-iam', routine, workload)).held).toBe(false)
  })

  it('behavior: the untrusted-text rule meets an agent reading tickets, not a certificate renewal', async () => {
    const harm = await harmMap()
    const rule = 'treat-tool-output-as-data-not-instructions'
    const held = (change: string) =>
      doNoHarm(
        harm,
        { production: true },
        [{ name: 'aws-iam', id: 'aws-iam' }],
        () => 'secrets-identity',
        {
          gates: [],
          rules: [{ id: rule } as PublishedRule],
          traps: [],
          because: { [rule]: { action: 'access-change', matched: {} } },
        },
        change,
      ).rules.length === 1
    expect(held('renew the certificate, IAM policy names the old zone')).toBe(false)
    expect(held('give the triage agent a token to read support tickets')).toBe(true)
  })

  it("behavior: outside production a trap comes when it is irreversible or the change's own words tell it", async () => {
    const harm = await harmMap()
    const trap = (id: string, severity: SelectedTrap['severity'], score: number): SelectedTrap => ({
      ...fixtureTrap(id, 'A trap.', { severity }),
      technology: 'github-actions',
      brought_by: ['dependency-upgrade'],
      asked_as: ['github-actions'],
      matched: { score, words: score ? ['artifact'] : [], elsewhere: [] },
    })
    const traps = [trap('told', 'outage', 2), trap('untold', 'outage', 0), trap('lost', 'irreversible', 0)]
    const kept = (facts: Record<string, unknown>) =>
      doNoHarm(harm, facts, undefined, () => undefined, {
        gates: [],
        rules: [],
        traps,
        because: {},
      }).traps.map((t) => t.id)
    expect(kept({ production: false })).toEqual(['told', 'lost'])
    expect(kept({ production: true })).toEqual(['told', 'untold', 'lost'])
  })
})

describe('an unanswered fact the change settles in its own words', () => {
  it('behavior: a capacity change that says it raises or adds gets no item kept only for a removal; one that says neither way keeps it', async () => {
    const facts = parse(await readFile('content/facts.yaml', 'utf8')) as Fact[]
    const gates = await Promise.all(
      ['fleet-command-echoes-target-count', 'capacity-removal-respects-floor'].map(
        async (id) => parse(await readFile(`content/gates/${id}.yaml`, 'utf8')) as Gate,
      ),
    )
    const situation: Situation = { action: 'capacity-change', facts: { production: true, targets: 9 } }
    const because = Object.fromEntries(
      gates.flatMap((g) => {
        const why = appliesBecause(g.check_spec, situation, facts)
        return why ? [[g.id, why] as const] : []
      }),
    )
    const held = async (change: string) =>
      doNoHarm(
        await harmMap(),
        situation.facts,
        undefined,
        () => undefined,
        { gates: gates.map((g) => ({ id: g.id }) as PublishedGate), rules: [], traps: [], because },
        change,
      ).gates.map((g) => g.id)
    // Both apply to an unanswered direction (a removal may be meant).
    expect(Object.keys(because).sort()).toEqual([
      'capacity-removal-respects-floor',
      'fleet-command-echoes-target-count',
    ])
    // A raise may still be a replacement (a pool cycled to bigger machines): the floor stays.
    expect(await held('increase topic retention from 3 to 7 days')).toEqual([
      'capacity-removal-respects-floor',
    ])
    expect(await held('resize the broker disks')).toEqual([
      'fleet-command-echoes-target-count',
      'capacity-removal-respects-floor',
    ])
  })
})

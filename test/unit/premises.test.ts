/**
 * Issue 43, items picked by vocabulary: an item written for one circumstance (its premise) is not
 * given in full to a change that does not name it. A runtime's upgrade trap does not meet a release
 * that keeps the runtime; a webhook's lock-out check does not meet a node agent's rollout; a cache
 * isolation check does not meet an engine upgrade. Without `change`, nothing is decided by it.
 */
import { describe, expect, it } from 'vitest'
import { premisesNamedBy } from '../../gateway/datasets/change-match.js'
import { doNoHarm } from '../../gateway/datasets/do-no-harm.js'
import { rank } from '../../gateway/datasets/ranking.js'
import { selectTraps } from '../../gateway/datasets/trap-selection.js'
import type { PublishedGate } from '../../schema/datasets.js'
import { PREMISE_IDS, PREMISES, type Premise } from '../../schema/premises.js'
import type { Trap, TrapsBundle } from '../../schema/traps.js'
import { harmMap } from '../support/do-no-harm.js'
import { fixtureTechnology, fixtureTrap } from '../support/trap-fixture.js'

const wordsOf = (p: Premise) => PREMISES[p].split(' ')

const trap = (id: string, text: string, premise?: Premise): Trap =>
  fixtureTrap(id, text, premise ? { premise } : {})

const runtime: TrapsBundle = {
  technologies: [
    {
      technology: 'python',
      name: 'Python',
      kind: 'runtime',
      aliases: [],
      traps: [
        trap(
          'python-new-release-drops-module',
          'Upgrading the runtime: a module is removed, so a release on the new version fails at import.',
          'version-upgrade',
        ),
        trap(
          'python-loose-pins-pull-breaking-release',
          'A release rebuilt with loose pins pulls a breaking release.',
        ),
      ],
    },
  ],
}
const asked = [{ name: 'python', id: 'python' }]
const inFull = (change?: string) => {
  const s = selectTraps(runtime, asked, 'python', ['dependency-upgrade'], change)
  return rank({ traps: s.traps, gates: [], rules: [], because: {} }, 7).ranked.map((i) => i.id)
}

describe('premises', () => {
  it('behavior: every premise is met by each of its own words and by no change that names none of them', () => {
    for (const p of PREMISE_IDS) {
      for (const w of wordsOf(p)) expect(premisesNamedBy(`then ${w} it`)(p), `${p}: ${w}`).toBe(true)
      expect(premisesNamedBy('rename the weekly dashboard')(p), p).toBe(false)
      expect(premisesNamedBy(undefined)(p), p).toBe(true)
    }
    expect(premisesNamedBy('rename the weekly dashboard')(undefined)).toBe(true)
  })

  it('behavior: an ACME client asked by name says ACME issuance, whatever the change says; a platform name says no platform upgrade', () => {
    const acmeTrap = fixtureTrap(
      'tls-acme-option-refused',
      'An option the ACME server refuses fails renewal.',
      {
        premise: 'acme-issuance',
        actions: ['certificate'],
      },
    )
    const certificates: TrapsBundle = {
      technologies: [
        fixtureTechnology('tls', 'TLS certificates', 'secrets-identity', [acmeTrap], {
          aliases: ['certbot', 'kubernetes-certs'],
        }),
      ],
    }
    const reason = (name: string, change: string) =>
      selectTraps(certificates, [{ name, id: 'tls' }], 'tls', ['certificate'], change).traps[0]
        ?.one_line_because
    const certbot = selectTraps(
      certificates,
      [{ name: 'certbot', id: 'tls' }],
      'tls',
      ['certificate'],
      'turn on an option for the api certificate',
    )
    expect(certbot.traps.map((t) => t.id)).toEqual(['tls-acme-option-refused'])
    expect(certbot.traps[0]?.one_line_because).toBeUndefined()
    expect(reason('tls', 'turn on an option for the api certificate')).toBe(
      'written for a acme-issuance change, which yours does not name',
    )
    // Only the premises a tool's name always says: a cluster's name is no platform upgrade.
    const platformTrap = fixtureTrap(
      'kubernetes-upgrade-drops-api',
      'A cluster upgrade stops serving an old API.',
      {
        premise: 'platform-upgrade',
        actions: ['deploy'],
      },
    )
    const cluster: TrapsBundle = {
      technologies: [fixtureTechnology('kubernetes', 'Kubernetes', 'orchestration', [platformTrap])],
    }
    expect(
      selectTraps(
        cluster,
        [{ name: 'kubernetes', id: 'kubernetes' }],
        'k',
        ['deploy'],
        'roll out the web release',
      ).traps[0]?.one_line_because,
    ).toBe('written for a platform-upgrade change, which yours does not name')
  })

  it('behavior: a trap written for an upgrade is one line for a release that keeps the version, in full for the upgrade', () => {
    const release = 'weekly release rebuilt'
    expect(inFull(release)).toEqual(['python-loose-pins-pull-breaking-release'])
    const s = selectTraps(runtime, asked, 'python', ['dependency-upgrade'], release)
    expect(s.traps.map((t) => t.id)).toContain('python-new-release-drops-module')
    const upgrade = `${wordsOf('version-upgrade')[0]} the runtime to the new release`
    expect(inFull(upgrade)).toContain('python-new-release-drops-module')
    // Without a change described, nothing is decided by the premise.
    expect(inFull()).toContain('python-new-release-drops-module')
  })

  it('behavior: a dependency upgrade that gives a thing a version, or bumps or unpins it, upgrades that thing, and no other', () => {
    const sdkTrap = fixtureTrap(
      'python-sdkclient-2-sends-checksums',
      'Upgrading sdkclient to 2.x: uploads now send checksums that other stores reject.',
      { premise: 'version-upgrade', actions: ['dependency-upgrade', 'deploy'] },
    )
    const bundle: TrapsBundle = {
      technologies: runtime.technologies.map((f) => ({ ...f, traps: [...f.traps, sdkTrap] })),
    }
    const because = (action: string, change: string) =>
      Object.fromEntries(
        selectTraps(bundle, asked, 'python', [action], change).traps.map((t) => [t.id, t.one_line_because]),
      )
    // Told without a word of upgrading: the version given to sdkclient says it.
    const unpinned = because('dependency-upgrade', 'unpin sdkclient 2.1 for the uploader')
    expect(unpinned['python-sdkclient-2-sends-checksums']).toBeUndefined()
    // A thing bumped or unpinned is upgraded as well; the technology's own name is not such a thing.
    expect(
      because('dependency-upgrade', 'routine bump of the sdkclient pin')[
        'python-sdkclient-2-sends-checksums'
      ],
    ).toBeUndefined()
    expect(because('dependency-upgrade', 'bump python pins')['python-new-release-drops-module']).toBe(
      'written for a version-upgrade change, which yours does not name',
    )
    // The runtime is given no version: its own upgrade trap stays one line.
    expect(unpinned['python-new-release-drops-module']).toBe(
      'written for a version-upgrade change, which yours does not name',
    )
    // Another action asked, or a thing neither given a version nor bumped, decides nothing.
    expect(
      because('deploy', 'unpin sdkclient 2.1 for the uploader')['python-sdkclient-2-sends-checksums'],
    ).toBe('written for a version-upgrade change, which yours does not name')
    expect(
      because('dependency-upgrade', 'rebuild the uploader with sdkclient')[
        'python-sdkclient-2-sends-checksums'
      ],
    ).toBe('written for a version-upgrade change, which yours does not name')
  })

  it('behavior: a gate or rule with a premise is left out, said so, when the change names none of its words', async () => {
    const harm = await harmMap()
    const withPremise = [
      ...Object.entries(harm.gates).map(([id, e]) => ({ id, kind: 'gates' as const, premise: e.premise })),
      ...Object.entries(harm.rules).map(([id, e]) => ({ id, kind: 'rules' as const, premise: e.premise })),
    ].filter((x): x is { id: string; kind: 'gates' | 'rules'; premise: Premise } => x.premise !== undefined)
    expect(withPremise.length).toBeGreaterThan(0)
    for (const item of withPremise) {
      const run = (change?: string) => {
        const r = doNoHarm(
          harm,
          {},
          undefined,
          () => undefined,
          {
            gates: item.kind === 'gates' ? [{ id: item.id } as PublishedGate] : [],
            rules: item.kind === 'rules' ? [{ id: item.id } as never] : [],
            traps: [],
            because: { [item.id]: { action: 'deploy', matched: {} } },
          },
          change,
        )
        return { held: r.gates.length + r.rules.length === 1, left_out: r.left_out.join(' ') }
      }
      const off = run(
        item.premise === 'revocation'
          ? 'renew the expiring client certificate and restart the pods'
          : 'rename the weekly dashboard',
      )
      expect(off.held, item.id).toBe(false)
      expect(off.left_out, item.id).toContain(`written for a ${item.premise} change`)
      expect(run(`change the ${wordsOf(item.premise)[0]} settings`).held, item.id).toBe(true)
      expect(run().held, item.id).toBe(true)
    }
  })
})

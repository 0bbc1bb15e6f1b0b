/**
 * The fastest safe fix is never slowed: a check that applies to `revert` waits for nothing, and no
 * sentence puts a wait, bake, stage, share cap, replay test or approval in front of a rollback or a
 * kill switch (build/checks/revert-speed.ts, FORMAT.md).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import {
  revertSpecBreaks,
  revertTextBreaks,
  slowedRevertSentences,
  slowingThreshold,
} from '../../build/checks/revert-speed.js'
import { REVERT_TEXT_RULE } from '../../build/stages/validate.js'
import type { CheckSpec, Threshold } from '../../schema/content.js'
import { buildFailure, copyOfContent } from '../support/content-copy.js'

const T = (name: string, unit: string) => ({ name, unit })
const MAP = new Map(
  [
    T('canary-bake-min', 'minutes'),
    T('first-stage-share-max', '%'),
    T('mitigation-step-max', 'minutes'),
    T('error-rate-recovered-max', 'percentage point'),
    T('capacity-removal-step-max', '%'),
  ].map((t) => [t.name, t]),
)

const spec = (over: Partial<CheckSpec>): CheckSpec => ({
  applies_to: ['revert'],
  inputs: [
    { name: 'target_version', read_with: 'the last known-good version from the release record' },
    { name: 'version_after', read_with: 'every host reports its version' },
  ],
  pass_when: 'every host reports the last known-good version',
  thresholds: [],
  on_unreadable: 'fail-closed',
  exception_approver: 'the incident commander',
  ...over,
})

describe('slowing thresholds', () => {
  it('behavior: waits, stage shares and approvals slow a revert; deadlines and outcome bounds do not', () => {
    expect(slowingThreshold(T('canary-bake-min', 'minutes'))).toBeTruthy()
    expect(slowingThreshold(T('soft-delete-hold-min', 'days'))).toBeTruthy()
    expect(slowingThreshold(T('post-change-watch-min', 'minutes'))).toBeTruthy()
    expect(slowingThreshold(T('first-stage-share-max', '%'))).toBeTruthy()
    expect(slowingThreshold(T('capacity-removal-step-max', '%'))).toBeTruthy()
    expect(slowingThreshold(T('fleet-command-approval-share', '%'))).toBeTruthy()
    expect(slowingThreshold(T('mitigation-step-max', 'minutes'))).toBeNull()
    expect(slowingThreshold(T('error-rate-recovered-max', 'percentage point'))).toBeNull()
    expect(slowingThreshold(T('write-freeze-deadline', 'minutes'))).toBeNull()
  })
})

describe('sentences that slow a revert', () => {
  const flagged = [
    'Roll back with the normal deploy tooling, starting with one wave, rather than by hand.',
    'Run a replay test of the new records before any rollback.',
    'Roll back only after a second person approves the target.',
    'A rollback touches at most 10% of hosts per step.',
    'Flip the kill switch once the canary has baked.',
    'Wait {{canary-bake-min}} and then revert the rest.',
    'Revert in waves of {{first-stage-share-max}}.',
    'Roll back no more than {{capacity-removal-step-max}} of a pool at a time.',
  ]
  for (const text of flagged)
    it(`error: "${text}"`, () => {
      expect(slowedRevertSentences(text, MAP)).toHaveLength(1)
    })

  const allowed = [
    'Roll back to the last known-good build everywhere at once, with no replay test and no approval.',
    'The {{capacity-removal-step-max}} cap does not apply to a revert to the last known-good state.',
    'Apply it to one canary host and wait {{canary-bake-min}}. If a gate fails, stop and revert.',
    'Revert the top candidate first; if errors do not fall within {{mitigation-step-max}}, revert the next.',
    'All hosts report the rollback target and the error rate is within {{error-rate-recovered-max}} of baseline.',
    'Move traffic away from the affected wave, cell or region, or switch the new behaviour off with its kill switch.',
    'The change is blocked until a review approves it, and the timeline covers detection, containment, rollback and verification.',
  ]
  for (const text of allowed)
    it(`behavior: "${text}" passes`, () => {
      expect(slowedRevertSentences(text, MAP)).toEqual([])
    })

  it('behavior: a playbook step that rolls back in waves is listed with its field', () => {
    const playbook = {
      steps: [
        { do: 'Pause the generator.', done_when: 'It reads paused.' },
        { do: 'Roll back starting with one wave.', done_when: 'Every host reports the rollback target.' },
      ],
    }
    const breaks = revertTextBreaks('playbook', playbook, MAP)
    expect(breaks.map((b) => b.field)).toEqual(['steps.1.do'])
  })
})

describe('a check_spec that applies to revert', () => {
  it('behavior: target identity before, outcome after, nothing slowing: passes', () => {
    expect(revertSpecBreaks('check_spec', spec({}), MAP)).toEqual([])
  })

  it('error: a slowing threshold', () => {
    const breaks = revertSpecBreaks(
      'check_spec',
      spec({ pass_when: 'the version held for {{canary-bake-min}}', thresholds: ['canary-bake-min'] }),
      MAP,
    )
    expect(breaks.map((b) => b.field)).toContain('check_spec.thresholds')
  })

  it('error: an approval in pass_when', () => {
    const breaks = revertSpecBreaks(
      'check_spec',
      spec({ pass_when: 'a second approver signed the change' }),
      MAP,
    )
    expect(breaks.map((b) => b.field)).toEqual(['check_spec.pass_when'])
  })

  it('error: an input that is neither the target nor the outcome', () => {
    const breaks = revertSpecBreaks(
      'check_spec',
      spec({ inputs: [{ name: 'replay_result', read_with: 'a replay of new records in staging' }] }),
      MAP,
    )
    expect(breaks.map((b) => b.field)).toEqual(['check_spec.inputs.0.name'])
  })

  it('behavior: a spec that does not apply to revert is not read by this rule', () => {
    expect(
      revertSpecBreaks(
        'check_spec',
        spec({ applies_to: ['deploy'], inputs: [{ name: 'x', read_with: 'y' }] }),
        MAP,
      ),
    ).toEqual([])
  })

  it('error: the build refuses a gate for revert that waits a slowing threshold', async () => {
    const dir = await copyOfContent()
    const thresholds = parse(await readFile(join(dir, 'thresholds.yaml'), 'utf8')) as Threshold[]
    const slow = thresholds.find((t) => slowingThreshold(t)) as Threshold
    const names = (await readdir(join(dir, 'gates'))).sort()
    const file = join(dir, 'gates', names[0] as string)
    const gate = parse(await readFile(file, 'utf8'))
    gate.check_spec.applies_to = ['revert']
    gate.check_spec.inputs = [{ name: 'target_version', read_with: 'the release record' }]
    gate.check_spec.pass_when = `the known-good version ran for {{${slow.name}}}`
    gate.check_spec.thresholds = [...gate.check_spec.thresholds, slow.name].filter(
      (n, i, all) => all.indexOf(n) === i,
    )
    await writeFile(file, stringify(gate))
    const report = await buildFailure(dir)
    const section = report.slice(report.indexOf(`gates/${names[0]}`)).split('\n\n')[0]
    expect(section).toContain(`a check that applies to revert uses {{${slow.name}}}`)
  })
})

describe('the content', () => {
  it('behavior: the text rule is an error as soon as no sentence of the content slows a revert', async () => {
    const thresholds = parse(await readFile('content/thresholds.yaml', 'utf8')) as Threshold[]
    const map = new Map(thresholds.map((t) => [t.name, t]))
    let offending = 0
    for (const [folder, kind] of [
      ['rules', 'rule'],
      ['gates', 'gate'],
      ['playbooks', 'playbook'],
    ] as const)
      for (const name of await readdir(join('content', folder))) {
        const item = parse(await readFile(join('content', folder, name), 'utf8'))
        offending += revertTextBreaks(kind, item, map).length
      }
    // While sentences still slow a revert the rule only warns; once none does, it must be an error.
    if (offending === 0) expect(REVERT_TEXT_RULE).toBe('error')
    else expect(REVERT_TEXT_RULE).toBe('warn')
  })

  it('behavior: every check_spec in the content that applies to revert passes the structured rule', async () => {
    const thresholds = parse(await readFile('content/thresholds.yaml', 'utf8')) as Threshold[]
    const map = new Map(thresholds.map((t) => [t.name, t]))
    let seen = 0
    for (const folder of ['rules', 'gates'])
      for (const name of await readdir(join('content', folder))) {
        const item = parse(await readFile(join('content', folder, name), 'utf8'))
        const s = (item.check_spec ?? item.constraint?.check_spec) as CheckSpec
        if (!s.applies_to.includes('revert')) continue
        seen++
        expect(revertSpecBreaks('check_spec', s, map), name).toEqual([])
      }
    expect(seen).toBeGreaterThan(0)
  })
})

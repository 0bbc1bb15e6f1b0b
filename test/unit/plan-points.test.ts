/**
 * Issue 43, the literal answer: what a plan must say that no item can know (the windows to stay out
 * of, the owner to ask, the order of the units, the signal that shows it worked) comes as plan
 * points, read from content/plan-points.yaml. A point comes only when its condition holds for the
 * situation as answered (production and emergency, unanswered, are the routine change); an
 * emergency never gets a point that waits for a window; a change that says a deadline gets the
 * fallback whatever `emergency` says.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { todayUtc } from '../../build/pricing/pricing-freshness.js'
import { collect } from '../../build/stages/collect.js'
import { compileDatasets } from '../../build/stages/datasets.js'
import { validate } from '../../build/stages/validate.js'
import { PREPARE } from '../../gateway/datasets/answers.js'
import { planPoints } from '../../gateway/datasets/plan-points.js'
import { type PlanPoint, PlanPoints, planPointBreaks } from '../../schema/plan-points.js'
import { Facts, type Situation } from '../../schema/situation.js'

const points = PlanPoints.parse(parse(await readFile('content/plan-points.yaml', 'utf8')))
const facts = Facts.parse(parse(await readFile('content/facts.yaml', 'utf8')))
const ids = (situation: Situation, change?: string) =>
  planPoints(points, situation, facts, change).map((p) => p.id)

/** Points whose every alternative needs the answered value `value` of `fact`. */
const needing = (fact: string, value: unknown) =>
  points.filter((p) => p.applies_when?.every((alt) => alt[fact] === value)).map((p) => p.id)
const always = points.filter((p) => !p.applies_when && !p.applies_to && !p.change_words).map((p) => p.id)

describe('plan points', () => {
  it('behavior: the content file reads as written: every condition names a fact, no id twice', () => {
    expect(planPointBreaks(points, facts)).toEqual([])
    const twice = [...points, points[0] as PlanPoint]
    expect(planPointBreaks(twice, facts).map((b) => b.message)).toEqual([`id ${points[0]?.id} is used twice`])
    const unknown: PlanPoint = { id: 'x', point: 'y', applies_when: [{ no_such_fact: true }] }
    expect(planPointBreaks([unknown], facts)[0]?.message).toContain('"no_such_fact" is not a fact')
  })

  it('behavior: an emergency gets no point that waits for a window, and the fallback point; a routine change the reverse', () => {
    const routineOnly = needing('emergency', false)
    const emergencyOnly = needing('emergency', true)
    expect(routineOnly.length).toBeGreaterThan(0)
    expect(emergencyOnly.length).toBeGreaterThan(0)
    const emergency = ids({ action: 'dependency-upgrade', facts: { emergency: true, targets: 3 } })
    for (const id of routineOnly) expect(emergency, id).not.toContain(id)
    for (const id of emergencyOnly) expect(emergency, id).toContain(id)
    // Unanswered, emergency is the routine change's no.
    const routine = ids({ action: 'dependency-upgrade', facts: { targets: 3 } })
    // Those that need nothing but a routine change come for it.
    const onlyRoutine = (p: PlanPoint) =>
      !p.applies_to && p.applies_when?.every((alt) => Object.keys(alt).every((k) => k === 'emergency'))
    for (const id of routineOnly.filter((id) => onlyRoutine(points.find((p) => p.id === id) as PlanPoint)))
      expect(routine, id).toContain(id)
    for (const id of emergencyOnly) expect(routine, id).not.toContain(id)
    // A revert is the fastest safe fix: told as routine, it still gets nothing that waits.
    const revert = ids({ action: 'revert', facts: { emergency: false, targets: 3 } })
    for (const id of routineOnly) expect(revert, id).not.toContain(id)
  })

  it('behavior: a planned deletion asks its owner first; an emergency that frees a full disk does not wait to ask', () => {
    const deleting = { removes_objects: true, targets: 6 }
    expect(ids({ action: 'config-push', facts: { ...deleting, emergency: false } })).toContain(
      'owner-asked-before-deleting',
    )
    expect(ids({ action: 'config-push', facts: { ...deleting, emergency: true } })).not.toContain(
      'owner-asked-before-deleting',
    )
    expect(ids({ action: 'bulk-delete', facts: { emergency: true } })).not.toContain(
      'owner-asked-before-deleting',
    )
  })

  it('behavior: a config rewrite names what it keeps; a stateful system is read before the first step, in an emergency too', () => {
    const rewrite = 'upgrade the log shipper and convert its config to YAML'
    expect(ids({ action: 'config-push', facts: {} }, rewrite)).toContain('what-a-rewrite-keeps')
    expect(ids({ action: 'config-push', facts: {} }, 'raise the buffer limit')).not.toContain(
      'what-a-rewrite-keeps',
    )
    for (const emergency of [true, false])
      expect(ids({ action: 'config-push', facts: { stateful: true, emergency } })).toContain(
        'starting-state-read-first',
      )
    expect(ids({ action: 'config-push', facts: { stateful: false } })).not.toContain(
      'starting-state-read-first',
    )
    expect(ids({ action: 'config-push', facts: { stateful: true, production: false } })).not.toContain(
      'starting-state-read-first',
    )
  })

  it('behavior: not_when keeps a point out whatever brought it: no writes to carry over for a revert, a stateless move or a copy outside production', () => {
    const move = 'migrate the orders data to the new cluster'
    const writes = 'writes-during-the-move'
    expect(ids({ action: 'data-restore', facts: { stateful: true } }, move)).toContain(writes)
    for (const situation of [
      { action: 'revert', facts: { stateful: true } },
      { action: 'data-restore', facts: { stateful: false } },
      { action: 'data-restore', facts: { stateful: true, production: false } },
    ] as Situation[])
      expect(ids(situation, move), JSON.stringify(situation)).not.toContain(writes)
    // A laptop or a CI runner has no peak hours of its own.
    expect(ids({ action: 'deploy', facts: { stateful: true } })).toContain('windows-it-must-stay-out-of')
    expect(ids({ action: 'deploy', facts: { stateful: true, production: false } })).not.toContain(
      'windows-it-must-stay-out-of',
    )
    // Nor a small change that holds no state, can be undone and is no one else's platform.
    const small = { stateful: false, one_way_changes: false, shared_platform: false }
    expect(ids({ action: 'config-push', facts: small })).not.toContain('windows-it-must-stay-out-of')
    // A staging environment others test on has their runs to stay out of; a revert waits for none.
    const rehearsal = 'rehearse the 13 to 16 upgrade on staging'
    expect(ids({ action: 'dependency-upgrade', facts: { production: false } }, rehearsal)).toContain(
      'windows-it-must-stay-out-of',
    )
    expect(ids({ action: 'revert', facts: { production: false } }, 'revert staging')).not.toContain(
      'windows-it-must-stay-out-of',
    )
    // A release rolled over a stateless service's replicas is ordered by its orchestrator; a
    // stateful one, or an upgrade with no deploy, still orders its units by hand.
    const order = 'units-in-order-state-holder-last'
    const upgrade = { emergency: false, targets: 12 }
    const release: Situation = {
      actions: ['deploy', 'dependency-upgrade'],
      facts: { ...upgrade, stateful: false },
    }
    expect(ids(release)).not.toContain(order)
    expect(ids({ ...release, facts: { ...upgrade, stateful: true } })).toContain(order)
    expect(ids({ action: 'dependency-upgrade', facts: { ...upgrade, stateful: false } })).toContain(order)
    // A certificate put on a pair or more (the standby first, the node holding the address last).
    expect(ids({ action: 'certificate', facts: { emergency: false, targets: 2 } })).toContain(order)
    expect(ids({ action: 'certificate', facts: { emergency: false, targets: 1 } })).not.toContain(order)
    const unknown: PlanPoint = { id: 'x', point: 'y', not_when: [{ no_such_fact: true }] }
    expect(planPointBreaks([unknown], facts)[0]?.message).toContain('"no_such_fact" is not a fact')
  })

  it('behavior: the points with no condition come for every situation, emergencies included', () => {
    expect(always.length).toBeGreaterThan(0)
    const situations: Situation[] = [
      { action: 'revert', facts: { emergency: true } },
      { action: 'deploy', facts: { production: false } },
      { facts: { stateful: true } },
    ]
    for (const situation of situations) for (const id of always) expect(ids(situation), id).toContain(id)
  })

  it('behavior: a point for some actions needs one of them named, and an unanswered fact it needs keeps it out', () => {
    const forSome = points.filter((p) => p.applies_to && !p.applies_when?.some((a) => 'targets' in a))
    expect(forSome.length).toBeGreaterThan(0)
    for (const p of forSome) {
      const [action] = p.applies_to as [string]
      const other = ['deploy', 'revert', 'dns'].find((a) => !p.applies_to?.includes(a as never)) as string
      // Every other condition answered so that it holds: only the action decides.
      const held = { emergency: false, stateful: true, one_way_changes: true, shared_platform: true }
      expect(ids({ action, facts: held }), p.id).toContain(p.id)
      expect(ids({ action: other, facts: held }), p.id).not.toContain(p.id)
      expect(ids({ facts: held }), p.id).not.toContain(p.id)
    }
    const bySize = points.find((p) => p.applies_when?.some((a) => 'targets' in a)) as PlanPoint
    const [action] = bySize.applies_to as [string]
    expect(ids({ action, facts: { emergency: false } })).not.toContain(bySize.id)
    expect(ids({ action, facts: { emergency: false, targets: 5 } })).toContain(bySize.id)
  })

  it('behavior: a change that says a deadline brings the fallback point although emergency=false was sent', () => {
    const worded = points.filter((p) => p.change_words)
    expect(worded.length).toBeGreaterThan(0)
    for (const p of worded) {
      const situation = { action: 'certificate', facts: { emergency: false } }
      expect(ids(situation, 'renew the certificate'), p.id).not.toContain(p.id)
      for (const w of p.change_words ?? [])
        expect(ids(situation, `renew the certificate, ${w}`), `${p.id}: ${w}`).toContain(p.id)
    }
  })
})

describe('plan points in a sold answer', () => {
  it('behavior: a situated answer carries its points in JSON and first in its Markdown body, on both routes', async () => {
    const content = validate(await collect('content', []), undefined, [])
    const data = compileDatasets(content, todayUtc())
    const filters = { action: 'dependency-upgrade', emergency: 'false', targets: '4', stateful: 'true' }
    const expected = ids({
      action: 'dependency-upgrade',
      facts: { emergency: false, targets: 4, stateful: true },
    })
    expect(expected.length).toBeGreaterThan(2)
    for (const route of ['checklist', 'lessons'] as const) {
      const prepared = PREPARE[route]?.(data, { ...filters, format: 'agents-md' }, 0)
      if (!prepared?.ok) throw new Error(`${route} refused`)
      const payload = prepared.payload() as { plan_points?: { id: string }[] }
      expect(
        payload.plan_points?.map((p) => p.id),
        route,
      ).toEqual(expected)
      const md = prepared.markdown?.() ?? ''
      const section = md.indexOf(`## Your plan must also say (${expected.length})`)
      expect(section, route).toBeGreaterThan(0)
      for (const id of expected) expect(md.indexOf(`(\`${id}\`)`), `${route}: ${id}`).toBeGreaterThan(section)
    }
  })
})

/**
 * Issue 34, item 1: a situated answer holds every rule that applies, the foundational ones marked
 * free, names the playbook that fits, works out thresholds relative to an answered fact beside the
 * rule as written, and sells gates and rules together in one file (include=rules), within the
 * routine-deploy and revert counts. Measured through the gateway's own preparation on the real content.
 */
import { describe, expect, it } from 'vitest'
import { todayUtc } from '../../build/pricing/pricing-freshness.js'
import { collect } from '../../build/stages/collect.js'
import { compileDatasets } from '../../build/stages/datasets.js'
import type { BuildIssue } from '../../build/stages/issues.js'
import { validate } from '../../build/stages/validate.js'
import { PREPARE } from '../../gateway/datasets/answers.js'
import type { Filters } from '../../gateway/datasets/query.js'
import type { PublishedGate, PublishedRule } from '../../schema/datasets.js'
import type { AppliesBecause } from '../../schema/situation.js'
import type { WorkedThreshold } from '../../schema/worked-thresholds.js'

const issues: BuildIssue[] = []
const content = validate(await collect('content', issues), undefined, issues)
const data = compileDatasets(content, todayUtc())

interface Answer {
  checklist?: PublishedGate[]
  rules?: PublishedRule[]
  also_consider?: { kind: string; id: string }[]
  applies_because?: Record<string, AppliesBecause>
  playbooks?: { id: string }[]
  worked_out?: Record<string, WorkedThreshold[]>
}

function answer(route: 'lessons' | 'checklist', filters: Filters) {
  const prepared = PREPARE[route]?.(data, filters, Date.now())
  if (!prepared?.ok) throw new Error(`${route} refused ${JSON.stringify(filters)}`)
  return { filters: prepared.filters, payload: prepared.payload() as Answer, markdown: prepared.markdown }
}

const ROUTINE = {
  action: 'deploy',
  emergency: 'false',
  targets: '3',
  stateful: 'false',
  one_way_changes: 'false',
}
/**
 * Every item of a kind the answer holds: in full, or as a one-line "also consider" entry below the
 * limit (issue 43: a situated answer holds at most 7 items in full; nothing that applies is dropped).
 */
const everyId = (a: Answer, kind: 'gate' | 'rule') => [
  ...((kind === 'gate' ? a.checklist : a.rules) ?? []).map((i) => i.id),
  ...(a.also_consider ?? []).filter((l) => l.kind === kind).map((l) => l.id),
]

const foundational = content.rules.filter((r) => r.kind === 'foundational').map((r) => r.id)

describe('the whole answer for the change at hand', () => {
  it('behavior: a situated rules answer holds the foundational rules that apply, marked free, beside the paid ones', () => {
    expect(issues).toEqual([])
    const { payload } = answer('lessons', ROUTINE)
    const ids = payload.rules?.map((r) => r.id) ?? []
    expect(ids).toContain('stage-every-production-change')
    for (const r of payload.rules ?? []) expect(r.access).toBe(foundational.includes(r.id) ? 'free' : 'paid')
    // Paid rules beside them, in full or as also-consider lines (what an unanswered yes keeps).
    const paidIds = content.rules.filter((r) => r.kind === 'paid').map((r) => r.id)
    expect(everyId(payload, 'rule').some((id) => paidIds.includes(id))).toBe(true)
    // Without a situation the paid route still sells only the paid rules.
    const whole = PREPARE.lessons?.(data, {}, Date.now())
    const all = whole?.ok ? ((whole.payload() as Answer).rules ?? []) : []
    expect(all.length).toBeGreaterThan(0)
    expect(all.every((r) => r.access === 'paid')).toBe(true)
  })

  it('behavior: a routine deploy gets at most 6 gates and 6 rules with the foundational counted; an emergency revert at most 3 gates', () => {
    const deploy = answer('checklist', { ...ROUTINE, include: 'rules' }).payload
    expect(deploy.checklist?.length).toBeLessThanOrEqual(6)
    expect(deploy.rules?.length).toBeLessThanOrEqual(6)
    expect(deploy.rules?.some((r) => r.access === 'free')).toBe(true)
    const revert = answer('checklist', {
      action: 'revert',
      emergency: 'true',
      one_way_changes: 'false',
      format: 'agents-md',
    })
    expect(revert.payload.checklist?.length).toBeLessThanOrEqual(3)
    const text = revert.markdown?.() ?? ''
    expect(text).toMatch(/Revert now/)
    // Never waits: no gate of a revert says to hold, defer or not go ahead.
    expect(text).not.toMatch(/do not go ahead|go ahead only once|do not widen/)
  })

  it('behavior: the playbook that fits is named (a revert gets production-change-went-bad), and none is named where none fits', () => {
    const revert = answer('lessons', { action: 'revert', emergency: 'true', one_way_changes: 'false' })
    expect(revert.payload.playbooks?.map((p) => p.id)).toContain('production-change-went-bad')
    expect(revert.markdown).toBeUndefined()
    const md = PREPARE.lessons?.(
      data,
      { action: 'revert', emergency: 'true', format: 'agents-md' },
      Date.now(),
    )
    expect(md?.ok && md.markdown?.()).toMatch(
      /Playbook that fits this situation: `production-change-went-bad`/,
    )
    expect(answer('lessons', ROUTINE).payload.playbooks).toEqual([])
  })

  it('behavior: include=rules puts the gates and the rules of one situation in one answer, bound into the payment', () => {
    const both = answer('checklist', { ...ROUTINE, include: 'rules' })
    const gatesOnly = answer('checklist', ROUTINE)
    const rulesOnly = answer('lessons', ROUTINE)
    expect(both.filters.include).toBe('rules')
    expect(gatesOnly.filters.include).toBeUndefined()
    // Gates and rules share one limit: each is in full or among the "also consider" lines.
    expect(new Set(everyId(both.payload, 'gate'))).toEqual(new Set(everyId(gatesOnly.payload, 'gate')))
    expect(new Set(everyId(both.payload, 'rule'))).toEqual(new Set(everyId(rulesOnly.payload, 'rule')))
    for (const item of [...(both.payload.checklist ?? []), ...(both.payload.rules ?? [])])
      expect(both.payload.applies_because?.[item.id], item.id).toBeDefined()
    const md = PREPARE.checklist?.(data, { ...ROUTINE, include: 'rules', format: 'agents-md' }, Date.now())
    const text = md?.ok ? (md.markdown?.() ?? '') : ''
    expect(text).toMatch(/^# Pre-ship gates and rules for deploy$/m)
    expect(text).toMatch(/^## Rules that apply \(\d+\)$/m)
    expect(text).toContain('(foundational, free)')
  })

  it('error: an unknown include is a 400 naming it and what is allowed', () => {
    const prepared = PREPARE.checklist?.(data, { ...ROUTINE, include: 'playbooks' }, Date.now())
    expect(prepared?.ok).toBe(false)
    if (prepared?.ok !== false) return
    expect(prepared.problem.status).toBe(400)
    expect(prepared.problem.extra?.parameter).toBe('include')
    expect(prepared.problem.extra?.allowed).toEqual(['rules'])
  })

  it('behavior: a share of the targets is worked out for the answered count, from thresholds.yaml, beside the rule as written', () => {
    const share = content.thresholds.find((t) => t.name === 'first-stage-share-max')
    if (!share?.relative_to) throw new Error('first-stage-share-max is not relative to a fact')
    for (const targets of [12, 250, 1000]) {
      const { payload, markdown } = answer('lessons', {
        ...ROUTINE,
        targets: String(targets),
        format: 'agents-md',
      })
      const worked = payload.worked_out?.['stage-every-production-change']?.find((w) => w.name === share.name)
      // A cap rounds down, never below one target.
      const expected = Math.max(1, Math.floor((share.value / 100) * targets))
      expect(worked?.count, `targets=${targets}`).toBe(expected)
      expect(worked?.answered).toBe(targets)
      const label = share.relative_to?.label ? `${share.relative_to.label}: ` : ''
      expect(markdown?.()).toContain(
        `Worked out for this situation: ${label}at most ${expected} of ${targets} targets`,
      )
    }
    // A count of stages above the targets answered reads as one stage per target.
    const stages = content.thresholds.find((t) => t.unit === 'stages')
    if (!stages) throw new Error('no threshold counts stages')
    const few = stages.value - 1
    const small = answer('lessons', { ...ROUTINE, targets: String(few), format: 'agents-md' }).markdown?.()
    expect(small).toContain(`${stages.name} = ${stages.value} stages (${few} targets: one stage each)`)
    const large = answer('lessons', {
      ...ROUTINE,
      targets: String(stages.value),
      format: 'agents-md',
    }).markdown?.()
    expect(large).toMatch(new RegExp(`${stages.name} = ${stages.value} stages[;.]`))
    expect(large).not.toContain('one stage each')
    // Unanswered targets: nothing to work out, the rule as written stands alone.
    const { payload } = answer('lessons', { action: 'deploy', emergency: 'false' })
    expect(payload.worked_out?.['stage-every-production-change']).toBeUndefined()
  })

  it('behavior: several actions get the union, each item naming the actions that brought it', () => {
    const union = answer('checklist', {
      action: 'schema-change,dependency-upgrade',
      stateful: 'true',
    }).payload
    const one = (action: string) => everyId(answer('checklist', { action, stateful: 'true' }).payload, 'gate')
    const expected = new Set([...one('dependency-upgrade'), ...one('schema-change')])
    // In full or as an "also consider" line: each gate once, however many actions brought it.
    const held = everyId(union, 'gate')
    expect(new Set(held)).toEqual(expected)
    expect(held.length).toBe(expected.size)
    for (const g of union.checklist ?? []) {
      const why = union.applies_because?.[g.id]
      expect(why?.actions?.length, g.id).toBeGreaterThan(0)
      for (const a of why?.actions ?? []) expect(one(a), `${g.id} via ${a}`).toContain(g.id)
    }
  })
})

/**
 * Situation checks: facts.yaml defines the fixed fact names with their types, every applies_when
 * names only defined facts in possible conditions, and every scenario in content/scenarios/ gets
 * the answer it demands from the router (schema/situation.ts, the same evaluation the service runs).
 */
import type { Gate, Rule } from '../../schema/content.js'
import type { Scenario } from '../../schema/scenario.js'
import {
  appliesBecause,
  appliesWhenBreaks,
  type Fact,
  FIXED_FACTS,
  readSituation,
} from '../../schema/situation.js'
import type { BuildIssue } from '../stages/issues.js'

export const FACTS_FILE = 'facts.yaml'

type Break = Omit<BuildIssue, 'file'>

/** The fixed names are defined with their types, and no fact is defined twice. */
export function factListBreaks(facts: readonly Fact[]): Break[] {
  const out: Break[] = []
  for (const [name, type] of Object.entries(FIXED_FACTS)) {
    const fact = facts.find((f) => f.fact === name)
    if (!fact || fact.type !== type)
      out.push({
        field: name,
        problem: `the fixed fact ${name} is ${fact ? `a ${fact.type}` : 'missing'}`,
        allowed: `a ${type} fact named ${name}`,
      })
  }
  if (facts.find((f) => f.fact === 'targets' && f.type === 'integer' && f.min < 1))
    out.push({ field: 'targets.min', problem: 'a change touches at least one target', allowed: 'min: 1' })
  const seen = new Set<string>()
  for (const f of facts) {
    if (seen.has(f.fact) || f.fact === 'action')
      out.push({
        field: f.fact,
        problem: `"${f.fact}" is defined twice or shadows the action`,
        allowed: 'a unique name other than action',
      })
    seen.add(f.fact)
  }
  return out
}

/** A check_spec's applies_when against the vocabulary: undefined facts and impossible conditions. */
export function appliesWhenIssues(
  field: string,
  spec: { applies_to: string[]; applies_when?: Rule['constraint']['check_spec']['applies_when'] },
  facts: readonly Fact[],
): Break[] {
  if (!spec.applies_when) return []
  return appliesWhenBreaks(spec.applies_when, spec.applies_to, facts).map((b) => ({
    field: `${field ? `${field}.` : ''}applies_when.${b.path.join('.')}`,
    problem: b.message,
    allowed: 'a fact from facts.yaml with a value of its type that can hold',
  }))
}

/** What the router answers for a scenario: the ids of the gates and rules that apply. */
export function routeScenario(
  scenario: Scenario,
  gates: readonly Gate[],
  rules: readonly Rule[],
  facts: readonly Fact[],
) {
  const read = readSituation([['action', [scenario.action].flat()], ...Object.entries(scenario.facts)], facts)
  if ('parameter' in read) return read
  const { situation } = read
  return {
    gates: gates.filter((g) => appliesBecause(g.check_spec, situation, facts)).map((g) => g.id),
    rules: rules.filter((r) => appliesBecause(r.constraint.check_spec, situation, facts)).map((r) => r.id),
  }
}

/** Every miss of one scenario: a wrong fact, a required item left out, a forbidden one kept, a count over. */
export function scenarioBreaks(
  scenario: Scenario,
  gates: readonly Gate[],
  rules: readonly Rule[],
  facts: readonly Fact[],
): Break[] {
  const answer = routeScenario(scenario, gates, rules, facts)
  if ('parameter' in answer)
    return [
      { field: `facts.${answer.parameter}`, problem: answer.detail, allowed: JSON.stringify(answer.allowed) },
    ]
  const out: Break[] = []
  const known = { gates: new Set(gates.map((g) => g.id)), rules: new Set(rules.map((r) => r.id)) }
  for (const kind of ['gates', 'rules'] as const) {
    for (const id of [...scenario.must_apply[kind], ...scenario.must_not_apply[kind]])
      if (!known[kind].has(id))
        out.push({ field: kind, problem: `no ${kind.slice(0, -1)} "${id}"`, allowed: `an id from ${kind}/` })
    for (const id of scenario.must_apply[kind])
      if (known[kind].has(id) && !answer[kind].includes(id))
        out.push({
          field: `must_apply.${kind}`,
          problem: `${id} does not apply`,
          allowed: `an answer holding ${id}`,
        })
    for (const id of scenario.must_not_apply[kind])
      if (answer[kind].includes(id))
        out.push({
          field: `must_not_apply.${kind}`,
          problem: `${id} applies`,
          allowed: `an answer without ${id}`,
        })
    const max = scenario.max?.[kind]
    if (max !== undefined && answer[kind].length > max)
      out.push({
        field: `max.${kind}`,
        problem: `${answer[kind].length} ${kind} apply (${answer[kind].join(', ')})`,
        allowed: `at most ${max}`,
      })
  }
  if (scenario.replays) {
    const rule = scenario.replays
    const enforcing = gates.filter((g) => g.rules.includes(rule)).map((g) => g.id)
    if (!known.rules.has(rule))
      out.push({ field: 'replays', problem: `no rule "${rule}"`, allowed: 'an id from rules/' })
    else if (!answer.rules.includes(rule) && !enforcing.some((g) => answer.gates.includes(g)))
      out.push({
        field: 'replays',
        problem: `the situation of ${rule}'s incident selects neither the rule nor a gate enforcing it`,
        allowed: `an answer holding ${[rule, ...enforcing].join(' or ')}`,
      })
  }
  return out
}

/** Every rule is replayed by a scenario, so no lesson is unreachable from the situation it was learned in. */
export function unreplayedRules(scenarios: readonly Scenario[], rules: readonly Rule[]): string[] {
  const replayed = new Set(scenarios.map((s) => s.replays))
  return rules.map((r) => r.id).filter((id) => !replayed.has(id))
}

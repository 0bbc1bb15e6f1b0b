/**
 * The scenarios (content/scenarios/) judged on the answer a buyer gets, not only on the router: once
 * a situated answer holds at most `limit` items in full, every gate and rule a scenario demands must
 * still be in it, in full or as an "also consider" line, and never twice. (The router's own check,
 * situation-checks.ts, judges the whole set that applies; this one judges the ranked cut of it.)
 */
import { PREPARE } from '../../gateway/datasets/answers.js'
import type { BundleData } from '../../schema/datasets.js'
import type { Scenario } from '../../schema/scenario.js'
import type { BuildIssue } from '../stages/issues.js'

interface Line {
  kind: string
  id: string
}

/** The answer for a scenario: gates and rules in one (include=rules), or the rules alone when no gate applies. */
function answerFor(data: BundleData, scenario: Scenario): Line[] | undefined {
  const situation = {
    action: [scenario.action].flat().join(','),
    ...Object.fromEntries(Object.entries(scenario.facts).map(([k, v]) => [k, String(v)])),
  }
  const both = PREPARE.checklist?.(data, { ...situation, include: 'rules' }, 0)
  const prepared = both?.ok ? both : PREPARE.lessons?.(data, situation, 0)
  if (!prepared?.ok) return undefined
  const answer = prepared.payload() as { ranked?: Line[]; also_consider?: Line[] }
  return [...(answer.ranked ?? []), ...(answer.also_consider ?? [])]
}

export function rankedScenarioIssues(data: BundleData, scenarios: readonly Scenario[]): BuildIssue[] {
  return scenarios.flatMap((scenario) => {
    const file = `scenarios/${scenario.id}.yaml`
    // Nothing sold (a 404) holds nothing: a scenario that demands items must get an answer.
    const lines = answerFor(data, scenario) ?? []
    const held = new Set(lines.map((l) => `${l.kind}:${l.id}`))
    const missing = [
      ...scenario.must_apply.gates.map((id) => ['gate', id] as const),
      ...scenario.must_apply.rules.map((id) => ['rule', id] as const),
    ].filter(([kind, id]) => !held.has(`${kind}:${id}`))
    return [
      ...missing.map(([kind, id]) => ({
        file,
        field: `must_apply.${kind}s`,
        problem: `${id} is neither in the ranked answer nor among its also-consider lines`,
        allowed: `an answer holding ${id}`,
      })),
      ...(held.size < lines.length
        ? [
            {
              file,
              field: '-',
              problem: 'an item is listed twice in the ranked answer',
              allowed: 'each item once',
            },
          ]
        : []),
    ]
  })
}

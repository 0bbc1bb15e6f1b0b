/**
 * The plan points a situated answer lists (schema/plan-points.ts): what the plan must say that no
 * item can know. A point comes when its condition holds outright for the situation as answered,
 * with `production` taken as yes and `emergency` as no when unanswered (the routine change, as
 * do-no-harm.ts reads them); any other unanswered fact keeps it out, so a point never rests on a
 * guess. A point with `change_words` also comes when the agent's change says one of them (a
 * certificate expiring today brings the fallback point whatever `emergency` says); with no
 * `applies_when`, only those words bring it (a copy or a move, said in the change). A point's
 * `not_when` keeps it out whatever brought it.
 */
import { type PlanPoint, type PublishedPlanPoint, pointActions } from '../../schema/plan-points.js'
import { appliesBecause, type Fact, type Situation, situationActions } from '../../schema/situation.js'
import { ACTIONS } from '../../schema/vocabulary.js'
import { stem, wordsOf } from './change-match.js'

/** Unanswered, these facts are read as the routine production change. */
const ROUTINE: Record<string, boolean> = { production: true, emergency: false }

export function planPoints(
  points: readonly PlanPoint[],
  situation: Situation,
  facts: readonly Fact[],
  change?: string,
): PublishedPlanPoint[] {
  const known = new Set(facts.map((f) => f.fact))
  const routine: Situation = {
    ...situation,
    facts: {
      ...Object.fromEntries(Object.entries(ROUTINE).filter(([fact]) => known.has(fact))),
      ...situation.facts,
    },
  }
  const said = change ? wordsOf(change) : new Map<string, string>()
  const named = situationActions(situation)
  // A condition holds outright for the situation as answered (or the routine reading of an
  // unanswered `production` or `emergency`), never on a guess.
  const outright = (applies_to: readonly string[], applies_when: PlanPoint['applies_when']) => {
    const why = appliesBecause({ applies_to, applies_when }, routine, facts)
    return why !== undefined && !why.unanswered?.length
  }
  const holds = (p: PlanPoint) => {
    // A point for some actions needs one of them named: a situation of facts alone is not an upgrade.
    if (p.applies_to && !named.some((a) => p.applies_to?.includes(a as never))) return false
    // A point told only by words comes only when the change says one of them.
    if (!p.applies_when && p.change_words) return false
    return outright(pointActions(p), p.applies_when)
  }
  const saysIt = (p: PlanPoint) => (p.change_words ?? []).some((w) => said.has(stem(w)))
  const keptOut = (p: PlanPoint) => p.not_when !== undefined && outright(ACTIONS, p.not_when)
  return points.filter((p) => (holds(p) || saysIt(p)) && !keptOut(p)).map(({ id, point }) => ({ id, point }))
}

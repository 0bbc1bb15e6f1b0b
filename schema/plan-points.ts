/**
 * Plan points (content/plan-points.yaml): what a plan must say that no gate, rule or trap can know,
 * because it lives in the agent's own situation (the windows to stay out of, the owner to ask, the
 * clients of a new version, the order of the units, the signal that shows it worked). A situated
 * answer lists the points whose condition holds; each is one line an agent writes into its plan.
 */
import * as z from 'zod'
import { AppliesWhen, appliesWhenBreaks, type Fact } from './situation.js'
import { ACTIONS, Action } from './vocabulary.js'

/** The longest point: one line an agent obeys, not a paragraph. */
export const PLAN_POINT_MAX_CHARS = 320

export const PlanPoint = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase words joined by hyphens'),
  /** The actions it is for; absent: every action. */
  applies_to: z.array(Action).min(1).optional(),
  /** Alternatives over the situation facts; absent: always. */
  applies_when: AppliesWhen.optional(),
  /**
   * Alternatives over the facts that keep it out, whatever brought it (its words included): a copy
   * outside production or of what keeps no state has no writes to carry over.
   */
  not_when: AppliesWhen.optional(),
  /** Words that, in the agent's `change`, bring it whatever the facts say; alone, only they bring it. */
  change_words: z
    .array(z.string().regex(/^[a-z0-9]+$/))
    .min(1)
    .optional(),
  point: z.string().trim().min(1).max(PLAN_POINT_MAX_CHARS),
})
export type PlanPoint = z.infer<typeof PlanPoint>

export const PlanPoints = z.array(PlanPoint).min(1)

/** A point as an answer carries it. */
export const PublishedPlanPoint = PlanPoint.pick({ id: true, point: true })
export type PublishedPlanPoint = z.infer<typeof PublishedPlanPoint>

/** The actions a point is for, every action when it names none. */
export const pointActions = (p: { applies_to?: readonly string[] }): readonly string[] =>
  p.applies_to ?? ACTIONS

/** Every reason the points cannot be used as written: a repeated id, a condition on no fact. */
export function planPointBreaks(
  points: readonly PlanPoint[],
  facts: readonly Fact[],
): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = []
  const seen = new Set<string>()
  points.forEach((p, i) => {
    if (seen.has(p.id)) out.push({ path: [i, 'id'], message: `id ${p.id} is used twice` })
    seen.add(p.id)
    for (const b of p.applies_when ? appliesWhenBreaks(p.applies_when, pointActions(p), facts) : [])
      out.push({ path: [i, 'applies_when', ...b.path], message: b.message })
    for (const b of p.not_when ? appliesWhenBreaks(p.not_when, ACTIONS, facts) : [])
      out.push({ path: [i, 'not_when', ...b.path], message: b.message })
  })
  return out
}

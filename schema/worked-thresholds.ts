/**
 * Thresholds worked out for the situation: a threshold that is a share of an answered fact
 * ("at most 1% of the targets", content/thresholds.yaml `relative_to`) becomes a count the agent can
 * use as it is ("at most 1 of 12 targets"), beside the rule as written. The numbers come only from
 * thresholds.yaml and the answered facts, never typed twice.
 */
import * as z from 'zod'
import type { ThresholdUse } from './content.js'

export const WorkedThreshold = z.object({
  name: z.string(),
  /** The threshold as written: a share (value, unit `%`) of the fact. */
  value: z.number(),
  unit: z.string(),
  fact: z.string(),
  /** The fact as the agent answered it. */
  answered: z.number(),
  bound: z.enum(['at-most', 'at-least']),
  /** The count it comes to: at-most rounds down but never below one, at-least rounds up. */
  count: z.number().int(),
  /** The same in words, e.g. "wave 1: at most 1 of 12 targets". */
  text: z.string(),
})
export type WorkedThreshold = z.infer<typeof WorkedThreshold>

/** An item's thresholds worked out for the answered facts; empty when none is relative to one. */
export function workedThresholds(
  thresholds: readonly ThresholdUse[],
  answered: Readonly<Record<string, unknown>>,
): WorkedThreshold[] {
  return thresholds.flatMap((t) => {
    const rel = t.relative_to
    const n = rel ? answered[rel.fact] : undefined
    if (!rel || typeof n !== 'number') return []
    const share = (t.value / 100) * n
    // Rounded toward safety: a cap never allows more than its share, and never less than one unit.
    const count =
      rel.bound === 'at-most' ? Math.max(1, Math.floor(share + 1e-9)) : Math.max(1, Math.ceil(share - 1e-9))
    const words = rel.bound === 'at-most' ? 'at most' : 'at least'
    return [
      {
        name: t.name,
        value: t.value,
        unit: t.unit,
        fact: rel.fact,
        answered: n,
        bound: rel.bound,
        count,
        text: `${rel.label ? `${rel.label}: ` : ''}${words} ${count} of ${n} ${rel.fact}`,
      },
    ]
  })
}

/** Worked thresholds by item id, leaving out items with none. */
export function workedOut(
  items: readonly { id: string; thresholds: readonly ThresholdUse[] }[],
  answered: Readonly<Record<string, unknown>>,
): Record<string, WorkedThreshold[]> {
  return Object.fromEntries(
    items.flatMap((i) => {
      const worked = workedThresholds(i.thresholds, answered)
      return worked.length ? [[i.id, worked]] : []
    }),
  )
}

/**
 * What each gate and rule guards against and whether it slows a change (content/harm.yaml): the
 * answer's fast path reads it (gateway/datasets/do-no-harm.ts). One entry per gate and rule; the
 * build refuses a missing or unknown id.
 */
import * as z from 'zod'
import { PREMISE_IDS } from './premises.js'
import { SEVERITIES, TECHNOLOGY_KINDS } from './traps.js'

export const HarmEntry = z.strictObject({
  /** The worst harm the item prevents: irreversible, outage or degraded. */
  harm: z.enum(SEVERITIES),
  /** The item stages the change, waits, or asks someone for approval. */
  slows: z.boolean(),
  /**
   * The item stages the change by units (a first wave, a canary share, a wait between stages): it does
   * not fit a change that is one switch for every client (a trap's `one_switch`).
   */
  stages: z.literal(true).optional(),
  /** The kinds of technology its inputs exist for; absent: any. */
  fits: z.array(z.enum(TECHNOLOGY_KINDS)).optional(),
  /**
   * Kinds that, among the technologies named, say the change is of a form its inputs do not exist for
   * whatever else is named (a CI change names the cluster its runners use); absent: none.
   */
  unless_kinds: z.array(z.enum(TECHNOLOGY_KINDS)).min(1).optional(),
  /**
   * A premise that, named in the agent's `change`, says the change takes a form the item's inputs do
   * not exist for (a deletion by retention or lifecycle age names no objects to resolve); absent: none.
   */
  unless_premise: z.enum(PREMISE_IDS).optional(),
  /** Words that, in the agent's `change`, say the change already does what the item asks; absent: none. */
  done_by: z
    .array(z.string().regex(/^[a-z0-9]+$/))
    .min(1)
    .optional(),
  /**
   * Items that check the same for the change they meet, more closely: when one of them is in the
   * answer this one is left out (one disuse check for an old credential, not two).
   */
  covered_by: z.array(z.string()).min(1).optional(),
  /** The circumstance it is written for; a change that names none of its words leaves it out. */
  premise: z.enum(PREMISE_IDS).optional(),
})
export type HarmEntry = z.infer<typeof HarmEntry>

export const HarmFile = z.strictObject({
  gates: z.record(z.string(), HarmEntry),
  rules: z.record(z.string(), HarmEntry),
})
export type HarmFile = z.infer<typeof HarmFile>

/** The bundle: the same map, by kind. */
export const HarmBundle = HarmFile
export type HarmBundle = HarmFile

/** Every id of `ids` without an entry, and every entry naming no such id: the build's check. */
export function harmBreaks(map: Record<string, unknown>, ids: readonly string[], kind: string): string[] {
  const known = new Set(ids)
  return [
    ...ids
      .filter((id) => !(id in map))
      .map((id) => `${kind} ${id} has no entry: say its harm and whether it slows`),
    ...Object.keys(map)
      .filter((id) => !known.has(id))
      .map((id) => `${kind} ${id} is not in content/${kind}s/`),
  ]
}

/** Every `covered_by` naming no gate or rule: the build's check. */
export function coveredByBreaks(harm: HarmFile, ids: readonly string[]): string[] {
  const known = new Set(ids)
  return [...Object.entries(harm.gates), ...Object.entries(harm.rules)].flatMap(([id, e]) =>
    (e.covered_by ?? [])
      .filter((c) => !known.has(c))
      .map((c) => `${id} is covered_by ${c}, which is no gate or rule`),
  )
}

/**
 * What a situated answer holds once the shared evaluation has chosen its items: the do-no-harm rule
 * applied (gateway/datasets/do-no-harm.ts) with content/harm.yaml, for tests that derive the
 * expected items from the content rather than typing them.
 */
import { readFile } from 'node:fs/promises'
import { parse } from 'yaml'
import { doNoHarm } from '../../gateway/datasets/do-no-harm.js'
import type { PublishedGate, PublishedRule } from '../../schema/datasets.js'
import type { HarmBundle } from '../../schema/harm.js'
import { type AppliesBecause, appliesBecause, type Fact, type Situation } from '../../schema/situation.js'

export const harmMap = async (): Promise<HarmBundle> => parse(await readFile('content/harm.yaml', 'utf8'))

interface Checked {
  id: string
  in_an_emergency?: string
}

/** The ids of `items` the answer holds for `situation`: applying, then kept by the do-no-harm rule. */
export async function heldIds<T extends Checked>(
  items: readonly T[],
  specOf: (item: T) => Parameters<typeof appliesBecause>[0],
  kind: 'gates' | 'rules',
  situation: Situation,
  facts: readonly Fact[],
): Promise<string[]> {
  const because: Record<string, AppliesBecause> = {}
  const applying = items.filter((i) => {
    const why = appliesBecause(specOf(i), situation, facts)
    if (why) because[i.id] = why
    return why !== undefined
  })
  const kept = doNoHarm(await harmMap(), situation.facts, undefined, () => undefined, {
    gates: kind === 'gates' ? (applying as unknown as PublishedGate[]) : [],
    rules: kind === 'rules' ? (applying as unknown as PublishedRule[]) : [],
    traps: [],
    because,
  })
  return (kind === 'gates' ? kept.gates : kept.rules).map((i) => i.id)
}

/** Every id of a kind an answer holds: in full, or as an "also consider" line. */
export function answerIds(
  body: {
    checklist?: { id: string }[]
    rules?: { id: string }[]
    also_consider?: { kind: string; id: string }[]
  },
  kind: 'gate' | 'rule',
): string[] {
  return [
    ...((kind === 'gate' ? body.checklist : body.rules) ?? []).map((i) => i.id),
    ...(body.also_consider ?? []).filter((l) => l.kind === kind).map((l) => l.id),
  ]
}

/**
 * What `technologies` and `limit` add to a situated answer (the checklist and the rules): the
 * traps of the technologies named, the answer cut to the most severe items with the rest as one-line
 * "also consider", and what the payment binds (the names canonical and sorted, the limit when not
 * the default). Read before any challenge: a bad value is a 400 naming its parameter.
 */
import type { BundleData, PublishedGate, PublishedRule } from '../../schema/datasets.js'
import { FAST_PATH_LIMIT, routeByName } from '../../schema/routes.js'
import type { AppliesBecause } from '../../schema/situation.js'
import type { ResolvedTechnology } from '../../schema/technologies.js'
import { badRequest, type Problem } from '../http/problem.js'
import { readChange } from './change-match.js'
import { doNoHarm, fastPath, type OpenQuestion } from './do-no-harm.js'
import { type Ranked, rank, readLimit } from './ranking.js'
import { rechecks } from './rechecks.js'
import {
  readAskedTechnologies,
  type SelectedTrap,
  selectTraps,
  type TechnologiesEcho,
} from './trap-selection.js'

export interface Extras {
  /** The names asked, resolved; absent when the call named none. */
  technologies?: { resolved: ResolvedTechnology[]; normalised: string }
  limit: number
  /** Whether the call named a limit other than the default (only then is it bound). */
  limitGiven: boolean
  /** The change in the agent's words, normalised; only with technologies (it ranks their traps). */
  change?: string
}

/** Reads `technologies`, `change` and `limit` from a call's filters; a bad value is a 400 naming it. */
export function readExtras(
  data: BundleData,
  technologies: string | undefined,
  limit: string | undefined,
  change?: string,
): Extras | { problem: Problem } {
  const l = readLimit(limit)
  if ('detail' in l) return { problem: badRequest(l.detail, { parameter: 'limit' }) }
  const c = readChange(change)
  if ('detail' in c) return { problem: badRequest(c.detail, { parameter: 'change' }) }
  if (technologies === undefined) {
    if (c.change !== undefined)
      return {
        problem: badRequest('change ranks the traps of the technologies named: send technologies with it', {
          parameter: 'change',
        }),
      }
    return { limit: l.limit, limitGiven: l.given }
  }
  const read = readAskedTechnologies(technologies, data.traps)
  if ('parameter' in read)
    return {
      problem: technologiesProblem(read.detail),
    }
  return { technologies: read, limit: l.limit, limitGiven: l.given, ...c }
}

/** A `technologies` value that cannot be read: a 400 naming it, its pattern and what it takes. */
export const technologiesProblem = (detail: string): Problem =>
  badRequest(detail, {
    parameter: 'technologies',
    pattern: routeByName('checklist').params.find((p) => p.name === 'technologies')?.pattern,
    allowed: 'names from /v1/catalogue technologies (id or alias), each with an optional @version',
  })

/** The filters the extras add to the payment binding. */
export const extrasFilters = (e: Extras): Record<string, string> => ({
  ...(e.technologies ? { technologies: e.technologies.normalised } : {}),
  ...(e.change !== undefined ? { change: e.change } : {}),
  ...(e.limitGiven ? { limit: String(e.limit) } : {}),
})

export interface RankedAnswer extends Ranked {
  /** The items in full it was cut to: the call's limit, or the default for its path. */
  limit: number
  /** Questions whose answers would bring items left out (do-no-harm.ts). */
  questions: OpenQuestion[]
  /** Items left out for the fast path or for not fitting the technologies named, one line each. */
  left_out: string[]
  traps: SelectedTrap[]
  gates: PublishedGate[]
  rules: PublishedRule[]
  because: Record<string, AppliesBecause>
  echo?: TechnologiesEcho
  uncovered: string[]
}

/** The traps for the actions asked, then every item ranked and cut at the limit. */
export function rankedAnswer(
  data: BundleData,
  extras: Extras,
  actions: readonly string[],
  facts: Record<string, unknown>,
  items: {
    gates: readonly PublishedGate[]
    rules: readonly PublishedRule[]
    because: Record<string, AppliesBecause>
  },
): RankedAnswer {
  const t = extras.technologies
  const selection = t ? selectTraps(data.traps, t.resolved, t.normalised, actions, extras.change) : undefined
  const kindOf = (id: string) => data.traps.technologies.find((x) => x.technology === id)?.kind
  const harmless = doNoHarm(
    data.harm,
    facts,
    // Whether an item fits is decided by what the change alters, not by names given for context.
    selection?.acted_on,
    kindOf,
    { ...items, traps: selection?.traps ?? [] },
    extras.change,
  )
  const traps = harmless.traps
  // A fast path keeps fewer items by default: an emergency reads what to do, not a long list.
  const limit = !extras.limitGiven && fastPath(facts) ? Math.min(extras.limit, FAST_PATH_LIMIT) : extras.limit
  const ranked = rank(
    { traps, gates: harmless.gates, rules: harmless.rules, because: items.because },
    limit,
    data.harm,
    facts.emergency === true,
  )
  const because = Object.fromEntries(
    Object.entries(items.because).filter(([id]) => ranked.kept.gates.has(id) || ranked.kept.rules.has(id)),
  )
  return {
    ...ranked,
    limit,
    questions: harmless.questions,
    left_out: harmless.left_out,
    traps: traps.filter((x) => ranked.kept.traps.has(x.id)),
    // In the content's order, as always; `ranked` gives the order of importance.
    gates: items.gates.filter((g) => ranked.kept.gates.has(g.id)),
    rules: items.rules.filter((r) => ranked.kept.rules.has(r.id)),
    because,
    // A fact the change's own words contradict is said beside the names (the query cannot be right).
    ...(selection
      ? { echo: { ...selection.echo, notes: [...rechecks(facts, extras.change), ...selection.echo.notes] } }
      : {}),
    uncovered: selection?.uncovered ?? [],
  }
}

/** A trap as the answer publishes it: its line in `ranked` carries what brought it. */
const publishedTrap = ({
  brought_by: _,
  asked_as: __,
  one_line_because: ___,
  matched,
  ...trap
}: SelectedTrap) => {
  // Its score per operation of the change ranks it (ranking.ts); the score and words say why.
  const { parts: ____, verbsOnly: _____, ...why } = matched ?? {}
  return matched ? { ...trap, matched: why } : trap
}

/** The JSON fields a ranked answer adds beside the route's own. */
export const rankedFields = (r: RankedAnswer) => ({
  ...(r.echo ? { technologies: r.echo, traps: r.traps.map(publishedTrap) } : {}),
  limit: r.limit,
  ranked: r.ranked,
  also_consider: r.also_consider,
  ...(r.questions.length ? { questions: r.questions } : {}),
  ...(r.left_out.length ? { left_out: r.left_out } : {}),
})

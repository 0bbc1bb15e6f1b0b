/**
 * An answer never slows a fast path and never asks for what cannot exist (#43 item 1). Applied to a
 * situated answer's items before they are ranked:
 * - outside production (`production=false`, a CI or build change included): only items that guard
 *   irreversible harm and never stage, wait or ask for approval, and the traps the change's own
 *   words tell (its mechanics: they never slow it);
 * - in an emergency (`emergency=true`): nothing that stages, waits or asks for approval, unless
 *   the item has an emergency path of its own (`in_an_emergency`, which never waits);
 * - an item that an unanswered fact keeps only as if its answer were yes (`kubernetes`,
 *   `per_user_cache`: the item needs the yes) comes only when it guards irreversible harm; the
 *   others become questions: answering them would bring those items. Unanswered, every other fact
 *   is taken as the routine production change every item is written for (`production` yes,
 *   `emergency` and `partly_rolled_out` no): the fast path needs its answer said;
 * - an item whose inputs exist only for other kinds of technology than every named one on file
 *   never comes, nor one whose inputs do not exist for the form the `change` names (a
 *   retention or lifecycle rule deletes by age: there are no IDs to resolve), nor one written for a
 *   circumstance (its premise: a webhook, a platform upgrade) that the `change` does not name, nor
 *   one the `change` says it already does (`done_by`: a canary pipeline stages the change);
 * - when the trap the change's words meet best is one switch for every client (`one_switch`: a
 *   singleton, a queue-wide setting), no item that stages by units (`stages`) comes.
 * What each item guards against, whether it slows and what it fits come from content/harm.yaml.
 */
import type { PublishedGate, PublishedRule } from '../../schema/datasets.js'
import type { HarmBundle, HarmEntry } from '../../schema/harm.js'
import type { AppliesBecause } from '../../schema/situation.js'
import type { ResolvedTechnology } from '../../schema/technologies.js'
import { premisesNamedIn, stem, wordsOf } from './change-match.js'
import { changeDirection } from './direction.js'
import type { SelectedTrap } from './trap-selection.js'

/** A question whose answer would add items the answer left out, and how many. */
export interface OpenQuestion {
  fact: string
  question: string
  adds: number
}

export interface Harmless {
  gates: PublishedGate[]
  rules: PublishedRule[]
  traps: SelectedTrap[]
  questions: OpenQuestion[]
  /** One line per item left out for not fitting the named technologies or the fast path. */
  left_out: string[]
}

/** The fast path this situation is on, if any. */
export function fastPath(facts: Record<string, unknown>): 'outside-production' | 'emergency' | undefined {
  if (facts.production === false) return 'outside-production'
  if (facts.emergency === true) return 'emergency'
  return undefined
}

/** Facts whose yes is the routine case itself: unanswered, never a question. */
const TAKEN_AS_ROUTINE = new Set(['production'])

/** What a capacity change that raises or adds can be: anything but a removal. */
const NOT_A_REMOVAL = ['add', 'replace']

export function doNoHarm(
  harm: HarmBundle,
  facts: Record<string, unknown>,
  technologies: readonly ResolvedTechnology[] | undefined,
  kindOf: (id: string) => string | undefined,
  items: {
    gates: readonly PublishedGate[]
    rules: readonly PublishedRule[]
    traps: readonly SelectedTrap[]
    because: Record<string, AppliesBecause>
  },
  /** The change in the agent's words, when sent. */
  change?: string,
): Harmless {
  const path = fastPath(facts)
  const left_out: string[] = []
  const open = new Map<string, OpenQuestion>()
  // The named technologies on file, and their kinds. A name not on file is most often a library or
  // a tool beside them (erlang, pnpm): the kinds of those on file decide; none on file keeps all.
  const onFile = technologies?.filter((t) => t.id) ?? []
  const named = onFile.length ? onFile : undefined
  const kinds = new Set(named?.map((t) => kindOf(t.id as string)))
  const said = change ? wordsOf(change) : new Map<string, string>()
  // The change's words, read once above, also say which premises it names.
  const namesPremise = premisesNamedIn(change === undefined ? undefined : said)
  const raising = changeDirection(change) === 'raising'
  // The trap the change's words meet best, when it is one switch for every client (a singleton, a
  // queue-wide setting): no item stages it by units (a second compactor is the harm itself).
  const oneSwitch = leadingOneSwitch(items.traps)

  const keep = (
    id: string,
    entry: HarmEntry | undefined,
    why: AppliesBecause | undefined,
    hasEmergencyPath: boolean,
  ) => {
    const e = entry ?? { harm: 'outage' as const, slows: false }
    if (e.fits && named && !e.fits.some((k) => kinds.has(k))) {
      left_out.push(`${id}: its inputs do not exist for ${named.map((t) => t.name).join(', ')}`)
      return false
    }
    // A kind that says the change's form (a CI change names the cluster its runners use) leaves it out.
    const form = named?.find((t) => e.unless_kinds?.some((k) => k === kindOf(t.id as string)))
    if (form) {
      left_out.push(`${id}: its inputs do not exist for a ${kindOf(form.id as string)} change (${form.name})`)
      return false
    }
    if (e.unless_premise && change !== undefined && namesPremise(e.unless_premise)) {
      left_out.push(`${id}: its inputs do not exist for a change of this form (${e.unless_premise})`)
      return false
    }
    const done = e.done_by?.map(stem).find((s) => said.has(s))
    if (done) {
      left_out.push(`${id}: your change says it already does this (${said.get(done)})`)
      return false
    }
    if (!namesPremise(e.premise)) {
      left_out.push(`${id}: it is written for a ${e.premise} change, and your change names none`)
      return false
    }
    if (oneSwitch && e.stages) {
      left_out.push(
        `${id}: your change is one switch for every client (${oneSwitch}): it cannot be staged by replicas, hosts or a share of traffic; that trap's safe path says what stands in for a canary`,
      )
      return false
    }
    if (path === 'outside-production' && (e.harm !== 'irreversible' || e.slows)) {
      left_out.push(`${id}: outside production only what guards against harm that cannot be undone comes`)
      return false
    }
    if (path === 'emergency' && e.slows && !hasEmergencyPath) {
      left_out.push(`${id}: it stages, waits or asks for approval, and an emergency does not wait`)
      return false
    }
    // An unanswered fact the change's own words settle: a change that raises or adds ("increase the
    // retention", "more memory") removes no capacity, so an item kept only for a removal goes.
    const settled = (why?.unanswered ?? []).find(
      (u) =>
        u.fact === 'capacity_direction' &&
        raising &&
        Array.isArray(u.drops_if) &&
        NOT_A_REMOVAL.every((v) => (u.drops_if as string[]).includes(v)),
    )
    if (settled) {
      left_out.push(`${id}: it is for removing capacity, and your change says it raises or adds`)
      return false
    }
    // Unanswered, `production` is taken as yes: an item that needs it to be no (a sandbox's own
    // checks) would ask for inputs a production target does not have, so it waits for the answer.
    const sandboxOnly = (why?.unanswered ?? []).find((u) => u.fact === 'production' && u.drops_if === true)
    if (sandboxOnly) {
      const q = open.get(sandboxOnly.fact) ?? {
        fact: sandboxOnly.fact,
        question: sandboxOnly.question,
        adds: 0,
      }
      q.adds++
      open.set(sandboxOnly.fact, q)
      return false
    }
    // An item guarding only against a degraded service also waits when no single answer decides it
    // (several open alternatives, each needing another fact's yes: a shared platform, a removal).
    const unanswered = (why?.unanswered ?? []).filter(
      (u) =>
        (u.drops_if === false || (u.drops_if === undefined && e.harm === 'degraded')) &&
        !TAKEN_AS_ROUTINE.has(u.fact),
    )
    if (unanswered.length && e.harm !== 'irreversible') {
      for (const u of unanswered) {
        const q = open.get(u.fact) ?? { fact: u.fact, question: u.question, adds: 0 }
        q.adds++
        open.set(u.fact, q)
      }
      return false
    }
    return true
  }
  const keptGates = items.gates.filter((g) =>
    keep(g.id, harm.gates[g.id], items.because[g.id], g.in_an_emergency !== undefined),
  )
  const keptRules = items.rules.filter((r) =>
    keep(r.id, harm.rules[r.id], items.because[r.id], r.in_an_emergency !== undefined),
  )
  // One check for one thing: an item that another kept item covers more closely is left out.
  const present = new Set([...keptGates, ...keptRules].map((i) => i.id))
  const uncovered = (id: string, e: HarmEntry | undefined) => {
    const by = e?.covered_by?.find((c) => present.has(c))
    if (by) left_out.push(`${id}: ${by} checks the same for this change`)
    return by === undefined
  }
  const gates = keptGates.filter((g) => uncovered(g.id, harm.gates[g.id]))
  const rules = keptRules.filter((r) => uncovered(r.id, harm.rules[r.id]))
  // A trap of a named technology is its own evidence, and it never stages, waits or asks: outside
  // production the irreversible ones come, and those the change's own words tell (a CI change's
  // own mechanics, an artifact action refusing a second upload, break the very thing it changes).
  const traps = items.traps.filter(
    (t) => path !== 'outside-production' || t.severity === 'irreversible' || (t.matched?.score ?? 0) > 0,
  )
  return { gates, rules, traps, questions: [...open.values()], left_out }
}

/** The id of the trap the change's words meet best, when it is one switch for every client. */
function leadingOneSwitch(traps: readonly SelectedTrap[]): string | undefined {
  const scored = traps.filter((t) => (t.matched?.score ?? 0) > 0 && !t.one_line_because)
  const best = scored.reduce<SelectedTrap | undefined>(
    (top, t) => (top && (top.matched?.score ?? 0) >= (t.matched?.score ?? 0) ? top : t),
    undefined,
  )
  return best?.one_switch ? best.id : undefined
}

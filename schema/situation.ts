/**
 * The situation an agent is in: the closed vocabulary of facts it can answer (content/facts.yaml),
 * the conditions a check_spec states over them (`applies_when`), and the one evaluation that the
 * build's scenarios, the HTTP routes and the MCP tools all use to decide which checks apply.
 *
 * A fact the agent did not answer never drops a check: the check applies (fail closed) and the
 * answer names the fact, its question and the answer that would drop it.
 */
import * as z from 'zod'
import { ACTIONS, Action } from './vocabulary.js'

const Text = z.string().trim().min(1, 'non-empty text')
const FactName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'a snake_case name, e.g. one_way_changes')
const EnumValue = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase words joined by hyphens')

const factCommon = {
  fact: FactName,
  /** The question the agent answers, in one sentence. */
  question: Text,
  /** What an unanswered question means for the checks that depend on it. */
  when_unknown: Text,
}

/** One fact of the vocabulary: a name, a type, and the question that answers it. */
export const Fact = z.discriminatedUnion('type', [
  z.strictObject({ ...factCommon, type: z.literal('boolean') }),
  z.strictObject({
    ...factCommon,
    type: z.literal('integer'),
    min: z.number().int(),
    max: z.number().int().optional(),
  }),
  z.strictObject({ ...factCommon, type: z.literal('enum'), values: z.array(EnumValue).min(2) }),
])
export type Fact = z.infer<typeof Fact>
export const Facts = z.array(Fact).min(1)

/** The names clients and tests rely on: content/facts.yaml must define each, with this type. */
export const FIXED_FACTS = {
  emergency: 'boolean',
  targets: 'integer',
  stateful: 'boolean',
  one_way_changes: 'boolean',
} as const satisfies Record<string, Fact['type']>

/** An integer range; either bound may be absent. */
const IntRange = z.strictObject({
  at_least: z.number().int().optional(),
  at_most: z.number().int().optional(),
})
type IntRange = z.infer<typeof IntRange>

/** What one fact must be for an alternative to hold (its shape is checked against the fact's type). */
const FactCondition = z.union([z.boolean(), z.number().int(), IntRange, EnumValue, z.array(EnumValue).min(1)])
export type FactCondition = z.infer<typeof FactCondition>

/**
 * `applies_when`: a list of alternatives; the check applies when any one holds. Each alternative
 * maps facts (and optionally `action`) to what they must be; every entry of it must hold.
 */
export const Alternative = z.record(z.string(), z.union([FactCondition, Action, z.array(Action).min(1)]))
export type Alternative = z.infer<typeof Alternative>
export const AppliesWhen = z.array(Alternative).min(1)
export type AppliesWhen = z.infer<typeof AppliesWhen>

/**
 * The situation as answered: the action (if given) and each answered fact. A change that is
 * several actions at once (a database engine upgrade is a dependency upgrade of something
 * stateful, with a schema change) names them all in `actions`, sorted; `action` is then unset.
 */
export interface Situation {
  action?: string
  actions?: string[]
  facts: Record<string, boolean | number | string>
}

/** The actions a situation names, sorted; empty when none. */
export const situationActions = (s: Situation): string[] =>
  s.actions ?? (s.action === undefined ? [] : [s.action])

/** A fact the agent left unanswered that kept a check, and the answer that would drop it. */
export const Unanswered = z.object({
  fact: z.string(),
  question: z.string(),
  /** The answers that drop the check on their own; absent when no single answer does. */
  drops_if: z.union([z.boolean(), z.array(z.string()), IntRange]).optional(),
})
export type Unanswered = z.infer<typeof Unanswered>

/** Why a check is in the answer: the action and answered facts that matched, and what is still unknown. */
export const AppliesBecause = z.object({
  /** The action that brought it (the first, when several did); null when no action was named. */
  action: z.string().nullable(),
  /** Present when the call named several actions: every one of them that brought the check. */
  actions: z.array(z.string()).optional(),
  /** The answered facts the holding (or still possible) alternative needed. */
  matched: z.record(z.string(), z.union([z.boolean(), z.number(), z.string()])),
  /** Present only when an unanswered fact kept the check (fail closed). */
  unanswered: z.array(Unanswered).optional(),
})
export type AppliesBecause = z.infer<typeof AppliesBecause>

// ---------------------------------------------------------------------------------------------
// Checking conditions against the vocabulary (the build refuses undefined or impossible ones)

const range = (c: FactCondition): IntRange =>
  typeof c === 'number' ? { at_least: c, at_most: c } : (c as IntRange)

/** Why a condition on `fact` can never be used as written, or undefined when it can. */
function conditionBreak(fact: Fact, c: FactCondition): string | undefined {
  switch (fact.type) {
    case 'boolean':
      return typeof c === 'boolean' ? undefined : `${fact.fact} is a boolean: write true or false`
    case 'enum': {
      const values = typeof c === 'string' ? [c] : Array.isArray(c) ? c : undefined
      if (!values) return `${fact.fact} is one of ${fact.values.join(', ')}: write a value or a list`
      const unknown = values.filter((v) => !fact.values.includes(v))
      return unknown.length
        ? `${fact.fact} has no value ${unknown.join(', ')} (${fact.values.join(', ')})`
        : undefined
    }
    case 'integer': {
      if (typeof c !== 'number' && (typeof c !== 'object' || Array.isArray(c)))
        return `${fact.fact} is an integer: write a number or { at_least, at_most }`
      const r = range(c)
      if (r.at_least === undefined && r.at_most === undefined) return `${fact.fact}: give at_least or at_most`
      const lo = Math.max(r.at_least ?? fact.min, fact.min)
      const hi = Math.min(r.at_most ?? Number.POSITIVE_INFINITY, fact.max ?? Number.POSITIVE_INFINITY)
      return lo > hi
        ? `${fact.fact} can never be ${JSON.stringify(c)} (it is at least ${fact.min})`
        : undefined
    }
  }
}

/** Every reason an applies_when cannot be evaluated as written: undefined facts, impossible conditions. */
export function appliesWhenBreaks(
  when: AppliesWhen,
  appliesTo: readonly string[],
  facts: readonly Fact[],
): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = []
  when.forEach((alt, i) => {
    if (!Object.keys(alt).length) out.push({ path: [i], message: 'an empty alternative: write conditions' })
    for (const [name, c] of Object.entries(alt)) {
      if (name === 'action') {
        const actions = Array.isArray(c) ? c : [c]
        const outside = actions.filter((a) => !appliesTo.includes(a as string))
        if (outside.length)
          out.push({
            path: [i, name],
            message: `action ${outside.join(', ')} is not in applies_to, so never holds`,
          })
        continue
      }
      const fact = facts.find((f) => f.fact === name)
      if (!fact) {
        out.push({
          path: [i, name],
          message: `"${name}" is not a fact in facts.yaml (${facts.map((f) => f.fact).join(', ')})`,
        })
        continue
      }
      const broken = conditionBreak(fact, c as FactCondition)
      if (broken) out.push({ path: [i, name], message: broken })
    }
  })
  return out
}

// ---------------------------------------------------------------------------------------------
// Evaluating a check against a situation

type Verdict = 'holds' | 'fails' | 'unknown'

function holds(fact: Fact, c: FactCondition, value: boolean | number | string): boolean {
  if (fact.type === 'boolean') return value === c
  if (fact.type === 'enum') return (typeof c === 'string' ? [c] : (c as string[])).includes(value as string)
  const r = range(c)
  const n = value as number
  return (r.at_least === undefined || n >= r.at_least) && (r.at_most === undefined || n <= r.at_most)
}

/** The integer answers that make condition `c` fail, as ranges. */
function failingRanges(fact: Fact & { type: 'integer' }, c: FactCondition): IntRange[] {
  const r = range(c)
  const below: IntRange[] =
    r.at_least !== undefined && r.at_least - 1 >= fact.min ? [{ at_most: r.at_least - 1 }] : []
  const above: IntRange[] = r.at_most !== undefined ? [{ at_least: r.at_most + 1 }] : []
  return [...below, ...above]
}

interface AlternativeVerdict {
  verdict: Verdict
  matched: Record<string, boolean | number | string>
  unknown: string[]
}

function judge(alt: Alternative, situation: Situation, facts: readonly Fact[]): AlternativeVerdict {
  const matched: Record<string, boolean | number | string> = {}
  const unknown: string[] = []
  for (const [name, c] of Object.entries(alt)) {
    if (name === 'action') {
      if (situation.action === undefined) unknown.push('action')
      else if (!(Array.isArray(c) ? c : [c]).includes(situation.action as never))
        return { verdict: 'fails', matched, unknown }
      continue
    }
    const fact = facts.find((f) => f.fact === name)
    if (!fact) throw new Error(`applies_when names ${name}, which is not a fact (the build should refuse it)`)
    const value = situation.facts[name]
    if (value === undefined) unknown.push(name)
    else if (holds(fact, c as FactCondition, value)) matched[name] = value
    else return { verdict: 'fails', matched, unknown }
  }
  return { verdict: unknown.length ? 'unknown' : 'holds', matched, unknown }
}

/**
 * Whether a check applies to the situation, and why. Undefined: it does not (its action is another,
 * or every alternative of applies_when is contradicted by an answered fact).
 */
export function appliesBecause(
  spec: { applies_to: readonly string[]; applies_when?: AppliesWhen },
  situation: Situation,
  facts: readonly Fact[],
): AppliesBecause | undefined {
  const actions = situationActions(situation)
  if (actions.length <= 1) return appliesForOne(spec, { action: actions[0], facts: situation.facts }, facts)
  // Several actions: the union. The check is in the answer when any one of them brings it; when
  // one brings it outright, an unanswered fact another one needed keeps nothing open.
  const each = actions.flatMap((action) => {
    const why = appliesForOne(spec, { action, facts: situation.facts }, facts)
    return why ? [why] : []
  })
  if (!each.length) return undefined
  const holding = each.filter((w) => !w.unanswered)
  const brought = holding.length ? holding : each
  const matched = Object.assign({}, ...brought.map((w) => w.matched))
  const names = brought.map((w) => w.action as string)
  const base = { action: names[0] ?? null, actions: names, matched }
  if (holding.length) return base
  const byFact = new Map<string, Unanswered[]>()
  for (const u of brought.flatMap((w) => w.unanswered ?? []))
    byFact.set(u.fact, [...(byFact.get(u.fact) ?? []), u])
  const unanswered = [...byFact.values()].map((us): Unanswered => {
    const [first] = us as [Unanswered, ...Unanswered[]]
    // One answer drops the check only if it drops it for every action that brought it.
    const same =
      us.length === brought.length &&
      us.every((u) => JSON.stringify(u.drops_if) === JSON.stringify(first.drops_if))
    return same ? first : { fact: first.fact, question: first.question }
  })
  return { ...base, unanswered }
}

/** appliesBecause for a situation of one action (or none). */
function appliesForOne(
  spec: { applies_to: readonly string[]; applies_when?: AppliesWhen },
  situation: Situation,
  facts: readonly Fact[],
): AppliesBecause | undefined {
  if (situation.action !== undefined && !spec.applies_to.includes(situation.action)) return undefined
  const action = situation.action ?? null
  if (!spec.applies_when) return { action, matched: {} }
  const verdicts = spec.applies_when.map((alt) => ({ alt, ...judge(alt, situation, facts) }))
  const holding = verdicts.find((v) => v.verdict === 'holds')
  if (holding) return { action, matched: holding.matched }
  const open = verdicts.filter((v) => v.verdict === 'unknown')
  if (!open.length) return undefined
  const names = [...new Set(open.flatMap((v) => v.unknown))]
  const unanswered = names.map((name): Unanswered => {
    if (name === 'action')
      return { fact: 'action', question: 'Which action from the catalogue is the change?' }
    const fact = facts.find((f) => f.fact === name) as Fact
    return {
      fact: name,
      question: fact.question,
      ...dropsIf(
        fact,
        open.map((v) => v.alt),
      ),
    }
  })
  return { action, matched: Object.assign({}, ...open.map((v) => v.matched)), unanswered }
}

/** The answers to `fact` alone that would contradict every still-open alternative, if any. */
function dropsIf(fact: Fact, open: Alternative[]): Pick<Unanswered, 'drops_if'> {
  if (!open.every((alt) => fact.fact in alt)) return {}
  const conditions = open.map((alt) => alt[fact.fact] as FactCondition)
  if (fact.type === 'boolean') {
    const drop = [true, false].filter((b) => conditions.every((c) => !holds(fact, c, b)))
    return drop.length === 1 ? { drops_if: drop[0] } : {}
  }
  if (fact.type === 'enum') {
    const drop = fact.values.filter((v) => conditions.every((c) => !holds(fact, c, v)))
    return drop.length ? { drops_if: drop } : {}
  }
  // Integer: the single failing range shared by every open alternative, when there is one.
  const ranges = conditions.map((c) => failingRanges(fact, c))
  const shared = ranges[0]?.find((r) =>
    ranges.every((rs) => rs.some((o) => o.at_least === r.at_least && o.at_most === r.at_most)),
  )
  return shared ? { drops_if: shared } : {}
}

// ---------------------------------------------------------------------------------------------
// Reading a situation from a query string or tool arguments

/** A fact answer that cannot be read: the fact (or `action`) and what is allowed. */
export interface SituationError {
  parameter: string
  detail: string
  allowed: unknown
}

/** What a fact accepts, said the way a 400 says it. */
export function allowedValues(fact: Fact): unknown {
  if (fact.type === 'boolean') return ['true', 'false']
  if (fact.type === 'enum') return fact.values
  return { type: 'integer', minimum: fact.min, ...(fact.max !== undefined ? { maximum: fact.max } : {}) }
}

/** Reads one answer from its text form (a query string value) or its JSON form (a tool argument). */
export function readFact(fact: Fact, raw: unknown): { value: boolean | number | string } | SituationError {
  const text = typeof raw === 'string' ? raw.trim().toLowerCase() : raw
  const bad = (what: string): SituationError => ({
    parameter: fact.fact,
    detail: `fact "${fact.fact}" must be ${what}; got ${JSON.stringify(raw)}`,
    allowed: allowedValues(fact),
  })
  switch (fact.type) {
    case 'boolean':
      if (text === true || text === 'true') return { value: true }
      if (text === false || text === 'false') return { value: false }
      return bad('true or false')
    case 'enum':
      return typeof text === 'string' && fact.values.includes(text)
        ? { value: text }
        : bad(`one of ${fact.values.join(', ')}`)
    case 'integer': {
      const n =
        typeof text === 'number'
          ? text
          : typeof text === 'string' && /^-?\d{1,9}$/.test(text)
            ? Number(text)
            : NaN
      const within = Number.isInteger(n) && n >= fact.min && (fact.max === undefined || n <= fact.max)
      return within
        ? { value: n }
        : bad(`an integer of at least ${fact.min}${fact.max !== undefined ? ` and at most ${fact.max}` : ''}`)
    }
  }
}

/** The names a situation may carry besides the route's own filters: `action` and every fact. */
export const situationNames = (facts: readonly Fact[]) => ['action', ...facts.map((f) => f.fact)]

/**
 * Reads one or several actions: a name, names joined by commas (`deploy,schema-change`), or a list
 * of names (a tool argument). Sorted and without repeats, so the order asked never matters.
 */
export function readActions(raw: unknown): { actions: string[] } | SituationError {
  const parts = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw]
  const names = parts.map((p) => (typeof p === 'string' ? p.trim().toLowerCase() : p))
  const unknown = names.find((a) => typeof a !== 'string' || !(ACTIONS as readonly string[]).includes(a))
  if (unknown !== undefined || !names.length)
    return {
      parameter: 'action',
      detail: `unknown action ${JSON.stringify(unknown ?? raw)}; name one action, or several joined by commas (/v1/catalogue lists every action with its meaning)`,
      allowed: ACTIONS,
    }
  return { actions: [...new Set(names as string[])].sort() }
}

/**
 * Reads the action and facts from name/value pairs (already known to be situation names or
 * unknown). Unknown names and wrong values are errors naming the parameter and what is allowed.
 */
export function readSituation(
  entries: readonly [string, unknown][],
  facts: readonly Fact[],
): { situation: Situation } | SituationError {
  const situation: Situation = { facts: {} }
  for (const [key, raw] of entries) {
    if (key === 'action') {
      const read = readActions(raw)
      if ('parameter' in read) return read
      if (read.actions.length === 1) situation.action = read.actions[0]
      else situation.actions = read.actions
      continue
    }
    const fact = facts.find((f) => f.fact === key)
    if (!fact)
      return {
        parameter: key,
        detail: `unknown parameter "${key}": neither a filter here nor a fact (/v1/catalogue lists every fact with its question)`,
        allowed: situationNames(facts),
      }
    const read = readFact(fact, raw)
    if ('parameter' in read) return read
    situation.facts[key] = read.value
  }
  return { situation }
}

/** The situation in one canonical order, for the payment binding: one payment, one situation. */
export function normalisedSituation(situation: Situation, facts: readonly Fact[]): Record<string, string> {
  const out: Record<string, string> = {}
  const actions = situationActions(situation)
  if (actions.length) out.action = actions.join(',')
  for (const f of facts) {
    const v = situation.facts[f.fact]
    if (v !== undefined) out[f.fact] = String(v)
  }
  return out
}

/** A fact as a JSON Schema property: a query parameter in openapi.json, a tool argument over MCP. */
export function factJsonSchema(fact: Fact): {
  type: 'boolean' | 'integer' | 'string'
  description: string
  enum?: string[]
  minimum?: number
  maximum?: number
} {
  // The question only: what an unanswered fact means is in the free catalogue.
  const description = fact.question.trim()
  if (fact.type === 'boolean') return { type: 'boolean', description }
  if (fact.type === 'enum') return { type: 'string', enum: [...fact.values], description }
  return {
    type: 'integer',
    minimum: fact.min,
    ...(fact.max !== undefined ? { maximum: fact.max } : {}),
    description,
  }
}

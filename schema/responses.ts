/**
 * The body of every success answer, by route name: one zod schema each. openapi.json and the MCP
 * tools' outputSchema are generated from these, and tests check real answers against them.
 */
import * as z from 'zod'
import { CheckInput, Claim, Correction, Id, Inclusion, ThresholdUse } from './content.js'
import {
  Catalogue,
  CatalogueEntry,
  Comparable,
  Count,
  Freshness,
  PriceGroup,
  PriceSpread,
  PricingBundle,
  PublishedGate,
  PublishedPlaybook,
  PublishedPricingRow,
  PublishedRule,
} from './datasets.js'
import { PricingIndexDescriptor } from './pricing-index.js'
import { OUTCOMES } from './routes.js'
import { AppliesBecause, AppliesWhen } from './situation.js'
import { Contributions } from './submission.js'
import { SEVERITIES } from './traps.js'
import { Action, IsoDate } from './vocabulary.js'
import { WorkedThreshold } from './worked-thresholds.js'

const count = z.number().int().nonnegative()
/** Present when the call named a topic: only items carrying it are listed. */
const topic = z.string().optional()

/** Present when the call named an action or facts: the situation as read, in canonical order. */
const situation = z.record(z.string(), z.union([z.boolean(), z.number(), z.string()])).optional()
/** With a situation: why each listed item applies, by its id (schema/situation.ts). */
const applies_because = z.record(z.string(), AppliesBecause).optional()
/** With a situation: the playbooks that fit it, named (their steps are at /v1/fde-playbooks). */
const PlaybookRef = z.object({
  id: z.string(),
  title: z.string(),
  when: z.string(),
  applies_because: AppliesBecause,
})
const playbooks = z.array(PlaybookRef).optional()
/** With a situation: each item's thresholds that are shares of an answered fact, worked out. */
const worked_out = z.record(z.string(), z.array(WorkedThreshold)).optional()

/** With `technologies`: the names as bound (canonical, sorted), which are covered, and plain notes. */
const TechnologiesEcho = z.object({
  asked: z.string(),
  covered: z.array(z.string()),
  not_covered: z.array(z.string()),
  /** "no traps on file for X", one per name (or change) with none. */
  notes: z.array(z.string()),
})
/**
 * A trap as a situated answer carries it (schema/traps.ts holds the file's rules), with whose it is;
 * its line in `ranked` names the actions and the name as asked that brought it.
 */
const SelectedTrap = z.object({
  id: z.string(),
  technology: z.string(),
  actions: z.array(Action),
  versions: z.string().optional(),
  severity: z.enum(SEVERITIES),
  trap: z.string(),
  probe: z.string(),
  stop_if: z.string(),
  safe_path: z.string(),
  source_url: z.string(),
  quote: z.string(),
  read_on: z.string(),
})
/** One line of a ranked answer (gateway/datasets/ranking.ts). */
const RankedItem = z.object({
  kind: z.enum(['trap', 'gate', 'rule']),
  id: z.string(),
  title: z.string(),
  /** A trap's severity; a blocking gate ranks as irreversible, a deferring one as outage, a rule as degraded. */
  level: z.enum(SEVERITIES),
  actions: z.array(z.string()),
  why: z.string(),
})
const RankedList = z.array(RankedItem)
/** What the plan must say that no item can know (schema/plan-points.ts), one line each. */
const PlanPointList = z.array(z.object({ id: Id, point: z.string() }))
/** What a ranked (situated) answer adds: traps of the technologies named, the limit, the order, the rest. */
const RANKED = {
  technologies: TechnologiesEcho.optional(),
  traps: z.array(SelectedTrap).optional(),
  limit: z.int().optional(),
  /** The items given in full, most severe first (on the free preview: the traps on file, one line each). */
  ranked: RankedList.optional(),
  /** Everything else that applies, one line each. */
  also_consider: RankedList.optional(),
  /** Unanswered facts whose answers would add items, and how many. */
  questions: z.array(z.object({ fact: z.string(), question: z.string(), adds: z.int() })).optional(),
  /** Items left out on the fast path or for not fitting the technologies named. */
  left_out: z.array(z.string()).optional(),
  /** What the plan must say that no item can know: the situation's windows, owners, order, signal. */
  plan_points: PlanPointList.optional(),
}

export const RulesAnswer = z.object({
  topic,
  situation,
  count,
  rules: z.array(PublishedRule),
  applies_because,
  playbooks,
  worked_out,
  ...RANKED,
})
export const PlaybooksAnswer = z.object({ topic, count, playbooks: z.array(PublishedPlaybook) })
export const ChecklistAnswer = z.object({
  /** Present when the call named a phase: its name, and only its gates are listed. */
  phase: z.string().optional(),
  /** Present when the call named an action: only the gates whose check_spec.applies_to lists it. */
  action: z.string().optional(),
  situation,
  count,
  checklist: z.array(PublishedGate),
  /** include=rules: the rules of the same situation, foundational ones marked access free. */
  rules_count: count.optional(),
  rules: z.array(PublishedRule).optional(),
  applies_because,
  playbooks,
  worked_out,
  ...RANKED,
})
/** The whole index, or one category's rows and comparables when the call named one. */
export const PricingAnswer = z.union([
  PricingBundle,
  z.object({
    category: z.string(),
    rows: z.array(PublishedPricingRow),
    comparables: z.array(Comparable),
    latest_correction: z.string().nullable(),
    freshness: Freshness,
  }),
])
export const ChangesAnswer = z.object({ since: z.string(), count, corrections: z.array(Correction) })

const ByOutcome = z.object(
  Object.fromEntries(OUTCOMES.map((o) => [o, count])) as Record<(typeof OUTCOMES)[number], typeof count>,
)
export const StatsAnswer = z.object({
  note: z.string(),
  counting_since: z.string().nullable(),
  totals: z.object({ requests: count, by_outcome: ByOutcome }),
  by_endpoint: z.record(z.string(), z.object({ requests: count, by_outcome: ByOutcome })),
  by_client_class: z.record(z.string(), count),
  /** Technologies asked for (`technologies=`) with no trap on file, most asked first: what to add next. */
  technologies_not_covered: z.record(z.string(), count),
  submissions: z.object({ accepted: count }),
  outcome_meanings: z.object(
    Object.fromEntries(OUTCOMES.map((o) => [o, z.string()])) as Record<
      (typeof OUTCOMES)[number],
      z.ZodString
    >,
  ),
})
export type StatsAnswer = z.infer<typeof StatsAnswer>

export const JwksAnswer = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), crv: z.string(), x: z.string(), kid: z.string() })),
})

export const RESPONSES = {
  catalogue: Catalogue,
  preview: RulesAnswer,
  lessons: RulesAnswer,
  playbooks: PlaybooksAnswer,
  checklist: ChecklistAnswer,
  pricing: PricingAnswer,
  changes: ChangesAnswer,
  index: PricingIndexDescriptor,
  aggregates: Contributions,
  stats: StatsAnswer,
  jwks: JwksAnswer,
} as const satisfies Record<string, z.ZodType>

export type AnswerRoute = keyof typeof RESPONSES

const JSON_SCHEMA_OPTIONS = { io: 'output', unrepresentable: 'any' } as const

/**
 * zod writes every integer with JavaScript's safe-integer bounds, which say nothing a client needs
 * (a count is never near 2^53) and cost openapi.json kilobytes under its 64 KB cap: dropped here.
 * So is `default`: an answer carries every field (all are required), so a default says nothing of
 * it; and `minLength: 1`, which the build already holds every text of content to before it is
 * published; and `additionalProperties: false`, since the version policy counts a new field in an
 * answer as a compatible change, which a closed object would make breaking for a validating client.
 * A `date-time` format's `pattern` is zod's 256-byte spelling of that same format: the format stays.
 * A nullable plain value is written as a type list ({"type":["string","null"]}), the short
 * form JSON Schema 2020-12 gives the same meaning.
 */
function withoutSafeBounds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutSafeBounds)
  if (!schema || typeof schema !== 'object') return schema
  const shortNullable = nullableAsTypeList(schema as Record<string, unknown>)
  if (shortNullable) return withoutSafeBounds(shortNullable)
  const dateTime = (schema as Record<string, unknown>).format === 'date-time'
  return Object.fromEntries(
    Object.entries(schema)
      .filter(
        ([k, v]) =>
          k !== 'default' &&
          !(k === 'pattern' && dateTime) &&
          !(k === 'minLength' && v === 1) &&
          !(k === 'additionalProperties' && v === false) &&
          !(k === 'maximum' && v === Number.MAX_SAFE_INTEGER) &&
          !(k === 'minimum' && v === Number.MIN_SAFE_INTEGER),
      )
      .map(([k, v]) => [k, withoutSafeBounds(v)]),
  )
}

/** {"anyOf":[{"type":"string",…},{"type":"null"}]} as {"type":["string","null"],…}; null when not that shape. */
function nullableAsTypeList(schema: Record<string, unknown>): Record<string, unknown> | null {
  const { anyOf, ...rest } = schema
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return null
  const [value, none] = anyOf as Record<string, unknown>[]
  if (!value || !none || Object.keys(none).length !== 1 || none.type !== 'null') return null
  if (typeof value.type !== 'string' || value.type === 'object' || value.type === 'array' || 'enum' in value)
    return null
  return { ...rest, ...value, type: [value.type, 'null'] }
}

/** A route's success body as one self-contained JSON Schema (2020-12): an MCP tool's outputSchema. */
export function responseJsonSchema(route: AnswerRoute): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(RESPONSES[route], JSON_SCHEMA_OPTIONS)
  return withoutSafeBounds(schema) as Record<string, unknown>
}

/** Names under which shapes used by several answers are written once in openapi.json. */
const SHARED: [z.ZodType, string][] = [
  [PublishedRule, 'Rule'],
  [PublishedPlaybook, 'Playbook'],
  [PublishedGate, 'Gate'],
  // Every gate's and rule's condition: written once, referenced from both.
  [AppliesWhen, 'AppliesWhen'],
  [AppliesBecause, 'AppliesBecause'],
  // The action vocabulary and the catalogue line recur in many shapes: each written once.
  [Action, 'Action'],
  [CatalogueEntry, 'CatalogueEntry'],
  // Both situated answers name playbooks and work out thresholds: each shape written once.
  [PlaybookRef, 'PlaybookRef'],
  [WorkedThreshold, 'WorkedThreshold'],
  [PublishedPricingRow, 'PricingRow'],
  [Comparable, 'Comparable'],
  // Every median and range: written once, referenced from each unit and bundle.
  [PriceSpread, 'PriceSpread'],
  // Entry and unit groups (free and converted) share one shape.
  [PriceGroup, 'PriceGroup'],
  [Inclusion, 'Inclusion'],
  [Count, 'Count'],
  // The descriptor's and /v1/pricing's freshness: one shape, written once.
  [Freshness, 'Freshness'],
  [Correction, 'Correction'],
  [Contributions, 'Contributions'],
  // The ranked answers' shapes, used by the rules, the checklist and the preview.
  [RankedItem, 'RankedItem'],
  [RankedList, 'RankedList'],
  [PlanPointList, 'PlanPoints'],
  // Parts repeated inside the rule, gate and playbook shapes: each written once.
  [Claim, 'Claim'],
  [ThresholdUse, 'ThresholdUse'],
  [CheckInput, 'CheckInput'],
  [Id, 'Id'],
  [IsoDate, 'IsoDate'],
  [ByOutcome, 'ByOutcome'],
  [SelectedTrap, 'Trap'],
  [TechnologiesEcho, 'Technologies'],
]

/**
 * Every answer schema for openapi.json: the shared shapes and one schema per answer, each written
 * once under components/schemas; `ref` names the component of a route's answer.
 */
export function responseComponents(prefix: string): {
  schemas: Record<string, unknown>
  ref: (route: AnswerRoute) => { $ref: string }
} {
  const registry = z.registry<{ id: string }>()
  for (const [schema, id] of SHARED) registry.add(schema, { id })
  const names = new Map<z.ZodType, string>(SHARED)
  for (const [route, schema] of Object.entries(RESPONSES) as [AnswerRoute, z.ZodType][]) {
    const name = names.get(schema) ?? `${route[0]?.toUpperCase()}${route.slice(1)}Answer`
    if (!names.has(schema)) registry.add(schema, { id: name })
    names.set(schema, name)
  }
  const { schemas } = z.toJSONSchema(registry, { ...JSON_SCHEMA_OPTIONS, uri: (id) => `${prefix}${id}` })
  const clean = Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [
      id,
      withoutSafeBounds(schema),
    ]),
  )
  return { schemas: clean, ref: (route) => ({ $ref: `${prefix}${names.get(RESPONSES[route])}` }) }
}

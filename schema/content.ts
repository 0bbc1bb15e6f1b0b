/**
 * Content model: what an editor writes in content/ (one YAML file per rule, playbook, gate and
 * pricing row). The build validates every file against these schemas; the gateway serves the result.
 */
import * as z from 'zod'
import { AppliesWhen } from './situation.js'
import { Action, EvidenceLabel, IndexCategory, IsoDate, PhaseSlug, PricingModel } from './vocabulary.js'

/** An id: lowercase words joined by hyphens (written once in openapi.json as `Id`). */
export const Id = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase words joined by hyphens, e.g. read-back-writes')
const Text = z.string().trim().min(1, 'non-empty text')
const HttpsUrl = z.url({ protocol: /^https$/, error: 'an https:// URL' })

/** The controlled list of topic tags (content/topics.yaml). */
export const Topic = z.strictObject({ tag: Id, means: Text })
export type Topic = z.infer<typeof Topic>
export const Topics = z.array(Topic).min(1)

/** A claim in published text, tagged with the evidence label that says what kind of claim it is. */
export const Claim = z.strictObject({ label: EvidenceLabel, text: Text })
export type Claim = z.infer<typeof Claim>

/** The real, public incident a rule is traced to. */
export const Incident = z.strictObject({
  organisation: Text,
  date: IsoDate,
  title: Text,
  what_happened: Claim,
  cost: Claim,
  postmortem_url: HttpsUrl,
  /** The day we last read the postmortem (or a stored copy of it). */
  read_on: IsoDate,
  /** An archived copy of the postmortem, only one we have seen; absent when none is known. */
  archive_url: HttpsUrl.optional(),
  /** Further public sources (archive copies, regulator filings). */
  other_sources: z.array(HttpsUrl).default([]),
})
export type Incident = z.infer<typeof Incident>

/** One entry of the action vocabulary (content/actions.yaml): the slug and what it covers. */
export const ActionEntry = z.strictObject({ action: Action, means: Text })
export type ActionEntry = z.infer<typeof ActionEntry>
export const Actions = z.array(ActionEntry).min(1)

/**
 * A common change and the action or actions that fit it (content/changes.yaml), with the facts the
 * change itself implies: the free catalogue lists them so an agent can map its change before asking.
 */
export const CommonChange = z.strictObject({
  change: Text,
  actions: z.array(Action).min(1),
  facts: z.record(z.string(), z.union([z.boolean(), z.number().int(), z.string()])).default({}),
  why: Text,
})
export type CommonChange = z.infer<typeof CommonChange>
export const CommonChanges = z.array(CommonChange).min(1)

/** One thing a check reads, and how to read it (a command, query or API call). */
export const CheckInput = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'a snake_case name, e.g. ns_servers'),
  read_with: Text,
})
export type CheckInput = z.infer<typeof CheckInput>

/**
 * The machine-readable side of a check (FORMAT.md, "A check_spec"): which actions it applies to,
 * what it reads, the comparison that passes, the thresholds it uses, and what happens when an
 * input cannot be read. The build also checks `thresholds` against the {{names}} in the text.
 */
const checkSpecFields = {
  applies_to: z.array(Action).min(1, 'at least one action from actions.yaml'),
  /**
   * When, within those actions, the check is needed: alternatives over the situation's facts
   * (schema/situation.ts). Absent: every situation of those actions. The build checks each fact.
   */
  applies_when: AppliesWhen.optional(),
  inputs: z.array(CheckInput).min(1, 'at least one input'),
  pass_when: Text,
  thresholds: z.array(Id),
  /** The only allowed value: an input that cannot be read stops the action. */
  on_unreadable: z.literal('fail-closed'),
  /** A named human role who may approve proceeding anyway; never the agent itself. */
  exception_approver: Text.refine(
    (s) => !/\b(agent|agents|itself|automation|bot)\b/i.test(s),
    'a named human role (e.g. the service owner on call), never the agent or automation',
  ),
}

/** Names listed twice in applies_to, inputs or thresholds. */
function noRepeats(
  spec: { applies_to: string[]; inputs: { name: string }[]; thresholds: string[] },
  ctx: z.RefinementCtx,
) {
  for (const [key, list] of [
    ['applies_to', spec.applies_to],
    ['inputs', spec.inputs.map((i) => i.name)],
    ['thresholds', spec.thresholds],
  ] as const) {
    const seen = new Set<string>()
    list.forEach((v, i) => {
      if (seen.has(v)) ctx.addIssue({ code: 'custom', path: [key, i], message: `"${v}" is listed twice` })
      seen.add(v)
    })
  }
}

export const CheckSpec = z.strictObject(checkSpecFields).superRefine(noRepeats)
export type CheckSpec = z.infer<typeof CheckSpec>

/**
 * A gate's check_spec also says what its failure means, as production-readiness reviews do:
 * `block` (the change does not go ahead) or `defer` (it may go ahead, the risk owned by the
 * exception approver).
 */
export const GateCheckSpec = z
  .strictObject({ ...checkSpecFields, on_fail: z.enum(['block', 'defer']) })
  .superRefine(noRepeats)
export type GateCheckSpec = z.infer<typeof GateCheckSpec>

/** An implementable constraint on agent behaviour: something checked or obeyed mechanically. */
export const Constraint = z.strictObject({
  label: z.literal('RECOMMENDATION'),
  statement: Text,
  check: Text,
  /** The check in structured form, beside its prose (FORMAT.md, "A check_spec"). */
  check_spec: CheckSpec,
})
export type Constraint = z.infer<typeof Constraint>

export const Rule = z.strictObject({
  id: Id,
  title: Text,
  kind: z.enum(['foundational', 'paid']),
  phase: PhaseSlug,
  tags: z.array(Id).min(1),
  rule: Text,
  why: Claim,
  incident: Incident,
  constraint: Constraint,
  /** What the rule asks when the change is an emergency fix; rendered with the statement. */
  in_an_emergency: Text.optional(),
})
export type Rule = z.infer<typeof Rule>

export const PlaybookStep = z.strictObject({ do: Text, done_when: Text })
export const Playbook = z.strictObject({
  id: Id,
  title: Text,
  phase: PhaseSlug,
  tags: z.array(Id).min(1),
  when: Text,
  /** The actions whose situated answers name this playbook, and (optionally) in which situations. */
  applies_to: z.array(Action).min(1, 'at least one action from actions.yaml'),
  applies_when: AppliesWhen.optional(),
  applies_rules: z.array(Id).min(1),
  steps: z.array(PlaybookStep).min(3),
})
export type Playbook = z.infer<typeof Playbook>

/**
 * When a gate is checked: before the change starts, between the stages of a staged change (before
 * it widens), or after the change (its outcome). The Markdown groups gates by it, and the build
 * refuses a gate whose pass condition cannot hold at that time (build/checks/gate-timing.ts).
 */
export const GATE_TIMES = ['before', 'between-stages', 'after'] as const
export const GateTime = z.enum(GATE_TIMES)
export type GateTime = z.infer<typeof GateTime>

/** A pre-ship gate: the failure it prevents and the concrete check that catches it. */
export const Gate = z.strictObject({
  id: Id,
  title: Text,
  phase: PhaseSlug,
  when: GateTime,
  /** What the gate asks when the change is an emergency fix; rendered with the check. */
  in_an_emergency: Text.optional(),
  tags: z.array(Id).min(1),
  prevents: Text,
  check: Text,
  /** The check in structured form, beside its prose (FORMAT.md, "A check_spec"). */
  check_spec: GateCheckSpec,
  rules: z.array(Id).default([]),
  /** The public source behind the gate (the incident `prevents` names, or the documentation). */
  source_url: HttpsUrl.optional(),
  /** The day we last read source_url (or a stored copy of it); required with it (the build checks). */
  read_on: IsoDate.optional(),
})
export type Gate = z.infer<typeof Gate>

/**
 * Why a price is null. Two are findings read on the vendor's pricing page for the product: it
 * shows no price (`not-published`) or sends buyers to a sales call (`sales-gated`). The third says
 * that page has not been read yet (`pricing-page-not-read`): not a finding, and counted apart.
 */
export const NullReason = z.enum(['not-published', 'sales-gated', 'pricing-page-not-read'])

/**
 * One model's input and output list price on a model-API row (FORMAT.md, "Model APIs as buyers
 * compare them"), each written in `quote`, verbatim from `source_url` (the row's own when null).
 * `per_tokens` is the token count the page prices (1,000,000 for "per 1M tokens"); the paid JSON
 * converts it exactly to per 1M tokens.
 */
export const ModelPrice = z.strictObject({
  model: Text,
  /** What the page says of it: the cheapest current model, the one it calls its most capable, or the highest-priced it lists. */
  role: z.enum(['cheapest', 'most-capable', 'highest-priced', 'listed']),
  input_usd: z.number().positive(),
  output_usd: z.number().positive(),
  per_tokens: z
    .number()
    .refine(
      (n) => Number.isInteger(n) && n > 0 && 1_000_000 % n === 0,
      'a whole token count that divides 1,000,000 (1, 1,000 or 1,000,000)',
    )
    .default(1_000_000),
  quote: Text,
  source_url: HttpsUrl.optional(),
})
export type ModelPrice = z.infer<typeof ModelPrice>

/** Whether a per-minute price includes one part of a call, in the vendor's words (`quotes`). */
export const Inclusion = z.enum(['included', 'extra', 'unstated'])

/** The parts of a call a per-minute voice price may or may not include, in the order shown. */
export const MINUTE_PARTS = ['model', 'speech_in', 'speech_out', 'telephony'] as const

/**
 * What one minute of a per-minute voice price includes (FORMAT.md, "Like with like"): the model,
 * speech in (recognition), speech out (synthesis) and telephony, each as the vendor's page says in
 * `quotes`; `unstated` where it does not say.
 */
export const MinuteIncludes = z
  .strictObject({
    model: Inclusion,
    speech_in: Inclusion,
    speech_out: Inclusion,
    telephony: Inclusion,
    /** The vendor's words each part rests on, verbatim; none only when every part is unstated. */
    quotes: z.array(Text).default([]),
  })
  .refine(
    (m) => m.quotes.length > 0 || MINUTE_PARTS.every((p) => m[p] === 'unstated'),
    "a part marked included or extra needs the vendor's words in quotes",
  )
export type MinuteIncludes = z.infer<typeof MinuteIncludes>

/**
 * What an entry price includes and what usage beyond it costs, in our words resting on the page's
 * (`quotes`, verbatim); `beyond` is null where the page does not say. Every amount written in
 * `usage` or `beyond` is in the quotes.
 */
export const EntryIncludes = z.strictObject({
  usage: Text,
  beyond: Text.nullable(),
  quotes: z.array(Text).min(1),
})
export type EntryIncludes = z.infer<typeof EntryIncludes>

/**
 * What an entry price is per (FORMAT.md, "Like with like"): one seat (a user) or the whole account
 * (a plan however many users it admits), billed monthly or the monthly equivalent of annual billing,
 * and the least number of seats a buyer must take where the page states one. Medians group entry
 * prices only with the same `per` and `billing`.
 */
export const EntryBasis = z.strictObject({
  per: z.enum(['seat', 'account']),
  billing: z.enum(['monthly', 'annual']),
  seat_minimum: z.number().int().min(2).nullable().default(null),
  /**
   * Per account only: how many users the plan admits, as the page says in `users_quote`
   * ("unlimited" for no limit); null where the page does not say.
   */
  users: z
    .union([z.number().int().positive(), z.literal('unlimited')])
    .nullable()
    .default(null),
  users_quote: Text.nullable().default(null),
})
export type EntryBasis = z.infer<typeof EntryBasis>

/**
 * Whether a unit price is the price a buyer pays from the first unit (`base`: pay as you go, a first
 * tier, a pack bought outright) or the price of units beyond a plan's included allowance (`overage`:
 * top-ups and refills on top of a plan). Medians never mix the two.
 */
export const UnitBasis = z.enum(['base', 'overage'])
export type UnitBasis = z.infer<typeof UnitBasis>

/**
 * A team or business tier beside the entry price (FORMAT.md, "Tiers a team buys"): its price per
 * seat per month, the seats a buyer must take, how it is billed, verbatim in `quote`.
 */
export const TeamTier = z.strictObject({
  name: Text,
  usd_per_seat_month: z.number().positive(),
  seat_minimum: z.number().int().min(2).nullable().default(null),
  billing: z.enum(['monthly', 'annual']),
  quote: Text,
})
export type TeamTier = z.infer<typeof TeamTier>

/** The price of usage beyond a plan's included allowance, verbatim in `quote`. */
export const OverageRate = z.strictObject({
  usd: z.number().positive(),
  /** What one is counted in: "query", "1K tokens" (never a plan or a period). */
  unit: Text,
  quote: Text,
})
export type OverageRate = z.infer<typeof OverageRate>

/**
 * One stored copy of the vendor's page compared with the others to find the newest (FORMAT.md,
 * "Newest page wins"): the address it is stored under, whether it is the one the row reads, and
 * what on it differs from the other copies (the reason it is, or is not, the newest).
 */
export const StoredCopy = z.strictObject({
  address: HttpsUrl,
  newest: z.boolean(),
  differs: Text,
})
export type StoredCopy = z.infer<typeof StoredCopy>

/** A row's fields before the checks that tie them together; the published (paid) row extends them. */
export const PricingRowFields = z.strictObject({
  id: Id,
  product: Text,
  vendor: Text,
  category: IndexCategory,
  /** Null only when the vendor's page does not say how it charges. */
  pricing_model: PricingModel.nullable(),
  entry_usd_month: z.number().nonnegative().nullable(),
  /** Required with entry_usd_month: per seat or per account, monthly or annual billing, seat minimum. */
  entry_basis: EntryBasis.nullable().default(null),
  unit_price_usd: z.number().nonnegative().nullable(),
  usage_unit: Text.nullable(),
  /** Required with unit_price_usd: a base rate or an overage rate. */
  unit_basis: UnitBasis.nullable().default(null),
  /** Required when both prices are null. */
  null_reason: NullReason.nullable(),
  /** The vendor's own page sends at least one tier to a sales call for its price (FORMAT.md). */
  sales_gated: z.boolean(),
  /** The tier the vendor sends to sales (e.g. "Enterprise"); required exactly when sales_gated. */
  gated_tier: Text.nullable().default(null),
  quote: Text,
  source_url: HttpsUrl,
  /**
   * The vendor's own page for this product's prices (its pricing page, or the docs or help page
   * the vendor names as the place for prices). Required with a null_reason or a sales gate; equal
   * to source_url for `not-published`, `sales-gated` and a gate, unequal for `pricing-page-not-read`
   * (the page still to read). FORMAT.md, "Two nulls"; the build checks it.
   */
  pricing_page_url: HttpsUrl.nullable().default(null),
  read_on: IsoDate,
  /** How the page was read: live from the vendor, or a stored copy of the vendor's page. */
  read_from: z.enum(['vendor-page', 'stored-copy-of-vendor-page']),
  /**
   * The day the stored copy read was captured, where the store gives it (never the day we read the
   * copy). With page_states_date it decides the row's as-of date (FORMAT.md, "As-of date").
   */
  copy_captured_on: IsoDate.nullable().default(null),
  /** Only when the page text itself states a date ("Effective December 5th, 2025"). */
  page_states_date: Text.nullable().default(null),
  /** What told us the page read is the vendor's newest version (a stated date, a "Legacy" mark, ...). */
  newest_because: Text,
  /**
   * Every stored copy of the page compared when more than one was found; empty when one was. The
   * build checks newest_because against it (build/pricing/stored-copies.ts).
   */
  copies_compared: z.array(StoredCopy).default([]),
  note: Text.nullable().default(null),
  /** Model APIs: input and output prices of the models the page lists (at least two, or `models_shortfall`). */
  models: z.array(ModelPrice).default([]),
  /** Why a model-API row lists fewer than two models (the page lists one, or the copy read showed one). */
  models_shortfall: Text.nullable().default(null),
  /** Per-minute voice prices: what the minute includes. */
  minute_includes: MinuteIncludes.nullable().default(null),
  /** Entry prices: what usage the plan includes and what beyond it costs. */
  entry_includes: EntryIncludes.nullable().default(null),
  /** Team or business seat tiers the vendor's page lists, each verbatim. */
  team_tiers: z.array(TeamTier).default([]),
  /** Overage or pay-as-you-go rates beyond a plan, where the page lists them, each verbatim. */
  overage_rates: z.array(OverageRate).default([]),
})

export const PricingRow = PricingRowFields.superRefine((row, ctx) => {
  const priced = row.entry_usd_month !== null || row.unit_price_usd !== null
  if (!priced && row.null_reason === null)
    ctx.addIssue({
      code: 'custom',
      path: ['null_reason'],
      message: 'both prices are null: say why (not-published, sales-gated or pricing-page-not-read)',
    })
  if (priced && row.null_reason !== null)
    ctx.addIssue({
      code: 'custom',
      path: ['null_reason'],
      message: 'a price is published, so null_reason must be null',
    })
  if (row.sales_gated !== (row.gated_tier !== null))
    ctx.addIssue({
      code: 'custom',
      path: ['gated_tier'],
      message: 'name the tier sent to sales exactly when sales_gated is true',
    })
  if (row.null_reason === 'sales-gated' && !row.sales_gated)
    ctx.addIssue({
      code: 'custom',
      path: ['sales_gated'],
      message: 'null_reason sales-gated needs sales_gated: true',
    })
  if ((row.entry_usd_month !== null) !== (row.entry_basis !== null))
    ctx.addIssue({
      code: 'custom',
      path: ['entry_basis'],
      message: 'an entry price says what it is per (entry_basis), and only an entry price does',
    })
  if ((row.unit_price_usd !== null) !== (row.unit_basis !== null))
    ctx.addIssue({
      code: 'custom',
      path: ['unit_basis'],
      message:
        'a unit price says whether it is a base or an overage rate (unit_basis), and only a unit price does',
    })
  if (row.unit_price_usd !== null && row.usage_unit === null)
    ctx.addIssue({
      code: 'custom',
      path: ['usage_unit'],
      message: 'a unit price needs its unit (e.g. resolution, minute, 1M input tokens)',
    })
})
export type PricingRow = z.infer<typeof PricingRow>

/** One dated entry of the corrections log (content/pricing/corrections.yaml). */
export const Correction = z.strictObject({
  date: IsoDate,
  product: Id,
  field: Text,
  from: z.union([z.string(), z.number(), z.null()]),
  to: z.union([z.string(), z.number(), z.null()]),
  why: Text,
})
export type Correction = z.infer<typeof Correction>
export const Corrections = z.array(Correction)

/**
 * A named threshold (content/thresholds.yaml): every number an agent is told to enforce is defined
 * here once and written in rules, playbooks and gates as `{{name}}`; the build renders it.
 */
export const Threshold = z.strictObject({
  name: Id,
  value: z.number(),
  /** Written after the value: `%` and `×` join it directly ("5%"), any other unit after a space. */
  unit: Text,
  /**
   * A `%` share of an integer fact (a share of `targets`): a situated answer works it out for the
   * answered fact. `at-most` rounds down but never below one; `at-least` rounds up.
   */
  relative_to: z
    .strictObject({
      fact: z.string(),
      bound: z.enum(['at-most', 'at-least']),
      /** What the worked-out count is, in a few words ("wave 1", "each removal step"). */
      label: Text.optional(),
    })
    .optional(),
  label: EvidenceLabel,
  /**
   * Why this value, and why it differs from a neighbouring threshold where one exists. For an
   * ANALYSIS (or MODELED) value this is the whole basis: the reasoning, in our words.
   */
  why: Text,
  /**
   * The published reference the value rests on. A RESEARCH value needs all three of source_url,
   * read_on and basis_quote; the build refuses a threshold that has neither a cited source nor an
   * ANALYSIS (or MODELED) label (build/checks/thresholds.ts, checkDefinitions).
   */
  source_url: HttpsUrl.nullable().default(null),
  /** The day we read source_url (or a stored copy of it). */
  read_on: IsoDate.nullable().default(null),
  /** The sentence of source_url the value rests on, verbatim from the copy read on read_on. */
  basis_quote: Text.nullable().default(null),
})
export type Threshold = z.infer<typeof Threshold>
export const Thresholds = z.array(Threshold).min(1)

/** How a threshold travels with each paid item: enough to enforce it without the text. */
export const ThresholdUse = z.object({
  name: z.string(),
  value: z.number(),
  unit: z.string(),
  relative_to: z
    .object({ fact: z.string(), bound: z.enum(['at-most', 'at-least']), label: z.string().optional() })
    .optional(),
})
export type ThresholdUse = z.infer<typeof ThresholdUse>

/** A rule, playbook or gate after the build rendered its thresholds. */
export type WithThresholds<T> = T & { thresholds: ThresholdUse[] }

/** The expected inventory (content/inventory.yaml): what the build checks the content against. */
export const Inventory = z.strictObject({
  foundational: z.number().int().nonnegative(),
  paid: z.number().int().nonnegative(),
  playbooks: z.number().int().nonnegative(),
  gates: z.number().int().nonnegative(),
})

/**
 * Shapes of the compiled datasets: what the build writes into bundles and the gateway serves.
 */
import * as z from 'zod'
import {
  CommonChange,
  Correction,
  Gate,
  ModelPrice,
  Playbook,
  PricingRowFields,
  Rule,
  ThresholdUse,
} from './content.js'
import { HarmBundle } from './harm.js'
import { PlanPoint } from './plan-points.js'
import { Fact } from './situation.js'
import { CoveredTechnology, TrapsBundle } from './traps.js'
import { INDEX_CATEGORIES, IsoDate } from './vocabulary.js'

/*
 * Each shape is a zod schema: the build checks every bundle against it before writing, openapi.json
 * and the MCP tools' outputSchema are generated from it, and the TypeScript types are inferred from it.
 */

export const PhaseRef = z.object({ slug: z.string(), name: z.string() })
export type PhaseRef = z.infer<typeof PhaseRef>

/** A catalogue line: identity, phase and tags, no paid body. */
export const CatalogueEntry = z.object({
  id: z.string(),
  title: z.string(),
  phase: z.string(),
  phase_slug: z.string(),
  tags: z.array(z.string()),
  access: z.enum(['free', 'paid']),
})
export type CatalogueEntry = z.infer<typeof CatalogueEntry>

export const Inventory = z.object({
  total: z.number().int(),
  free: z.number().int(),
  paid: z.number().int(),
  phases: z.array(z.string()),
  playbooks: z.number().int(),
  checklistItems: z.number().int(),
})
export type Inventory = z.infer<typeof Inventory>

export const Catalogue = z.object({
  version: z.string(),
  /** The newest day any rule, gate or threshold was read from its source: the content's date. */
  content_date: z.string(),
  inventory: Inventory,
  phases: z.array(PhaseRef),
  topics: z.array(
    z.object({
      tag: z.string(),
      means: z.string(),
      rules: z.number().int(),
      playbooks: z.number().int(),
      gates: z.number().int(),
    }),
  ),
  /** The action vocabulary (content/actions.yaml): choose one for the checklist's `action` filter. */
  actions: z.array(
    z.object({
      action: z.string(),
      means: z.string(),
      /** Gates and rules whose check_spec.applies_to lists the action. */
      gates: z.number().int(),
      rules: z.number().int(),
    }),
  ),
  /** The situation facts (content/facts.yaml): answer them with the action to get only what applies. */
  facts: z.array(Fact),
  /** Common changes and the action or actions that fit each, with the facts the change implies. */
  changes: z.array(CommonChange),
  rules: z.array(CatalogueEntry),
  playbooks: z.array(CatalogueEntry),
  checklist: z.array(CatalogueEntry),
  /**
   * The technologies the trap layer covers: the names (id and aliases) to send as `technologies`,
   * and how many traps each has. Counted apart from the inventory above.
   */
  technologies: z.array(CoveredTechnology),
})
export type Catalogue = z.infer<typeof Catalogue>

/** What publishing adds to a content item: its phase by name and slug, and the thresholds it uses. */
const PUBLISHED = { phase: z.string(), phase_slug: z.string(), thresholds: z.array(ThresholdUse) }

/** A rule also says whether it is free (foundational) or paid, as situated answers hold both. */
export const PublishedRule = Rule.omit({ phase: true }).extend({
  ...PUBLISHED,
  access: z.enum(['free', 'paid']),
})
export type PublishedRule = z.infer<typeof PublishedRule>
export const PublishedPlaybook = Playbook.omit({ phase: true }).extend(PUBLISHED)
export type PublishedPlaybook = z.infer<typeof PublishedPlaybook>
export const PublishedGate = Gate.omit({ phase: true }).extend(PUBLISHED)
export type PublishedGate = z.infer<typeof PublishedGate>

export const RulesBundle = z.object({ rules: z.array(PublishedRule) })
export type RulesBundle = z.infer<typeof RulesBundle>
export const PlaybooksBundle = z.object({ playbooks: z.array(PublishedPlaybook) })
export type PlaybooksBundle = z.infer<typeof PlaybooksBundle>
export const ChecklistBundle = z.object({
  checklist: z.array(PublishedGate),
  /** What a plan must say that no gate can know, with when each applies (schema/plan-points.ts). */
  plan_points: z.array(PlanPoint).default([]),
})
export type ChecklistBundle = z.infer<typeof ChecklistBundle>

/** A count of rows or products: written once in openapi.json and referenced from every count. */
export const Count = z.number().int().nonnegative()

export const PriceSpread = z.object({
  n: Count,
  median: z.number(),
  min: z.number(),
  max: z.number(),
})
export type PriceSpread = z.infer<typeof PriceSpread>

/** A priced product kept out of a group, and the basis it is on instead. */
export const LeftOut = z.object({ product: z.string(), basis: z.string() })
export type LeftOut = z.infer<typeof LeftOut>

/**
 * Prices on one unit and one basis (per seat or per account, monthly or annual billing; base or
 * overage rate), compared only with each other. A group of two or more has a median and range; a
 * group of one is that one price (`single_price`), never called a median. `left_out` names the
 * category's prices in the same unit on another basis, kept out of this group.
 */
export const PriceGroup = z.object({
  /** "USD per month, per seat, monthly billing"; "USD per resolution, base rate". */
  label: z.string(),
  unit: z.string(),
  basis: z.string(),
  products: z.array(z.string()),
  spread: PriceSpread.nullable(),
  single_price: z.number().nullable(),
  left_out: z.array(LeftOut),
  /** Per-seat groups: the products that state a seat minimum, and how many seats. */
  seat_minimums: z.array(z.object({ product: z.string(), seats: Count })),
})
export type PriceGroup = z.infer<typeof PriceGroup>

/** Per-minute voice prices that include the same parts of a call, compared only with each other. */
export const MinuteBundle = z.object({
  /** What the minute includes, in words ("model, speech in and speech out included; telephony extra"). */
  label: z.string(),
  /** Base or overage rate: minutes on another basis form another bundle. */
  basis: z.string(),
  /** Two or more prices: median and range; null for a bundle of one (see single_price). */
  spread: PriceSpread.nullable(),
  single_price: z.number().nullable(),
  products: z.array(z.string()),
})
export type MinuteBundle = z.infer<typeof MinuteBundle>
/** A per-minute price kept out of every bundle, and why (the parts its page leaves unstated). */
export const MinuteLeftOut = z.object({ product: z.string(), why: z.string() })
export type MinuteLeftOut = z.infer<typeof MinuteLeftOut>

/**
 * What a team of `seats` pays a month in one category, from the rows only: each option's product,
 * plan, monthly total and how it was worked out, cheapest first; the rows left out, with why.
 */
export const TeamCost = z.object({
  seats: Count,
  options: z.array(
    z.object({ product: z.string(), plan: z.string(), usd_month: z.number(), how: z.string() }),
  ),
  left_out: z.array(z.object({ product: z.string(), why: z.string() })),
})
export type TeamCost = z.infer<typeof TeamCost>

/** Derived per-category figures over the published rows. */
export const Comparable = z.object({
  category: z.enum(INDEX_CATEGORIES),
  products: Count,
  publish_a_price: Count,
  sales_gated: Count,
  /** No price on the vendor's pricing page (not published, or a sales call): a finding. */
  no_price: Count,
  /** The pricing page not read yet: neither a price nor a finding of none. */
  price_not_read: Count,
  /** Entry prices grouped by what they are per (seat or account) and how they are billed. */
  entry_price_groups: z.array(PriceGroup),
  /** Unit prices grouped by base unit and basis (base or overage rate). */
  unit_price_groups: z.array(PriceGroup),
  /**
   * Paid only: the same unit prices after exact unit conversions (an hour is 60 minutes; a pack of
   * N sessions is N sessions), so a per-hour and a per-minute price share one scale; grouped by basis too.
   */
  unit_price_converted_groups: z.array(PriceGroup),
  /** Per-minute prices by what the minute includes; these stay out of the per-unit medians above. */
  per_minute_by_bundle: z.array(MinuteBundle),
  per_minute_left_out: z.array(MinuteLeftOut),
  /** What a team of TEAM_SEATS pays a month, cheapest first, with the rows used and left out. */
  team_cost: TeamCost,
  pricing_models: z.record(z.string(), Count),
})
export type Comparable = z.infer<typeof Comparable>

/** The same unit price in another unit, by an exact conversion (never an estimate). */
export const UnitEquivalent = z.object({
  unit_price_usd: z.number(),
  usage_unit: z.string(),
  /** The conversion, in words: "1 hour = 60 minutes", "1 pack of 100 sessions = 100 sessions". */
  conversion: z.string(),
})
export type UnitEquivalent = z.infer<typeof UnitEquivalent>

/**
 * A row as the paid JSON serves it: the row, plus what the free page does not carry (exact per-unit
 * equivalents, the row's own price history, the page's stated date as a date) and its freshness.
 */
/** A model's prices as the paid JSON serves them: as the page writes them and per 1M tokens, exactly. */
export const PublishedModelPrice = ModelPrice.extend({
  input_usd_per_mtok: z.number(),
  output_usd_per_mtok: z.number(),
})

export const PublishedPricingRow = PricingRowFields.extend({
  models: z.array(PublishedModelPrice),
  /** unit_price_usd in the other units it converts to exactly; empty when none does. */
  per_unit: z.array(UnitEquivalent),
  /** This row's dated corrections from the corrections log, oldest first. */
  price_history: z.array(Correction),
  /** page_states_date as YYYY-MM-DD (or YYYY-MM when the page names only a month); null if none. */
  page_states_on: z.string().nullable(),
  /**
   * The date the price is as of: the page's own date, else the stored copy's capture date, else
   * "unknown"; never the day we read it (YYYY-MM-DD, or YYYY-MM when the page names only a month).
   */
  as_of: z.string(),
  as_of_source: z.enum(['page-states-date', 'copy-captured-on', 'unknown']),
  /** Whole days from the as-of date to the build's date; null when the date is unknown (never 0). */
  price_age_days: z.number().int().nullable(),
  /** Whole days from read_on to the build's date: how long ago we read the page (or its copy). */
  days_since_read: z.number().int(),
  /**
   * The price is as of more than the re-read period before the build's date; where the as-of date
   * is unknown, the row was read longer ago than the period (its monthly re-read was missed).
   */
  reread_due: z.boolean(),
})
export type PublishedPricingRow = z.infer<typeof PublishedPricingRow>

/** Freshness on the build's date: how many rows were read longer ago than the re-read period. */
export const Freshness = z.strictObject({
  /** The day the build derived freshness on (UTC). */
  as_of: IsoDate,
  reread_period_days: Count,
  due_for_reread: Count,
  /** Ids of the rows due, the one read longest ago first. */
  due_rows: z.array(z.string()),
  /** Rows whose price's date is known (the page's own date, or the stored copy's capture date). */
  dated: Count,
  /** Rows whose price's date is unknown: shown as unknown, never as current. */
  undated: Count,
  /** The oldest dated price: its row, its as-of date and its age in days on as_of; null with none dated. */
  oldest_dated: z.strictObject({ product: z.string(), as_of: z.string(), age_days: Count }).nullable(),
})
export type Freshness = z.infer<typeof Freshness>

export const PricingBundle = z.object({
  rows: z.array(PublishedPricingRow),
  comparables: z.array(Comparable),
  /**
   * Derived from the rows (FORMAT.md, "Two nulls"): publish a price + no published price + price not
   * read = rows; sales_gated counts across all three.
   */
  counts: z.object({
    rows: Count,
    publish_a_price: Count,
    sales_gated: Count,
    no_published_price: Count,
    price_not_read: Count,
  }),
  latest_correction: z.string().nullable(),
  freshness: Freshness,
})
export type PricingBundle = z.infer<typeof PricingBundle>

export const ChangesBundle = z.object({ corrections: z.array(Correction) })
export type ChangesBundle = z.infer<typeof ChangesBundle>

/** Names of the bundles the build writes; paid ones are never part of the public file set. */
export const BUNDLES = {
  catalogue: 'free',
  preview: 'free',
  lessons: 'paid',
  playbooks: 'paid',
  checklist: 'paid',
  pricing: 'paid',
  changes: 'paid',
  traps: 'paid',
  harm: 'paid',
} as const
export type BundleName = keyof typeof BUNDLES

/** The schema of each bundle's body. */
export const BUNDLE_SCHEMAS = {
  catalogue: Catalogue,
  preview: RulesBundle,
  lessons: RulesBundle,
  playbooks: PlaybooksBundle,
  checklist: ChecklistBundle,
  pricing: PricingBundle,
  changes: ChangesBundle,
  traps: TrapsBundle,
  harm: HarmBundle,
} as const satisfies Record<BundleName, z.ZodType>

export type BundleData = { [K in BundleName]: z.infer<(typeof BUNDLE_SCHEMAS)[K]> }

/** manifest.json: each bundle's content-hashed file and hash. */
export interface BundleManifest {
  version: string
  bundles: Record<BundleName, BundleEntry>
}

export interface BundleEntry {
  /** The plain file under dist/: free bundles in public/data/, paid ones in private/. */
  file: string
  /** Where the Worker reads it from the asset store: free ones plain, paid ones sealed (schema/sealing.ts). */
  asset: string
  sha256: string
  access: 'free' | 'paid'
  bytes: number
}

/**
 * Shapes of the compiled datasets: what the build writes into bundles and the gateway serves.
 */
import type { Correction, Gate, Playbook, PricingRow, Rule, WithThresholds } from './content.js'
import type { IndexCategory } from './vocabulary.js'

export interface PhaseRef {
  slug: string
  name: string
}

/** A catalogue line: identity, phase and tags, no paid body. */
export interface CatalogueEntry {
  id: string
  title: string
  phase: string
  phase_slug: string
  tags: string[]
  access: 'free' | 'paid'
}

export interface Catalogue {
  version: string
  inventory: Inventory
  phases: PhaseRef[]
  topics: { tag: string; means: string; rules: number; playbooks: number; gates: number }[]
  rules: CatalogueEntry[]
  playbooks: CatalogueEntry[]
  checklist: CatalogueEntry[]
}

export interface Inventory {
  total: number
  free: number
  paid: number
  phases: string[]
  playbooks: number
  checklistItems: number
}

export type PublishedRule = Omit<WithThresholds<Rule>, 'phase'> & { phase: string; phase_slug: string }
export type PublishedPlaybook = Omit<WithThresholds<Playbook>, 'phase'> & {
  phase: string
  phase_slug: string
}
export type PublishedGate = Omit<WithThresholds<Gate>, 'phase'> & { phase: string; phase_slug: string }

export interface RulesBundle {
  rules: PublishedRule[]
}
export interface PlaybooksBundle {
  playbooks: PublishedPlaybook[]
}
export interface ChecklistBundle {
  checklist: PublishedGate[]
}

/** Derived per-category figures over the published rows. */
export interface Comparable {
  category: IndexCategory
  products: number
  publish_a_price: number
  sales_gated: number
  no_price: number
  entry_usd_month: PriceSpread | null
  unit_price_usd_by_unit: Record<string, PriceSpread>
  pricing_models: Record<string, number>
}

export interface PriceSpread {
  n: number
  median: number
  min: number
  max: number
}

export interface PricingBundle {
  rows: PricingRow[]
  comparables: Comparable[]
  /** Derived from the rows: publish a price, sales-gated, no published price (FORMAT.md). */
  counts: {
    rows: number
    publish_a_price: number
    sales_gated: number
    no_published_price: number
  }
  latest_correction: string | null
}

export interface ChangesBundle {
  corrections: Correction[]
}

/** Names of the bundles the build writes; paid ones are never part of the public file set. */
export const BUNDLES = {
  catalogue: 'free',
  preview: 'free',
  lessons: 'paid',
  playbooks: 'paid',
  checklist: 'paid',
  pricing: 'paid',
  changes: 'paid',
} as const
export type BundleName = keyof typeof BUNDLES

export interface BundleData {
  catalogue: Catalogue
  preview: RulesBundle
  lessons: RulesBundle
  playbooks: PlaybooksBundle
  checklist: ChecklistBundle
  pricing: PricingBundle
  changes: ChangesBundle
}

/** manifest.json: each bundle's content-hashed file and hash. */
export interface BundleManifest {
  version: string
  bundles: Record<BundleName, { file: string; sha256: string; access: 'free' | 'paid'; bytes: number }>
}

/**
 * The fixed vocabularies of the service: phases, evidence labels, categories, pricing models.
 * Every other file (content validation, discovery documents, gateway filters) reads them from here.
 */
import * as z from 'zod'

/** The six phases of the rules inventory, in the order of schema/CONTRACT.md §2.1. `slug` is what filters and files use. */
export const PHASES = [
  { slug: 'three-laws', numeral: 'I', name: 'Part I — The Three Laws' },
  { slug: 'stopping-rule', numeral: 'II', name: 'Part II — The Stopping Rule' },
  { slug: 'before-you-touch-anything', numeral: 'III', name: 'Part III — Before You Touch Anything' },
  { slug: 'while-executing', numeral: 'IV', name: 'Part IV — While Executing' },
  { slug: 'verifying', numeral: 'V', name: 'Part V — Verifying' },
  { slug: 'when-it-goes-wrong', numeral: 'VI', name: 'Part VI — When It Goes Wrong' },
] as const

export type PhaseSlug = (typeof PHASES)[number]['slug']
export const PhaseSlug = z.enum(PHASES.map((p) => p.slug) as [PhaseSlug, ...PhaseSlug[]])

/** Evidence labels that may tag a claim in published text (schema/CONTRACT.md §1.8). */
export const EVIDENCE_LABELS = [
  'RESEARCH',
  'REPORTED',
  'ANALYSIS',
  'MODELED',
  'RECOMMENDATION',
  'OBSERVED',
] as const
export const EvidenceLabel = z.enum(EVIDENCE_LABELS)
export type EvidenceLabel = z.infer<typeof EvidenceLabel>

/** The seven categories of the published pricing index. */
export const INDEX_CATEGORIES = [
  'coding-agent',
  'support-agent',
  'gtm-agent',
  'agent-platform',
  'voice-agent',
  'model-api',
  'vertical-ai',
] as const
export const IndexCategory = z.enum(INDEX_CATEGORIES)
export type IndexCategory = z.infer<typeof IndexCategory>

/** Crowd submissions may also use `other`. */
export const SUBMISSION_CATEGORIES = [...INDEX_CATEGORIES, 'other'] as const
export const SubmissionCategory = z.enum(SUBMISSION_CATEGORIES)
export type SubmissionCategory = z.infer<typeof SubmissionCategory>

export const PRICING_MODELS = [
  'per-seat',
  'usage-credits',
  'per-outcome',
  'per-token',
  'per-minute',
  'hybrid',
  'flat',
] as const
export const PricingModel = z.enum(PRICING_MODELS)
export type PricingModel = z.infer<typeof PricingModel>

/**
 * The closed vocabulary of actions an agent may be about to take (content/actions.yaml gives each
 * its meaning; the build requires the two lists to be the same). Every gate's and rule's
 * `check_spec.applies_to` names actions from here, and the checklist filters by them (`action=`).
 */
export const ACTIONS = [
  'deploy',
  'dependency-upgrade',
  'config-push',
  'dns',
  'certificate',
  'schema-change',
  'bulk-delete',
  'capacity-change',
  'restart',
  'retry-loop',
  'credential-rotation',
  'access-change',
  'network-change',
  'automation-loop',
  'data-restore',
  'revert',
] as const
export const Action = z.enum(ACTIONS)
export type Action = z.infer<typeof Action>

/** A calendar date written YYYY-MM-DD that is a real day. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`)
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s)
  }, 'a real calendar day')

/** Resolves a phase filter written as slug, full name or roman numeral. */
export function findPhase(value: string) {
  const v = value.trim().toLowerCase()
  return PHASES.find((p) => p.slug === v || p.name.toLowerCase() === v || p.numeral.toLowerCase() === v)
}

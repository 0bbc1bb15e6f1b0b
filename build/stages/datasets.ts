/**
 * Compile: turn validated content into the datasets the service publishes, one per bundle.
 * Every count, phase and topic here is derived from the content itself.
 */

import type { Gate, Playbook, Rule } from '../../schema/content.js'
import type { BundleData, CatalogueEntry, Inventory } from '../../schema/datasets.js'
import { SERVICE_VERSION } from '../../schema/routes.js'
import { PHASES } from '../../schema/vocabulary.js'
import { comparables } from '../pricing/comparables.js'
import { pricingCounts } from '../pricing/pricing-footing.js'
import { freshness } from '../pricing/pricing-freshness.js'
import { publishedPricingRows } from '../pricing/published-pricing-rows.js'
import type { Content } from './validate.js'

const phaseOrder = (slug: string) => PHASES.findIndex((p) => p.slug === slug)
const phaseName = (slug: string) => PHASES.find((p) => p.slug === slug)?.name ?? slug

/** Sort by phase (the order of schema/CONTRACT.md §2.1), then id, so output never depends on file-system order. */
function ordered<T extends { phase: string; id: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => phaseOrder(a.phase) - phaseOrder(b.phase) || a.id.localeCompare(b.id))
}

function publish<T extends Rule | Playbook | Gate>(item: T) {
  return { ...item, phase: phaseName(item.phase), phase_slug: item.phase }
}

function entry(item: Rule | Playbook | Gate, access: 'free' | 'paid'): CatalogueEntry {
  return {
    id: item.id,
    title: item.title,
    phase: phaseName(item.phase),
    phase_slug: item.phase,
    tags: [...item.tags].sort(),
    access,
  }
}

/** The newest day the content was read from its sources: incidents, gate sources, thresholds. */
function contentDate(content: Content): string {
  const days = [
    ...content.rules.map((r) => r.incident.read_on),
    ...content.gates.flatMap((g) => (g.read_on ? [g.read_on] : [])),
    ...content.thresholds.flatMap((t) => (t.read_on ? [t.read_on] : [])),
    // A situated answer carries traps too: the day their sources were read counts.
    ...content.traps.flatMap((f) => f.traps.map((t) => t.read_on)),
  ]
  return days.sort().at(-1) ?? 'unknown'
}

export function inventory(content: Content): Inventory {
  const free = content.rules.filter((r) => r.kind === 'foundational').length
  return {
    total: content.rules.length,
    free,
    paid: content.rules.length - free,
    phases: PHASES.filter((p) => content.rules.some((r) => r.phase === p.slug)).map((p) => p.name),
    playbooks: content.playbooks.length,
    checklistItems: content.gates.length,
  }
}

/** `asOf` (YYYY-MM-DD) is the day freshness is derived on: the build's date unless a test names one. */
export function compileDatasets(content: Content, asOf: string): BundleData {
  const rules = ordered(content.rules)
  const playbooks = ordered(content.playbooks)
  const gates = ordered(content.gates)
  const count = (tag: string, items: readonly { tags: string[] }[]) =>
    items.filter((i) => i.tags.includes(tag)).length
  const corrections = [...content.corrections].sort(
    (a, b) => a.date.localeCompare(b.date) || a.product.localeCompare(b.product),
  )
  return {
    catalogue: {
      version: SERVICE_VERSION,
      content_date: contentDate(content),
      inventory: inventory(content),
      phases: PHASES.map((p) => ({ slug: p.slug, name: p.name })),
      topics: [...content.topics]
        .sort((a, b) => a.tag.localeCompare(b.tag))
        .map((t) => ({
          tag: t.tag,
          means: t.means,
          rules: count(t.tag, rules),
          playbooks: count(t.tag, playbooks),
          gates: count(t.tag, gates),
        })),
      actions: content.actions.map(({ action, means }) => ({
        action,
        means,
        gates: gates.filter((g) => g.check_spec.applies_to.includes(action)).length,
        rules: rules.filter((r) => r.constraint.check_spec.applies_to.includes(action)).length,
      })),
      facts: content.facts,
      changes: content.changes,
      rules: rules.map((r) => entry(r, r.kind === 'foundational' ? 'free' : 'paid')),
      playbooks: playbooks.map((p) => entry(p, 'paid')),
      checklist: gates.map((g) => entry(g, 'paid')),
      technologies: content.traps.map((t) => ({
        id: t.technology,
        name: t.name,
        kind: t.kind,
        aliases: [...new Set(t.aliases)].filter((a) => a !== t.technology).sort(),
        traps: t.traps.length,
      })),
    },
    preview: {
      rules: rules
        .filter((r) => r.kind === 'foundational')
        .map((r) => ({ ...publish(r), access: 'free' as const })),
    },
    lessons: {
      rules: rules.filter((r) => r.kind === 'paid').map((r) => ({ ...publish(r), access: 'paid' as const })),
    },
    playbooks: { playbooks: playbooks.map(publish) },
    checklist: {
      checklist: gates.map(publish),
      plan_points: content.planPoints,
    },
    pricing: {
      rows: publishedPricingRows(content.pricingRows, corrections, asOf),
      comparables: comparables(content.pricingRows),
      counts: pricingCounts(content.pricingRows),
      latest_correction: corrections.at(-1)?.date ?? null,
      freshness: freshness(content.pricingRows, asOf),
    },
    changes: { corrections },
    traps: {
      technologies: content.traps.map((t) => ({
        ...t,
        aliases: [...new Set(t.aliases)].filter((a) => a !== t.technology).sort(),
      })),
    },
    harm: content.harm,
  }
}

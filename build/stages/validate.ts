/**
 * Validate: check every collected file against its schema, then the rules that span files
 * (counts, unique ids and titles, known tags and references, prices inside their quotes).
 */

import type { z } from 'zod'
import {
  type ActionEntry,
  Actions,
  type CommonChange,
  CommonChanges,
  type Correction,
  Corrections,
  Gate,
  Inventory,
  Playbook,
  PricingRow,
  Rule,
  type Threshold,
  Thresholds,
  type Topic,
  Topics,
  type WithThresholds,
} from '../../schema/content.js'
import { coveredByBreaks, type HarmFile, HarmFile as HarmFileSchema, harmBreaks } from '../../schema/harm.js'
import { type PlanPoint, PlanPoints, planPointBreaks } from '../../schema/plan-points.js'
import { Scenario } from '../../schema/scenario.js'
import { type Fact, Facts } from '../../schema/situation.js'
import { type TrapFile, TrapFile as TrapFileSchema } from '../../schema/traps.js'
import { EVIDENCE_LABELS, PHASES } from '../../schema/vocabulary.js'
import { ACTIONS_FILE, actionListBreaks, specThresholdBreaks } from '../checks/check-specs.js'
import { CHANGES_FILE, changeBreaks } from '../checks/common-changes.js'
import { gateSourceBreaks } from '../checks/gate-sources.js'
import { gateTimingBreaks } from '../checks/gate-timing.js'
import { inlineLimitBreaks } from '../checks/inline-numbers.js'
import { revertSpecBreaks, revertTextBreaks } from '../checks/revert-speed.js'
import { appliesWhenIssues, FACTS_FILE, factListBreaks, scenarioBreaks } from '../checks/situation-checks.js'
import { checkDefinitions, checkUnused, renderThresholds } from '../checks/thresholds.js'
import { trapFileBreaks } from '../checks/trap-files.js'

const PLAN_POINTS_FILE = 'plan-points.yaml'

import { includedUsageBreaks } from '../pricing/included-usage.js'
import { modelPriceBreaks } from '../pricing/model-prices.js'
import { basisBreaks } from '../pricing/price-basis.js'
import { priceAppearsIn } from '../pricing/price-in-quote.js'
import { originBreaks } from '../pricing/price-origin.js'
import { footingBreaks } from '../pricing/pricing-footing.js'
import { sourceBreaks } from '../pricing/pricing-sources.js'
import { copyBreaks } from '../pricing/stored-copies.js'
import { tierBreaks } from '../pricing/team-tiers.js'
import type { RawContent, RawFile } from './collect.js'
import type { BuildIssue } from './issues.js'
import { fromZod } from './zod-issues.js'

export interface Content {
  topics: Topic[]
  /** The action vocabulary (content/actions.yaml), in ACTIONS order. */
  actions: ActionEntry[]
  /** The situation facts (content/facts.yaml). */
  facts: Fact[]
  /** Common changes and the actions that fit them (content/changes.yaml). */
  changes: CommonChange[]
  /** The situations the router was judged on (content/scenarios/). */
  scenarios: Scenario[]
  thresholds: Threshold[]
  rules: WithThresholds<Rule>[]
  playbooks: WithThresholds<Playbook>[]
  gates: WithThresholds<Gate>[]
  pricingRows: PricingRow[]
  corrections: Correction[]
  /** The trap layer, one entry per technology, sorted by id; counted apart from the inventory. */
  traps: TrapFile[]
  /** What each gate and rule guards against and whether it slows (content/harm.yaml). */
  harm: HarmFile
  /** What a plan must say that no item can know (content/plan-points.yaml). */
  planPoints: PlanPoint[]
}

/** How many items of each kind the inventory must hold (schema/CONTRACT.md §1.2); null skips a count. */
export interface ExpectedCounts {
  foundational: number | null
  paid: number | null
  playbooks: number | null
  gates: number | null
}

/**
 * Whether a sentence of rule, gate or playbook text that slows a revert fails the build ('error') or
 * is only listed on stderr ('warn'). It was 'warn' while the rules and playbooks were rewritten to
 * pass; it is an error now. The structured rule for check_specs has always been an error.
 */
export const REVERT_TEXT_RULE: 'warn' | 'error' = 'error'

/** Where the expected inventory lives, named in every count error so an editor knows where to look. */
export const INVENTORY_FILE = 'inventory.yaml'

const CONTENT = '(content)'

/** `expected` overrides content/inventory.yaml (the benchmark's synthetic content skips counts). */
export function validate(
  raw: RawContent,
  expected: ExpectedCounts | undefined,
  issues: BuildIssue[],
): Content {
  const topics = raw.topics ? (parseOne(raw.topics, Topics, issues) ?? []) : []
  const actions = raw.actions ? (parseOne(raw.actions, Actions, issues) ?? []) : []
  if (raw.actions && actions.length)
    for (const b of actionListBreaks(actions)) issues.push({ file: ACTIONS_FILE, ...b })
  const facts = raw.facts ? (parseOne(raw.facts, Facts, issues) ?? []) : []
  if (raw.facts && facts.length)
    for (const b of factListBreaks(facts)) issues.push({ file: FACTS_FILE, ...b })
  const changes = raw.changes ? (parseOne(raw.changes, CommonChanges, issues) ?? []) : []
  if (facts.length) for (const b of changeBreaks(changes, facts)) issues.push({ file: CHANGES_FILE, ...b })
  const scenarios = parseEach(raw.scenarios, Scenario, issues)
  const rules = parseEach(raw.rules, Rule, issues)
  const playbooks = parseEach(raw.playbooks, Playbook, issues)
  const gates = parseEach(raw.gates, Gate, issues)
  const pricingRows = parseEach(raw.pricingRows, PricingRow, issues)
  const corrections = raw.corrections ? (parseOne(raw.corrections, Corrections, issues) ?? []) : []
  const traps = parseEach(raw.traps, TrapFileSchema, issues)
  const harm = (raw.harm ? parseOne(raw.harm, HarmFileSchema, issues) : null) ?? { gates: {}, rules: {} }
  const planPoints = raw.planPoints ? (parseOne(raw.planPoints, PlanPoints, issues) ?? []) : []
  if (facts.length)
    for (const b of planPointBreaks(planPoints, facts))
      issues.push({
        file: PLAN_POINTS_FILE,
        field: b.path.join('.'),
        problem: b.message,
        allowed: 'see content/FORMAT.md, "Plan points"',
      })
  // A file that cannot be read or does not match its schema is left out of what follows, and every
  // check across files would report it missing (a reference to it, the inventory count, a threshold
  // only it used): those follow-ons are not reported; the file's own problems are the root cause.
  const complete = issues.length === 0
  if (complete)
    for (const problem of [
      ...harmBreaks(
        harm.gates,
        gates.map((g) => g.value.id),
        'gate',
      ),
      ...harmBreaks(
        harm.rules,
        rules.map((r) => r.value.id),
        'rule',
      ),
      ...coveredByBreaks(
        harm,
        [...gates, ...rules].map((i) => i.value.id),
      ),
    ])
      issues.push({ file: 'harm.yaml', field: '-', problem, allowed: 'one entry per gate and rule id' })
  issues.push(
    ...trapFileBreaks(
      traps,
      actions.map((a) => a.action),
    ),
  )

  for (const kind of [rules, playbooks, gates, pricingRows, scenarios]) {
    checkFileNames(kind, issues)
    checkUnique(kind, 'id', issues)
  }
  for (const kind of [rules, playbooks, gates]) checkUnique(kind, 'title', issues)

  const tags = new Set(topics.map((t) => t.tag))
  for (const item of [...rules, ...playbooks, ...gates]) {
    item.value.tags.forEach((tag, i) => {
      if (!tags.has(tag))
        issues.push({
          file: item.file,
          field: `tags.${i}`,
          problem: `unknown tag "${tag}"`,
          allowed: 'a tag listed in topics.yaml',
        })
    })
  }

  const ruleIds = new Set(rules.map((r) => r.value.id))
  if (complete)
    for (const p of playbooks) checkRefs(p.file, 'applies_rules', p.value.applies_rules, ruleIds, issues)
  for (const g of gates) {
    if (complete) checkRefs(g.file, 'rules', g.value.rules, ruleIds, issues)
    for (const b of gateSourceBreaks(g.value)) issues.push({ file: g.file, ...b })
    for (const b of gateTimingBreaks(g.value)) issues.push({ file: g.file, ...b })
  }

  const inventory = expected ?? (raw.inventory ? parseOne(raw.inventory, Inventory, issues) : null)
  if (!raw.inventory && !expected)
    issues.push({
      file: INVENTORY_FILE,
      field: '-',
      problem: 'missing',
      allowed: 'the expected inventory: foundational, paid, playbooks and gates counts',
    })
  if (inventory && complete) checkCounts(rules, playbooks, gates, inventory, issues)
  checkPrices(pricingRows, issues)
  if (complete) checkCorrections(corrections, new Set(pricingRows.map((r) => r.value.id)), issues)
  for (const f of [...raw.rules, ...raw.playbooks, ...raw.gates, ...raw.pricingRows])
    checkInlineLabels(f.file, f.data, '', issues)

  const thresholds = raw.thresholds ? (parseOne(raw.thresholds, Thresholds, issues) ?? []) : []
  const integerFacts = raw.facts ? facts.filter((f) => f.type === 'integer').map((f) => f.fact) : undefined
  const defined = checkDefinitions(thresholds, issues, integerFacts)
  const used = new Set<string>()
  const render = <T>(items: Parsed<T>[]) =>
    items.map(({ file, value }) => {
      const r = renderThresholds(file, value, defined, issues)
      for (const name of r.used) used.add(name)
      return r.value
    })
  checkSpecs(rules, gates, playbooks, defined, issues)
  if (complete) checkSituations(rules, gates, playbooks, scenarios, facts, issues, raw)
  const rendered = { rules: render(rules), playbooks: render(playbooks), gates: render(gates) }
  for (const [kind, items] of [
    ['rule', rules],
    ['gate', gates],
    ['playbook', playbooks],
  ] as const)
    for (const { file, value } of items) issues.push(...inlineLimitBreaks(file, kind, value))
  // Only meaningful when every file was read and parsed: a broken one could be the one that uses it.
  if (raw.thresholds && complete) checkUnused(thresholds, used, issues)

  return {
    topics,
    actions,
    facts,
    changes,
    scenarios: scenarios.map((s) => s.value),
    thresholds,
    ...rendered,
    pricingRows: pricingRows.map((r) => r.value),
    corrections,
    traps: traps.map((t) => t.value).sort((a, b) => a.technology.localeCompare(b.technology)),
    harm,
    planPoints,
  }
}

/** Each check_spec against its check, and the fastest safe fix never slowed (build/checks/revert-speed.ts). */
function checkSpecs(
  rules: Parsed<Rule>[],
  gates: Parsed<Gate>[],
  playbooks: Parsed<Playbook>[],
  defined: ReadonlyMap<string, Threshold>,
  issues: BuildIssue[],
) {
  for (const { file, value } of rules) {
    const field = 'constraint.check_spec'
    const spec = value.constraint.check_spec
    for (const b of specThresholdBreaks(field, value.constraint.check, spec)) issues.push({ file, ...b })
    for (const b of revertSpecBreaks(field, spec, defined)) issues.push({ file, ...b })
  }
  for (const { file, value } of gates) {
    for (const b of specThresholdBreaks('check_spec', value.check, value.check_spec))
      issues.push({ file, ...b })
    for (const b of revertSpecBreaks('check_spec', value.check_spec, defined)) issues.push({ file, ...b })
  }
  const slowed = [
    ...rules.map((r) => ['rule', r] as const),
    ...gates.map((g) => ['gate', g] as const),
    ...playbooks.map((p) => ['playbook', p] as const),
  ].flatMap(([kind, { file, value }]) =>
    revertTextBreaks(kind, value as unknown as Record<string, unknown>, defined).map((b) => ({ file, ...b })),
  )
  if (REVERT_TEXT_RULE === 'error') issues.push(...slowed)
  else if (slowed.length)
    console.warn(
      `warning: ${slowed.length} sentence(s) slow a revert (becomes a build error once the texts pass; FORMAT.md):\n${slowed.map((b) => `  ${b.file} ${b.field}: ${b.problem}`).join('\n')}`,
    )
}

/** Each applies_when against the facts, then every scenario against the router (once all parsed). */
function checkSituations(
  rules: Parsed<Rule>[],
  gates: Parsed<Gate>[],
  playbooks: Parsed<Playbook>[],
  scenarios: Parsed<Scenario>[],
  facts: Fact[],
  issues: BuildIssue[],
  raw: RawContent,
) {
  const broken = [
    ...rules.map(({ file, value }) => ({
      file,
      breaks: appliesWhenIssues('constraint.check_spec', value.constraint.check_spec, facts),
    })),
    ...gates.map(({ file, value }) => ({
      file,
      breaks: appliesWhenIssues('check_spec', value.check_spec, facts),
    })),
    ...playbooks.map(({ file, value }) => ({ file, breaks: appliesWhenIssues('', value, facts) })),
  ].flatMap(({ file, breaks }) => breaks.map((b) => ({ file, ...b })))
  issues.push(...broken)
  if (broken.length) return // the router cannot evaluate a condition it refuses
  // A scenario is judged on the whole content only: a file that failed to parse could be its answer.
  if (!facts.length || rules.length !== raw.rules.length || gates.length !== raw.gates.length) return
  const allRules = rules.map((r) => r.value)
  const allGates = gates.map((g) => g.value)
  for (const { file, value } of scenarios)
    issues.push(...scenarioBreaks(value, allGates, allRules, facts).map((b) => ({ file, ...b })))
}

interface Parsed<T> {
  file: string
  value: T
}

function parseOne<S extends z.ZodType>(raw: RawFile, schema: S, issues: BuildIssue[]): z.output<S> | null {
  const result = schema.safeParse(raw.data)
  if (result.success) return result.data
  issues.push(...fromZod(raw.file, result.error))
  return null
}

function parseEach<S extends z.ZodType>(files: RawFile[], schema: S, issues: BuildIssue[]) {
  const parsed: Parsed<z.output<S>>[] = []
  for (const raw of files) {
    const value = parseOne(raw, schema, issues)
    if (value !== null) parsed.push({ file: raw.file, value })
  }
  return parsed
}

function checkFileNames(items: Parsed<{ id: string }>[], issues: BuildIssue[]) {
  for (const { file, value } of items) {
    const expected = `${value.id}.yaml`
    if (!file.endsWith(`/${expected}`))
      issues.push({
        file,
        field: 'id',
        problem: `id "${value.id}" differs from the file name`,
        allowed: expected,
      })
  }
}

function checkUnique<K extends string>(items: Parsed<Record<K, string>>[], key: K, issues: BuildIssue[]) {
  const seen = new Map<string, string>()
  for (const { file, value } of items) {
    const v = value[key].toLowerCase()
    const first = seen.get(v)
    if (first)
      issues.push({
        file,
        field: key,
        problem: `"${value[key]}" is also used by ${first}`,
        allowed: 'a unique value',
      })
    else seen.set(v, file)
  }
}

function checkRefs(file: string, field: string, refs: string[], known: Set<string>, issues: BuildIssue[]) {
  refs.forEach((ref, i) => {
    if (!known.has(ref))
      issues.push({
        file,
        field: `${field}.${i}`,
        problem: `no rule with id "${ref}"`,
        allowed: 'an id from rules/',
      })
  })
}

function checkCounts(
  rules: Parsed<Rule>[],
  playbooks: Parsed<Playbook>[],
  gates: Parsed<Gate>[],
  expected: ExpectedCounts,
  issues: BuildIssue[],
) {
  const counts = {
    foundational: rules.filter((r) => r.value.kind === 'foundational').length,
    paid: rules.filter((r) => r.value.kind === 'paid').length,
    playbooks: playbooks.length,
    gates: gates.length,
  }
  for (const key of Object.keys(counts) as (keyof ExpectedCounts)[]) {
    const want = expected[key]
    if (want !== null && counts[key] !== want)
      issues.push({
        file: INVENTORY_FILE,
        field: key,
        problem: `the content holds ${counts[key]} valid ${key} item(s), but ${INVENTORY_FILE} expects ${want}`,
        allowed: `exactly ${want}, or change ${key} in content/${INVENTORY_FILE} if the change is intended`,
      })
  }
  if (expected.paid === null) return
  const used = new Set(rules.map((r) => r.value.phase))
  for (const phase of PHASES)
    if (!used.has(phase.slug))
      issues.push({
        file: CONTENT,
        field: 'phase',
        problem: `no rule in ${phase.name}`,
        allowed: 'every phase used',
      })
}

function checkPrices(rows: Parsed<PricingRow>[], issues: BuildIssue[]) {
  for (const { file, value } of rows) {
    for (const field of ['entry_usd_month', 'unit_price_usd'] as const) {
      const price = value[field]
      if (price !== null && !priceAppearsIn(price, value.quote))
        issues.push({
          file,
          field,
          problem: `price ${price} does not appear in the quote`,
          allowed: 'a price written verbatim in `quote`, or null with null_reason',
        })
    }
    for (const b of footingBreaks(value)) issues.push({ file, ...b })
    for (const b of sourceBreaks(value)) issues.push({ file, ...b })
    for (const { rule, ...b } of originBreaks(value))
      issues.push({ file, ...b, problem: `footing rule ${rule}: ${b.problem}` })
    for (const b of modelPriceBreaks(value)) issues.push({ file, ...b })
    for (const b of includedUsageBreaks(value)) issues.push({ file, ...b })
    for (const b of copyBreaks(value)) issues.push({ file, ...b })
    for (const b of basisBreaks(value)) issues.push({ file, ...b })
    for (const b of tierBreaks(value)) issues.push({ file, ...b })
  }
}

function checkCorrections(corrections: Correction[], rowIds: Set<string>, issues: BuildIssue[]) {
  corrections.forEach((c, i) => {
    if (!rowIds.has(c.product))
      issues.push({
        file: 'pricing/corrections.yaml',
        field: `${i}.product`,
        problem: `no pricing row with id "${c.product}"`,
        allowed: 'an id from pricing/rows/',
      })
  })
}

/** Labels written in prose as `[LABEL]` must be one of the six evidence labels. */
function checkInlineLabels(file: string, data: unknown, path: string, issues: BuildIssue[]) {
  if (typeof data === 'string') {
    for (const match of data.matchAll(/\[([A-Z][A-Z-]{3,})\]/g)) {
      const label = match[1] ?? ''
      if (!(EVIDENCE_LABELS as readonly string[]).includes(label))
        issues.push({
          file,
          field: path || '-',
          problem: `unknown evidence label [${label}]`,
          allowed: EVIDENCE_LABELS.join(', '),
        })
    }
  } else if (Array.isArray(data)) {
    for (const [i, item] of data.entries())
      checkInlineLabels(file, item, path ? `${path}.${i}` : String(i), issues)
  } else if (data && typeof data === 'object') {
    for (const [key, value] of Object.entries(data))
      checkInlineLabels(file, value, path ? `${path}.${key}` : key, issues)
  }
}

/**
 * Thresholds: every `{{name}}` in a rule, playbook or gate is replaced by the value and unit defined
 * once in content/thresholds.yaml, and the item records which thresholds it uses. A name that is
 * not defined, or a definition nothing uses, is a build issue.
 */
import type { Threshold, ThresholdUse } from '../../schema/content.js'
import type { BuildIssue } from '../stages/issues.js'

export const THRESHOLDS_FILE = 'thresholds.yaml'

const REFERENCE = /\{\{\s*([^{}\s]+)\s*\}\}/g

/** "5%", "1.1×", "80% of each quota", "3 retries": `%` and `×` join the value, with what follows them. */
export function formatThreshold(t: Pick<Threshold, 'value' | 'unit'>): string {
  return /^[%×]/.test(t.unit) ? `${t.value}${t.unit}` : `${t.value} ${t.unit}`
}

export interface Rendered<T> {
  value: T & { thresholds: ThresholdUse[] }
  used: Set<string>
}

/** Renders every string inside `item`; unknown names are reported against `file` and the field path. */
export function renderThresholds<T>(
  file: string,
  item: T,
  defined: ReadonlyMap<string, Threshold>,
  issues: BuildIssue[],
): Rendered<T> {
  const used = new Set<string>()
  const walk = (data: unknown, path: string): unknown => {
    if (typeof data === 'string')
      return data.replace(REFERENCE, (whole, name: string) => {
        const t = defined.get(name)
        if (!t) {
          issues.push({
            file,
            field: path || '-',
            problem: `unknown threshold "${name}"`,
            allowed: `a name defined in ${THRESHOLDS_FILE}`,
          })
          return whole
        }
        used.add(name)
        return formatThreshold(t)
      })
    if (Array.isArray(data)) return data.map((v, i) => walk(v, path ? `${path}.${i}` : String(i)))
    if (data && typeof data === 'object')
      return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]))
    return data
  }
  const rendered = walk(item, '') as T
  const thresholds = [...used].sort().map((name) => {
    const t = defined.get(name) as Threshold
    return { name, value: t.value, unit: t.unit, ...(t.relative_to ? { relative_to: t.relative_to } : {}) }
  })
  return { value: { ...rendered, thresholds }, used }
}

/** The labels a threshold's value may carry: a cited source, or our own reasoning (or arithmetic). */
const BASIS_LABELS = ['RESEARCH', 'ANALYSIS', 'MODELED'] as const

/**
 * Every number has a basis: a RESEARCH value cites its source (source_url, read_on and the sentence
 * it rests on, basis_quote); an ANALYSIS or MODELED value gives its reasoning in `why`. Any other
 * label (a bare RECOMMENDATION, say) is a number with neither, and the build refuses it.
 */
export function checkBasis(t: Threshold, i: number, issues: BuildIssue[]) {
  const issue = (field: string, problem: string, allowed: string) =>
    issues.push({ file: THRESHOLDS_FILE, field: `${i}.${field}`, problem, allowed })
  if (!(BASIS_LABELS as readonly string[]).includes(t.label)) {
    issue(
      'label',
      `threshold "${t.name}" is labelled ${t.label}: a number with neither a cited source nor our reasoning`,
      'RESEARCH with source_url, read_on and basis_quote, or ANALYSIS (MODELED for arithmetic) with the reasoning in why',
    )
    return
  }
  if (t.label !== 'RESEARCH') return
  for (const field of ['source_url', 'read_on', 'basis_quote'] as const)
    if (t[field] === null)
      issue(
        field,
        `threshold "${t.name}" is labelled RESEARCH but has no ${field}`,
        'a RESEARCH value cites source_url, read_on and basis_quote (the sentence it rests on); otherwise label it ANALYSIS and give the reasoning in why',
      )
}

/**
 * A threshold worked out for an answered fact is a `%` share of an integer fact: anything else
 * cannot be multiplied by the answer (facts are checked once facts.yaml is read).
 */
export function checkRelative(
  t: Threshold,
  i: number,
  integerFacts: readonly string[] | undefined,
  issues: BuildIssue[],
) {
  if (!t.relative_to) return
  const issue = (field: string, problem: string, allowed: string) =>
    issues.push({ file: THRESHOLDS_FILE, field: `${i}.relative_to.${field}`, problem, allowed })
  if (t.unit !== '%')
    issue('fact', `threshold "${t.name}" is in "${t.unit}", not a share`, "unit '%' for a share of a fact")
  if (integerFacts && !integerFacts.includes(t.relative_to.fact))
    issue(
      'fact',
      `"${t.relative_to.fact}" is not an integer fact of facts.yaml`,
      integerFacts.join(', ') || 'an integer fact',
    )
}

/** Every threshold name is defined once, and every threshold has a basis (checkBasis). */
export function checkDefinitions(
  thresholds: readonly Threshold[],
  issues: BuildIssue[],
  integerFacts?: readonly string[],
): Map<string, Threshold> {
  const defined = new Map<string, Threshold>()
  thresholds.forEach((t, i) => {
    checkBasis(t, i, issues)
    checkRelative(t, i, integerFacts, issues)
    if (defined.has(t.name))
      issues.push({
        file: THRESHOLDS_FILE,
        field: `${i}.name`,
        problem: `threshold "${t.name}" is defined twice`,
        allowed: 'one definition per name; two situations that need different values are two names',
      })
    else defined.set(t.name, t)
  })
  return defined
}

/** Every defined threshold is used at least once. */
export function checkUnused(
  thresholds: readonly Threshold[],
  used: ReadonlySet<string>,
  issues: BuildIssue[],
) {
  thresholds.forEach((t, i) => {
    if (!used.has(t.name))
      issues.push({
        file: THRESHOLDS_FILE,
        field: `${i}.name`,
        problem: `threshold "${t.name}" is not used by any rule, playbook or gate`,
        allowed: `reference it as {{${t.name}}} or remove it`,
      })
  })
}

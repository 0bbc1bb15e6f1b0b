/**
 * Check specs: the action vocabulary (content/actions.yaml against ACTIONS) and each gate's and
 * rule's `check_spec` against its prose check: the thresholds it lists are exactly the {{names}}
 * the check, the comparison and the inputs use (FORMAT.md, "A check_spec").
 */
import type { ActionEntry, CheckSpec } from '../../schema/content.js'
import { ACTIONS } from '../../schema/vocabulary.js'
import type { BuildIssue } from '../stages/issues.js'

export const ACTIONS_FILE = 'actions.yaml'

const REFERENCE = /\{\{\s*([^{}\s]+)\s*\}\}/g

/** The {{names}} used in these texts, in order of first use. */
export function thresholdNames(...texts: string[]): string[] {
  const names: string[] = []
  for (const text of texts)
    for (const m of text.matchAll(REFERENCE)) if (m[1] && !names.includes(m[1])) names.push(m[1])
  return names
}

/** actions.yaml lists exactly the ACTIONS of schema/vocabulary.ts, once each, in the same order. */
export function actionListBreaks(entries: readonly ActionEntry[]): Omit<BuildIssue, 'file'>[] {
  const listed = entries.map((e) => e.action)
  if (listed.join(',') === ACTIONS.join(',')) return []
  const missing = ACTIONS.filter((a) => !listed.includes(a))
  return [
    {
      field: '-',
      problem: `the actions listed (${listed.join(', ')}) differ from the vocabulary${missing.length ? `; missing: ${missing.join(', ')}` : ''}`,
      allowed: `exactly ${ACTIONS.join(', ')}, in that order (schema/vocabulary.ts ACTIONS)`,
    },
  ]
}

/**
 * `thresholds` names exactly the thresholds used in the prose check, `pass_when` and the inputs'
 * `read_with`: a name used but not listed, or listed but not used, is refused.
 */
export function specThresholdBreaks(
  field: string,
  check: string,
  spec: CheckSpec,
): Omit<BuildIssue, 'file'>[] {
  const used = thresholdNames(check, spec.pass_when, ...spec.inputs.map((i) => i.read_with))
  const breaks: Omit<BuildIssue, 'file'>[] = []
  for (const name of used)
    if (!spec.thresholds.includes(name))
      breaks.push({
        field: `${field}.thresholds`,
        problem: `{{${name}}} is used in the check but not listed`,
        allowed: `thresholds: [${used.join(', ')}]`,
      })
  for (const name of spec.thresholds)
    if (!used.includes(name))
      breaks.push({
        field: `${field}.thresholds`,
        problem: `"${name}" is listed but the check, pass_when and inputs never use {{${name}}}`,
        allowed: `thresholds: [${used.join(', ')}]`,
      })
  return breaks
}

/**
 * Every number an agent is told to enforce is a named threshold: a duration, share, factor or count
 * written as a bare number in a rule's constraint, a gate's check or a playbook step is refused, so
 * two items can never state different values for one concept by accident.
 */
import type { CheckSpec } from '../../schema/content.js'
import type { BuildIssue } from '../stages/issues.js'

/** A number with a unit an agent would enforce: "7 days", "20%", "1.5x", "10 hosts". 0 and 100% are absolutes, not limits. */
const INLINE_LIMIT =
  /(?<![\w.<{-])(\d+(?:[.,]\d+)?)(?:-| )?(%|×|x\b|minutes?\b|min\b|hours?\b|h\b|days?\b|seconds?\b|s\b|ms\b|hosts?\b|percent\b|percentage\b|months?\b)/g

/** A check_spec's comparison and the way each input is read are instructions too. */
const specTexts = (field: string, spec: CheckSpec): [string, string][] => [
  [`${field}.pass_when`, spec.pass_when],
  ...spec.inputs.map((input, i): [string, string] => [`${field}.inputs.${i}.read_with`, input.read_with]),
]

/** The fields whose text is an instruction to an agent, by kind of item. */
const ENFORCED: Record<'rule' | 'gate' | 'playbook', (item: Record<string, unknown>) => [string, string][]> =
  {
    rule: (r) => {
      const c = r.constraint as { statement: string; check: string; check_spec: CheckSpec }
      return [
        ['rule', r.rule as string],
        ['constraint.statement', c.statement],
        ['constraint.check', c.check],
        ...specTexts('constraint.check_spec', c.check_spec),
      ]
    },
    gate: (g) => [
      ['title', g.title as string],
      ['check', g.check as string],
      ...specTexts('check_spec', g.check_spec as CheckSpec),
    ],
    playbook: (p) =>
      (p.steps as { do: string; done_when: string }[]).flatMap((s, i): [string, string][] => [
        [`steps.${i}.do`, s.do],
        [`steps.${i}.done_when`, s.done_when],
      ]),
  }

export function inlineLimitBreaks(
  file: string,
  kind: keyof typeof ENFORCED,
  item: Record<string, unknown>,
): BuildIssue[] {
  const issues: BuildIssue[] = []
  for (const [field, text] of ENFORCED[kind](item))
    for (const match of text.replace(/\{\{[^}]*\}\}/g, '').matchAll(INLINE_LIMIT)) {
      if (match[1] === '0' || (match[1] === '100' && match[2] === '%')) continue
      issues.push({
        file,
        field,
        problem: `"${match[0]}" is a number an agent must enforce, written inline`,
        allowed: 'a {{threshold-name}} defined once in thresholds.yaml (name, value, unit, why)',
      })
    }
  return issues
}

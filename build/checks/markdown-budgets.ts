/**
 * The Markdown an agent loads must fit where agents load it: the build renders the real answers
 * through the gateway's own preparation (the bytes a buyer is sold) and refuses content over a
 * budget (schema/markdown.ts MARKDOWN_BUDGET).
 */
import { PREPARE } from '../../gateway/datasets/answers.js'
import type { Filters } from '../../gateway/datasets/query.js'
import type { BundleData } from '../../schema/datasets.js'
import { MARKDOWN_BUDGET, SKILL_LIMITS } from '../../schema/markdown.js'
import type { Scenario } from '../../schema/scenario.js'
import type { BuildIssue } from '../stages/issues.js'
import { skillHeaderBreaks } from './skill-headers.js'

/** The routine deploy issue 29 names: a few stateless hosts, nothing one-way, no emergency. */
export const ROUTINE_DEPLOY: Filters = {
  action: 'deploy',
  emergency: 'false',
  targets: '3',
  stateful: 'false',
  one_way_changes: 'false',
}

/** The sold Markdown of one route and filter set, or undefined when the route refuses it. */
export function soldMarkdown(
  data: BundleData,
  route: 'lessons' | 'checklist' | 'playbooks' | 'preview',
  filters: Filters,
  format: 'agents-md' | 'skill' = 'agents-md',
) {
  const prepare = PREPARE[route]
  if (!prepare) throw new Error(`no route ${route}`)
  const prepared = prepare(data, { ...filters, format }, Date.now())
  return prepared.ok ? prepared.markdown?.() : undefined
}

const bytes = (s: string) => new TextEncoder().encode(s).length

export function markdownBudgetIssues(data: BundleData): BuildIssue[] {
  const measured = [
    ['the routine deploy gates', soldMarkdown(data, 'checklist', ROUTINE_DEPLOY), MARKDOWN_BUDGET.situation],
    [
      'the routine deploy rules',
      soldMarkdown(data, 'lessons', ROUTINE_DEPLOY),
      MARKDOWN_BUDGET.situationRules,
    ],
    [
      'the routine deploy gates and rules in one file',
      soldMarkdown(data, 'checklist', { ...ROUTINE_DEPLOY, include: 'rules' }),
      MARKDOWN_BUDGET.wholeAnswer,
    ],
    ['the standing instructions', soldMarkdown(data, 'preview', {}), MARKDOWN_BUDGET.standing],
    ['the whole lessons set', soldMarkdown(data, 'lessons', {}), MARKDOWN_BUDGET.wholeLessons],
  ] as const
  return measured.flatMap(([what, text, budget]) => {
    if (text === undefined) return [] // nothing applies: the route answers 404, nothing is sold
    const size = bytes(text)
    return size <= budget
      ? []
      : [
          {
            file: '(markdown)',
            field: what,
            problem: `${size} bytes as agents-md`,
            allowed: `at most ${budget} bytes (schema/markdown.ts MARKDOWN_BUDGET)`,
          },
        ]
  })
}

/**
 * Every skill the service can sell for the situations of content/scenarios/ (rules, and gates with
 * rules), the unsituated ones and the standing file: each header within the skill loaders' limits.
 */
export function skillIssues(data: BundleData, scenarios: readonly Scenario[]): BuildIssue[] {
  const situations: Filters[] = [
    {},
    ...scenarios.map((s) => ({
      action: [s.action].flat().join(','),
      ...Object.fromEntries(Object.entries(s.facts).map(([k, v]) => [k, String(v)])),
    })),
  ]
  const sold = [
    ['the standing instructions', soldMarkdown(data, 'preview', {}, 'skill')] as const,
    ...situations.flatMap((f) => [
      [`rules for ${JSON.stringify(f)}`, soldMarkdown(data, 'lessons', f, 'skill')] as const,
      [
        `gates and rules for ${JSON.stringify(f)}`,
        soldMarkdown(data, 'checklist', { ...f, include: 'rules' }, 'skill'),
      ] as const,
    ]),
  ]
  return sold.flatMap(([what, text]) =>
    text === undefined
      ? []
      : skillHeaderBreaks(text).map((problem) => ({
          file: '(markdown)',
          field: `skill header of ${what}`,
          problem,
          allowed: `name at most ${SKILL_LIMITS.name} characters, never ending in a hyphen; description at most ${SKILL_LIMITS.description}`,
        })),
  )
}

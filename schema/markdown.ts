/**
 * The rules, playbooks and gates as Markdown an agent loads: `agents-md` (plain Markdown for an
 * AGENTS.md) and `skill` (the same under a YAML header naming the skill and saying when to load
 * it). Written for an agent to obey: imperative lines, stable ids, each gate a checkbox with its
 * check, what to read, when it applies and what a failure means. The gateway renders paid answers
 * with it and the build holds the real content to the size budgets below.
 */
import type { PublishedGate, PublishedPlaybook, PublishedRule } from './datasets.js'
import type { AppliesBecause } from './situation.js'

export const FORMATS = ['json', 'agents-md', 'skill'] as const
export type Format = (typeof FORMATS)[number]
export type MarkdownFormat = Exclude<Format, 'json'>

/**
 * Size budgets, in bytes of UTF-8. Codex stops reading AGENTS.md files at 32 KiB combined (its
 * project_doc_max_bytes default), and a routine change's gates should fit in a small share of that.
 */
export const MARKDOWN_BUDGET = { situation: 8 * 1024, wholeLessons: 32 * 1024 } as const

export const MARKDOWN_CONTENT_TYPE = 'text/markdown; charset=utf-8'

type Situation = Record<string, string | number | boolean>

interface Situated {
  situation?: Situation
  applies_because?: Record<string, AppliesBecause>
}
export interface ChecklistAnswer extends Situated {
  phase?: string
  checklist: PublishedGate[]
}
export interface RulesAnswer extends Situated {
  topic?: string
  rules: PublishedRule[]
}
export interface PlaybooksAnswer {
  topic?: string
  playbooks: PublishedPlaybook[]
}

/** One line of text: Markdown that an agent reads as one instruction (no hard line breaks inside). */
const line = (s: string) => s.replace(/\s+/g, ' ').trim()

const describe = (s: Situation | undefined) =>
  s && Object.keys(s).length
    ? Object.entries(s)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')
    : undefined

/** Why an item applies, and the question that would drop it when one was left unanswered. */
function appliesLine(appliesTo: readonly string[], why: AppliesBecause | undefined): string {
  if (!why) return `Applies to: ${appliesTo.join(', ')}.`
  const matched = Object.entries(why.matched).map(([k, v]) => `${k}=${v}`)
  const base = `Applies because: ${[why.action ?? 'any action', ...matched].join(', ')}.`
  if (!why.unanswered?.length) return base
  const open = why.unanswered.map((u) => {
    const drop = u.drops_if === undefined ? '' : ` (answer ${dropText(u.drops_if)} to drop this)`
    return `${u.fact}: ${line(u.question)}${drop}`
  })
  return `${base} Kept until answered: ${open.join('; ')}`
}

function dropText(d: NonNullable<AppliesBecause['unanswered']>[number]['drops_if']): string {
  if (typeof d === 'boolean') return String(d)
  if (Array.isArray(d)) return d.join(' or ')
  const parts = [
    d?.at_least !== undefined && `at least ${d.at_least}`,
    d?.at_most !== undefined && `at most ${d.at_most}`,
  ]
  return parts.filter(Boolean).join(' and ')
}

const thresholdLine = (ts: PublishedGate['thresholds']) =>
  ts.length
    ? `Thresholds: ${ts.map((t) => `${t.name} = ${t.value}${/^[%×]/.test(t.unit) ? '' : ' '}${t.unit}`).join('; ')}.`
    : ''

function gateLines(g: PublishedGate, why: AppliesBecause | undefined, revert: boolean): string[] {
  const spec = g.check_spec
  // A revert is never held back: its gates read the target before it and the outcome after it, so
  // a failure means the revert is not finished, not that it waits.
  const failure = revert
    ? `If it fails or an input cannot be read: the revert is not done; tell ${spec.exception_approver} at once.`
    : spec.on_fail === 'block'
      ? `If it fails or an input cannot be read: block, do not go ahead; only ${spec.exception_approver} may decide otherwise.`
      : `If it fails or an input cannot be read: defer, go ahead only once ${spec.exception_approver} accepts the risk in writing.`
  return [
    `- [ ] \`${g.id}\` (${spec.on_fail}): ${line(g.title)}`,
    `  - Check: ${line(spec.pass_when)}.`,
    `  - Read: ${spec.inputs.map((i) => `${i.name}: ${line(i.read_with)}`).join('; ')}.`,
    `  - ${appliesLine(spec.applies_to, why)}`,
    `  - ${failure}`,
    ...(g.thresholds.length ? [`  - ${thresholdLine(g.thresholds)}`] : []),
  ]
}

function ruleLines(r: PublishedRule, why: AppliesBecause | undefined, revert: boolean): string[] {
  const spec = r.constraint.check_spec
  const i = r.incident
  // The statement carries the check with each threshold's value and unit written in (the JSON form
  // names them); the lines after it say where it applies, who may waive it, and where it was learned.
  return [
    `### \`${r.id}\`: ${line(r.title)}`,
    '',
    line(r.constraint.statement),
    '',
    revert
      ? `- ${appliesLine(spec.applies_to, why)} Cannot check it: tell ${spec.exception_approver}; never hold the revert for it.`
      : `- ${appliesLine(spec.applies_to, why)} Cannot check it: stop; only ${spec.exception_approver} may waive it.`,
    `- Incident: ${i.organisation}, ${i.date}: ${line(i.title)}. ${i.postmortem_url}`,
    '',
  ]
}

function playbookLines(p: PublishedPlaybook): string[] {
  return [
    `### \`${p.id}\`: ${line(p.title)}`,
    '',
    `When: ${line(p.when)}`,
    '',
    ...p.steps.map((s, n) => `${n + 1}. ${line(s.do)} Done when: ${line(s.done_when)}`),
    '',
    `Rules it applies: ${p.applies_rules.map((id) => `\`${id}\``).join(', ')}.`,
    '',
  ]
}

interface Document {
  /** The skill's name: lowercase words joined by hyphens. */
  name: string
  title: string
  /** When to load it, in one sentence (a skill's `description`). */
  whenToLoad: string
  preamble: string[]
  body: string[]
}

function render(format: MarkdownFormat, doc: Document): string {
  const text = [`# ${doc.title}`, '', ...doc.preamble, '', ...doc.body].join('\n').replace(/\n{3,}/g, '\n\n')
  if (format === 'agents-md') return `${text.trimEnd()}\n`
  const header = [
    '---',
    `name: ${doc.name}`,
    `description: ${JSON.stringify(line(doc.whenToLoad))}`,
    '---',
    '',
  ]
  return `${header.join('\n')}${text.trimEnd()}\n`
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

export function checklistMarkdown(format: MarkdownFormat, a: ChecklistAnswer): string {
  const where = describe(a.situation)
  const action = a.situation?.action
  return render(format, {
    name: slug(`preship-gates-${action ?? 'all'}`).slice(0, 64),
    title: `Pre-ship gates${action ? ` for ${action}` : ''}${a.phase ? ` (${a.phase})` : ''}`,
    whenToLoad: `Load before you ${action ? `run a ${action} change` : 'change production'}${where ? ` in this situation: ${where}` : ''}; it lists the gates to pass first, each with its check and what a failure means.`,
    preamble: [
      ...(where ? [`Situation: ${where}.`, ''] : []),
      action === 'revert'
        ? `Revert now, to the last known-good state, in one step. The gates below (${a.checklist.length}) read only what to revert to before it and its outcome after it; none of them waits, stages or asks for approval.`
        : `Before the change, check every gate below (${a.checklist.length}). Read each input listed; an input you cannot read counts as a failed check. \`block\`: a failed gate stops the change. \`defer\`: the change goes ahead only once the named approver accepts the risk. Never approve an exception yourself. None of these gates may slow a revert to the last known-good state.`,
    ],
    body: a.checklist.flatMap((g) => gateLines(g, a.applies_because?.[g.id], action === 'revert')),
  })
}

export function rulesMarkdown(format: MarkdownFormat, a: RulesAnswer): string {
  const where = describe(a.situation)
  return render(format, {
    name: slug(`engineering-rules-${a.situation?.action ?? a.topic ?? 'all'}`).slice(0, 64),
    title: `Engineering rules${a.situation?.action ? ` for ${a.situation.action}` : ''}${a.topic ? ` on ${a.topic}` : ''}`,
    whenToLoad: `Load when you plan or run a production change${where ? ` (${where})` : ''}; each rule says what to do or refuse and how to check it, learned from a real incident.`,
    preamble: [
      ...(where ? [`Situation: ${where}.`, ''] : []),
      `Obey each rule below (${a.rules.length}). Each names its check and the real incident it was learned from.`,
    ],
    body: a.rules.flatMap((r) => ruleLines(r, a.applies_because?.[r.id], a.situation?.action === 'revert')),
  })
}

export function playbooksMarkdown(format: MarkdownFormat, a: PlaybooksAnswer): string {
  return render(format, {
    name: slug(`engineering-playbooks-${a.topic ?? 'all'}`).slice(0, 64),
    title: `Playbooks${a.topic ? ` on ${a.topic}` : ''}`,
    whenToLoad:
      'Load when a production change went bad or before a destructive bulk operation; each playbook gives ordered steps and how to tell each is done.',
    preamble: [
      `Follow the steps of the playbook that matches the situation, in order (${a.playbooks.length}).`,
    ],
    body: a.playbooks.flatMap(playbookLines),
  })
}

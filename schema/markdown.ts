/**
 * The rules, playbooks and gates as Markdown an agent loads: `agents-md` (plain Markdown for an
 * AGENTS.md) and `skill` (the same under a YAML header naming the skill and saying when to load
 * it). Written for an agent to obey: imperative lines, stable ids, each gate a checkbox with its
 * check, what to read, when it applies and what a failure means. The gateway renders paid answers
 * with it and the build holds the real content to the size budgets below.
 */
import type { GateTime } from './content.js'
import type { PublishedGate, PublishedPlaybook, PublishedRule } from './datasets.js'
import type { AppliesBecause } from './situation.js'

export const FORMATS = ['json', 'agents-md', 'skill'] as const
export type Format = (typeof FORMATS)[number]
export type MarkdownFormat = Exclude<Format, 'json'>

/**
 * Size budgets, in bytes of UTF-8. Codex stops reading AGENTS.md files at 32 KiB combined, and a
 * routine change's gates should fit in a small share of that (notes/anchors-4.md §5).
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

/** Whether the situation may be an emergency: said so, or not said (an emergency path then shows). */
const mayBeEmergency = (s: Situation | undefined) => s?.emergency !== false && s?.emergency !== 'false'

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

/** What a failed gate means, by when it is checked: only a before-check can hold a change back. */
function failureLine(g: PublishedGate, revert: boolean): string {
  const spec = g.check_spec
  const who = spec.exception_approver
  const head = 'If it fails or an input cannot be read:'
  // A revert is never held back: its gates read what to revert to and the outcome after it, so a
  // failure means the revert has not finished, never that it waits.
  if (revert)
    return `${head} the revert has not finished; keep reverting, never wait, and tell ${who} at once.`
  if (g.when === 'after')
    return spec.on_fail === 'block'
      ? `${head} the change is not done: roll it back or fix it forward, and tell ${who} at once.`
      : `${head} tell ${who}, who decides in writing whether the change stays.`
  if (g.when === 'between-stages')
    return spec.on_fail === 'block'
      ? `${head} do not widen; hold, or roll back the stages done; only ${who} may decide otherwise.`
      : `${head} widen only once ${who} accepts the risk in writing.`
  return spec.on_fail === 'block'
    ? `${head} block, do not go ahead; only ${who} may decide otherwise.`
    : `${head} defer, go ahead only once ${who} accepts the risk in writing.`
}

function gateLines(g: PublishedGate, why: AppliesBecause | undefined, revert: boolean, emergency: boolean) {
  const spec = g.check_spec
  return [
    `- [ ] \`${g.id}\` (${spec.on_fail}): ${line(g.title)}`,
    `  - Check: ${line(spec.pass_when)}.`,
    `  - Read: ${spec.inputs.map((i) => `${i.name}: ${line(i.read_with)}`).join('; ')}.`,
    ...(g.in_an_emergency && emergency ? [`  - In an emergency: ${line(g.in_an_emergency)}`] : []),
    `  - ${appliesLine(spec.applies_to, why)}`,
    `  - ${failureLine(g, revert)}`,
    ...(g.thresholds.length ? [`  - ${thresholdLine(g.thresholds)}`] : []),
  ]
}

/** The three times a gate is checked, in the order a change meets them, with what each group asks. */
const GATE_GROUPS: { when: GateTime; heading: string; intro: string }[] = [
  {
    when: 'before',
    heading: 'Before the change',
    intro: 'Check these before you start; a `block` that fails means the change does not start.',
  },
  {
    when: 'between-stages',
    heading: 'Between stages',
    intro:
      'Check these after each stage and before the change widens to the next; a failure means do not widen.',
  },
  {
    when: 'after',
    heading: 'After the change',
    intro:
      'Check these once the change is in place. They are not preconditions: never wait for them before the change, since they read its outcome; a failure means the change is not done.',
  },
]

/** The gates in their three groups, each group under its heading; empty groups are left out. */
function groupedGates(gates: readonly PublishedGate[], lines: (g: PublishedGate) => string[]): string[] {
  return GATE_GROUPS.flatMap(({ when, heading, intro }) => {
    const group = gates.filter((g) => g.when === when)
    return group.length ? [`## ${heading} (${group.length})`, '', intro, '', ...group.flatMap(lines), ''] : []
  })
}

function ruleLines(r: PublishedRule, why: AppliesBecause | undefined, revert: boolean, emergency: boolean) {
  const spec = r.constraint.check_spec
  const i = r.incident
  // The statement carries the check with each threshold's value and unit written in (the JSON form
  // names them); the lines after it say where it applies, who may waive it, and where it was learned.
  return [
    `### \`${r.id}\`: ${line(r.title)}`,
    '',
    line(r.constraint.statement),
    '',
    ...(r.in_an_emergency && emergency ? [`- In an emergency: ${line(r.in_an_emergency)}`] : []),
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
    whenToLoad: `Load before you ${action ? `run a ${action} change` : 'change production'}${where ? ` in this situation: ${where}` : ''}; it lists the gates to check before the change, between its stages and after it, each with its check and what a failure means.`,
    preamble: [
      ...(where ? [`Situation: ${where}.`, ''] : []),
      action === 'revert'
        ? `Revert now, to the last known-good state, in one step. The gates below (${a.checklist.length}) read only what to revert to and the revert's outcome; none of them waits, stages or asks for approval.`
        : `The gates below (${a.checklist.length}) are grouped by when each is checked: before the change, between its stages, after it. Read each input listed; an input you cannot read counts as a failed check. \`block\`: a failure stops the change (or, after it, means it is not done). \`defer\`: the named approver must accept the risk in writing. Never approve an exception yourself. None of these gates may slow a revert to the last known-good state.`,
    ],
    body: groupedGates(a.checklist, (g) =>
      gateLines(g, a.applies_because?.[g.id], action === 'revert', mayBeEmergency(a.situation)),
    ),
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
    body: a.rules.flatMap((r) =>
      ruleLines(r, a.applies_because?.[r.id], a.situation?.action === 'revert', mayBeEmergency(a.situation)),
    ),
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

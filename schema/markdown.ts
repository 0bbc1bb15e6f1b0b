/**
 * The rules, playbooks and gates as Markdown an agent loads: `agents-md` (plain Markdown for an
 * AGENTS.md) and `skill` (the same under a YAML header naming the skill and saying when to load
 * it). Written for an agent to obey: imperative lines, stable ids, each gate a checkbox with its
 * check, what to read, when it applies and what a failure means. The gateway renders paid answers
 * with it and the build holds the real content to the size budgets below.
 */
import type { GateTime } from './content.js'
import type { BundleData, PublishedGate, PublishedPlaybook, PublishedRule } from './datasets.js'
import { sha256Text } from './sha256-text.js'
import type { AppliesBecause } from './situation.js'
import type { WorkedThreshold } from './worked-thresholds.js'

export const FORMATS = ['json', 'agents-md', 'skill'] as const
export type Format = (typeof FORMATS)[number]
export type MarkdownFormat = Exclude<Format, 'json'>

/**
 * Size budgets, in bytes of UTF-8. Codex stops reading AGENTS.md files at 32 KiB combined (its
 * project_doc_max_bytes default), and a routine change's gates should fit in a small share of that.
 */
export const MARKDOWN_BUDGET = {
  situation: 8 * 1024,
  /**
   * A situation's rules: the foundational rules that apply are counted since issue 34 (about 3.7 KB
   * for a deploy, the staging and bounding rules), on top of the paid ones the 8 KiB was set for.
   */
  situationRules: 10 * 1024,
  /** The standing instructions (preview as agents-md): kept in AGENTS.md beside a project's own. */
  standing: 12 * 1024,
  /** One file for one change: its gates and its rules together (include=rules). */
  wholeAnswer: 16 * 1024,
  wholeLessons: 32 * 1024,
} as const

/** A skill's limits as agent skill loaders state them; the build refuses a header past them. */
export const SKILL_LIMITS = { name: 64, description: 1024 } as const

export const MARKDOWN_CONTENT_TYPE = 'text/markdown; charset=utf-8'

type Situation = Record<string, string | number | boolean>

/** Where an answer came from, printed at its top so a saved copy can be checked and refreshed. */
export interface Origin {
  service: string
  version: string
  /** The newest day the content was read from its sources (YYYY-MM-DD). */
  content_date: string
  /** The request that fetches this same answer again, e.g. `GET /v1/fde-lessons?...`. */
  fetch: string
  /** The MCP tool that sells the same answer, if any. */
  mcp_tool?: string
}

interface PlaybookRef {
  id: string
  title: string
  when: string
}

/** One line of a ranked answer (gateway/datasets/ranking.ts). */
interface RankedLine {
  kind: string
  id: string
  title: string
  level: string
  why: string
}

/** A trap in full, as a situated answer carries it (schema/traps.ts). */
interface TrapItem {
  id: string
  technology: string
  versions?: string
  severity: string
  trap: string
  probe: string
  stop_if: string
  safe_path: string
  source_url: string
  quote: string
}

interface Situated {
  situation?: Situation
  applies_because?: Record<string, AppliesBecause>
  playbooks?: PlaybookRef[]
  worked_out?: Record<string, WorkedThreshold[]>
  /** With `technologies`: the names as bound, and "no traps on file for X" notes. */
  technologies?: { asked: string; notes: string[] }
  traps?: TrapItem[]
  limit?: number
  ranked?: RankedLine[]
  also_consider?: RankedLine[]
  /** Unanswered facts whose answers would add items (gateway/datasets/do-no-harm.ts). */
  questions?: { fact: string; question: string; adds: number }[]
  /** Items left out on the fast path or for not fitting the technologies named. */
  left_out?: string[]
  /** What the plan must say that no item can know (gateway/datasets/plan-points.ts). */
  plan_points?: { id: string; point: string }[]
}
export interface ChecklistAnswer extends Situated {
  phase?: string
  checklist: PublishedGate[]
  /** include=rules: the rules of the same situation. */
  rules?: PublishedRule[]
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
/** Whether the situation says it is an emergency: the emergency path is then read before the routine check. */
const saysEmergency = (s: Situation | undefined) => s?.emergency === true || s?.emergency === 'true'

/** Why an item applies; an unanswered fact is named with the answer that would drop the item. */
function appliesLine(appliesTo: readonly string[], why: AppliesBecause | undefined): string {
  if (!why) return `Applies to: ${appliesTo.join(', ')}.`
  const matched = Object.entries(why.matched).map(([k, v]) => `${k}=${v}`)
  const actions = why.actions ?? [why.action ?? 'any action']
  const base = `Applies because: ${[actions.join(' + '), ...matched].join(', ')}.`
  if (!why.unanswered?.length) return base
  // The questions themselves are printed once, in the preamble (factsToAnswer).
  const open = why.unanswered.map((u) =>
    u.drops_if === undefined ? u.fact : `${u.fact} (${dropText(u.drops_if)} drops it)`,
  )
  return `${base} Kept until you answer: ${open.join('; ')}.`
}

/**
 * The questions whose answers would add items (do no harm: an unanswered fact keeps only what
 * guards irreversible harm; the rest wait for the answer), once per document.
 */
function factsToAnswer(
  questions: readonly { fact: string; question: string; adds: number }[] | undefined,
): string[] {
  if (!questions?.length) return []
  return [
    `Answer these and ask again to see the items they would add: ${questions.map((q) => `\`${q.fact}\` (${q.adds} more): ${line(q.question)}`).join(' ')}`,
    '',
  ]
}

/** What the plan must say that no item can know: first in the body, one checkbox each. */
function planPointLines(points: Situated['plan_points']): string[] {
  if (!points?.length) return []
  return [
    `## Your plan must also say (${points.length})`,
    '',
    'No item below can know these: they are your own situation. Write each into the plan.',
    '',
    ...points.map((p) => `- [ ] ${line(p.point)} (\`${p.id}\`)`),
    '',
  ]
}

/** An item's thresholds worked out for the answered facts, beside the rule as written. */
function workedLine(
  worked: readonly WorkedThreshold[] | undefined,
  all: PublishedGate['thresholds'],
): string[] {
  if (!worked?.length) return []
  const others = all.filter((t) => !worked.some((w) => w.name === t.name))
  // A count of stages cannot exceed the targets: with fewer targets, each target is one stage.
  const targets = worked.find((w) => w.fact === 'targets')?.answered
  const fewer = (t: (typeof all)[number]) => t.unit === 'stages' && targets !== undefined && targets < t.value
  const written = others.map(
    (t) =>
      `${t.name} = ${t.value}${/^[%×]/.test(t.unit) ? '' : ' '}${t.unit}${fewer(t) ? ` (${targets} targets: one stage each)` : ''}`,
  )
  const counts = worked.map((w) => `${w.text} (${w.name}, ${w.value}${w.unit} of ${w.fact}=${w.answered})`)
  return [`- Worked out for this situation: ${[...counts, ...written].join('; ')}.`]
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

/**
 * An input that cannot be read differs from one the change does not have: a bucket rule has no
 * app code to compare owners in. Absent is no failure, so a literal agent does not stall on it.
 * Said once where an answer says how to read its checks, not under every item (the budgets).
 */
const ABSENT_INPUT =
  'An input this change does not have (nothing of its kind exists here) is no failure: say so in the plan.'

/** What a failed gate means, by when it is checked: only a before-check can hold a change back. */
function failureLine(g: PublishedGate, revert: boolean, advice: boolean): string {
  const spec = g.check_spec
  const who = spec.exception_approver
  const head = 'If it fails or an input cannot be read:'
  // `block` is kept for harm that cannot be undone; every other gate is advice.
  if (advice && !revert)
    return `If it fails: advice, the harm it guards against can be undone; weigh it, tell ${who}, go on. An input you cannot read is noted in the plan.`
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

/** What every item's lines need from the answer around it. */
interface Context {
  because?: Record<string, AppliesBecause>
  worked?: Record<string, WorkedThreshold[]>
  revert: boolean
  emergency: boolean
  /** Gates whose failure is advice (their harm can be undone); absent: as the content says. */
  advice?: ReadonlySet<string>
  /** Rules whose harm can be undone (advice: an unreadable input is noted); absent: every rule stops. */
  adviceRules?: ReadonlySet<string>
  /** Said to be an emergency: the emergency path comes first, above the routine wording it overrides. */
  first?: boolean
}

function gateLines(g: PublishedGate, c: Context) {
  const spec = g.check_spec
  const advice = c.advice?.has(g.id) === true
  const urgent = g.in_an_emergency && c.emergency ? [`  - In an emergency: ${line(g.in_an_emergency)}`] : []
  return [
    `- [ ] \`${g.id}\` (${advice ? 'advice' : spec.on_fail}): ${line(g.title)}`,
    ...(c.first ? urgent : []),
    `  - Check${c.first && urgent.length ? ' (routine, when not an emergency)' : ''}: ${line(spec.pass_when)}.`,
    `  - Read: ${spec.inputs.map((i) => `${i.name}: ${line(i.read_with)}`).join('; ')}.`,
    ...(c.first ? [] : urgent),
    `  - ${appliesLine(spec.applies_to, c.because?.[g.id])}`,
    `  - ${failureLine(g, c.revert, advice)}`,
    ...(g.thresholds.length ? [`  - ${thresholdLine(g.thresholds)}`] : []),
    ...workedLine(c.worked?.[g.id], g.thresholds).map((l) => `  ${l}`),
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

/** What a rule that cannot be checked means: only harm that cannot be undone, outside an emergency, stops. */
function unreadableRule(r: PublishedRule, c: Context): string {
  const who = r.constraint.check_spec.exception_approver
  if (c.revert) return `Cannot check it: tell ${who}; never hold the revert for it.`
  if (c.first)
    return `Cannot check it in time: note it in the plan and tell ${who}; never hold the fix for it.`
  if (c.adviceRules?.has(r.id)) return `Cannot check it: advice; note it in the plan and tell ${who}.`
  return `Cannot check it: stop; only ${who} may waive it.`
}

function ruleLines(r: PublishedRule, c: Context): string[] {
  const spec = r.constraint.check_spec
  const i = r.incident
  const why = c.because?.[r.id]
  // The statement carries the check with each threshold's value and unit written in (the JSON form
  // names them); the lines after it say where it applies, who may waive it, and where it was learned.
  const urgent = r.in_an_emergency && c.emergency ? [`- In an emergency: ${line(r.in_an_emergency)}`] : []
  return [
    `### \`${r.id}\`: ${line(r.title)}${r.access === 'free' ? ' (foundational, free)' : ''}`,
    '',
    ...(c.first && urgent.length ? [...urgent, ''] : []),
    line(r.constraint.statement),
    '',
    ...(c.first ? [] : urgent),
    ...workedLine(c.worked?.[r.id], r.thresholds),
    `- ${appliesLine(spec.applies_to, why)} ${unreadableRule(r, c)}`,
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

/**
 * The opening lines: where the answer came from and how to check and refresh a saved copy. The
 * digest is of every byte after the provenance block, so it can be recomputed from the file itself.
 */
function provenance(origin: Origin, body: string): string {
  const mcp = origin.mcp_tool ? ` or MCP ${origin.mcp_tool}, same arguments` : ''
  return [
    `> ${origin.service} ${origin.version}, content of ${origin.content_date}; fetch again: ${origin.fetch}${mcp}.`,
    `> sha-256 of all text after this quote: ${sha256Text(body)}`,
    '',
    '',
  ].join('\n')
}

function render(format: MarkdownFormat, doc: Document, origin: Origin): string {
  const text = [`# ${doc.title}`, '', ...doc.preamble, '', ...doc.body].join('\n').replace(/\n{3,}/g, '\n\n')
  const body = `${text.trimEnd()}\n`
  if (format === 'agents-md') return `${provenance(origin, body)}${body}`
  const header = [
    '---',
    `name: ${doc.name}`,
    `description: ${JSON.stringify(line(doc.whenToLoad))}`,
    '---',
    '',
  ]
  return `${header.join('\n')}${provenance(origin, body)}${body}`
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/**
 * A skill's name: what it is and for which actions, then, for a situated answer, eight hex digits
 * of the situation, so two situations of one action are two skills (never one overwriting the
 * other). At most 64 characters, never ending in a hyphen.
 */
export function skillName(kind: string, situation: Situation | undefined, fallback: string): string {
  const where = describe(situation)
  const tag = where ? `-${sha256Text(where).slice(0, 8)}` : ''
  const stem = slug(`${kind}-${situation?.action ?? fallback}`)
    .slice(0, SKILL_LIMITS.name - tag.length)
    .replace(/-+$/, '')
  return `${stem}${tag}`
}

/** The note that tells a per-task file from standing instructions. */
function scopeNote(where: string | undefined): string[] {
  return where
    ? [
        'For this one task only: keep it with the task (a skill), not in AGENTS.md; ask again for the next change.',
        '',
      ]
    : ['The whole set, not fitted to one change: for one change, ask with its action and facts.', '']
}

/** The playbooks that fit the situation, named with where their steps are sold. */
function playbookNote(refs: readonly PlaybookRef[] | undefined): string[] {
  if (!refs?.length) return []
  return [
    `Playbook that fits this situation: ${refs.map((p) => `\`${p.id}\` (${line(p.title)}; when: ${line(p.when)})`).join('; ')}. Its steps: GET /v1/fde-playbooks or the MCP tool fde_playbook.`,
    '',
  ]
}

/** The names asked and, plainly, those with no trap on file; then the items in the order they rank. */
function rankedPreamble(a: Situated, orderLine = true): string[] {
  const names = a.technologies
    ? [
        `Technologies: ${a.technologies.asked}.${a.technologies.notes.length ? ` ${a.technologies.notes.map((n) => `${n[0]?.toUpperCase()}${n.slice(1)}.`).join(' ')}` : ''}`,
        '',
      ]
    : []
  if (!a.ranked?.length) return names
  const more = a.also_consider?.length ? `; ${a.also_consider.length} more under "Also consider"` : ''
  // The rules' own answer lists its items in this order already: only what was left out is said.
  if (!orderLine)
    return more
      ? [...names, `Most severe first, ${a.ranked.length} in full${more} (limit= raises it).`, '']
      : names
  // Each item's own lines below say why it is here ("Applies because", or the trap itself).
  return [
    ...names,
    `In order, what is known to apply first, then most severe (${a.ranked.length} in full${more}; ask with limit= for more): ${a.ranked.map((r) => `\`${r.id}\` (${r.level})`).join(', ')}.`,
    '',
  ]
}

/** The traps of the named technologies: what goes wrong, the read-only probe, when to stop, the safe path. */
/** When the probes run: before a planned change; in an emergency, never ahead of the step that stops the harm. */
function probeTiming(c: Context): string {
  if (c.revert)
    return 'Revert first. These probes read what the revert leaves behind and guide the fix that follows; none runs before the revert.'
  if (c.first)
    return 'In an emergency, take the step that stops the harm first. Run a probe before it only when it takes seconds and its "Stop if" would change that step; run the rest after. A result that matches "Stop if" means take the safe path; where a safe path stages or waits (in steps, after lag catches up, once capacity is added), that is for a planned change: now take its one step that stops the harm, and keep what it forbids.'
  return 'Run each probe before the change; it only reads. A result that matches "Stop if" means take the safe path instead of the obvious plan.'
}

function trapSection(traps: readonly TrapItem[] | undefined, c: Context): string[] {
  if (!traps?.length) return []
  return [
    `## Traps of the technologies named (${traps.length})`,
    '',
    probeTiming(c),
    '',
    ...traps.flatMap((t) => [
      `- [ ] \`${t.id}\` (${t.severity}; ${t.technology}${t.versions ? ` ${t.versions}` : ''}): ${line(t.trap)}`,
      `  - Probe first: \`${line(t.probe)}\``,
      `  - Stop if: ${line(t.stop_if)}`,
      `  - Safe path: ${line(t.safe_path)}`,
      `  - Source: ${t.source_url} ("${line(t.quote)}")`,
    ]),
    '',
  ]
}

/** The rules in the order they rank (most severe first), when the answer was ranked. */
function inRankOrder(rules: readonly PublishedRule[], ranked: readonly RankedLine[] | undefined) {
  if (!ranked?.length) return rules
  const place = (id: string) => {
    const i = ranked.findIndex((r) => r.kind === 'rule' && r.id === id)
    return i < 0 ? ranked.length : i
  }
  return [...rules].sort((a, b) => place(a.id) - place(b.id))
}

/**
 * The also-consider lines an answer prints with their title and why; the rest are named by id on
 * one line, in the same order, so a long list never buries the few that come first.
 */
export const ALSO_CONSIDER_LINES = 10

/** Everything else that applies, one line each: not dropped, only ranked below the limit. */
function alsoConsider(items: readonly RankedLine[] | undefined): string[] {
  if (!items?.length) return []
  const shown = items.slice(0, ALSO_CONSIDER_LINES)
  const rest = items.slice(ALSO_CONSIDER_LINES)
  return [
    `## Also consider (${items.length})`,
    '',
    ...shown.map((r) => `- \`${r.id}\` (${r.kind}, ${r.level}): ${line(r.title)}. ${line(r.why)}.`),
    ...(rest.length
      ? [
          `- ${rest.length} more, each less likely to fit this change (ask with limit= to have any in full): ${rest.map((r) => `\`${r.id}\``).join(', ')}.`,
        ]
      : []),
    '',
  ]
}

const contextOf = (a: Situated): Context => ({
  because: a.applies_because,
  worked: a.worked_out,
  revert: a.situation?.action === 'revert',
  emergency: mayBeEmergency(a.situation),
  first: saysEmergency(a.situation),
  // A ranked answer says which gates guard harm that can be undone: those read as advice.
  ...(a.ranked
    ? {
        advice: new Set(
          [...a.ranked, ...(a.also_consider ?? [])]
            .filter((r) => r.kind === 'gate' && r.why.startsWith('advice'))
            .map((r) => r.id),
        ),
        adviceRules: new Set(
          [...a.ranked, ...(a.also_consider ?? [])]
            .filter((r) => r.kind === 'rule' && r.level !== 'irreversible')
            .map((r) => r.id),
        ),
      }
    : {}),
})

export function checklistMarkdown(format: MarkdownFormat, a: ChecklistAnswer, origin: Origin): string {
  const where = describe(a.situation)
  const action = a.situation?.action
  const c = contextOf(a)
  const withRules = a.rules !== undefined
  const rules = a.rules ?? []
  return render(
    format,
    {
      name: skillName(withRules ? 'preship-gates-and-rules' : 'preship-gates', a.situation, 'all'),
      title: `${withRules ? 'Pre-ship gates and rules' : 'Pre-ship gates'}${action ? ` for ${action}` : ''}${a.phase ? ` (${a.phase})` : ''}`,
      whenToLoad: `Load before you ${action ? `run a ${action} change` : 'change production'}${where ? ` in this situation: ${where}` : ''}; it lists the gates to check before the change, between its stages and after it, each with its check and what a failure means${withRules ? ', then the rules that apply' : ''}.`,
      preamble: [
        ...(where ? [`Situation: ${where}.`, ''] : []),
        ...scopeNote(where),
        action === 'revert'
          ? `Revert now, to the last known-good state, in one step. The gates below (${a.checklist.length}) read only what to revert to and the revert's outcome; none of them waits, stages or asks for approval; \`block\` and \`defer\` only say who is told when one fails.`
          : `The gates below (${a.checklist.length}) are grouped by when each is checked: before the change, between its stages, after it. Read each input listed. \`block\` guards harm that cannot be undone: a failure, or an input you cannot read, stops the change (or, after it, means it is not done). ${ABSENT_INPUT} \`advice\`: the harm can be undone; weigh it and note in the plan what you could not read. \`defer\`: the named approver must accept the risk in writing. Never approve an exception yourself. None of these gates may slow a revert to the last known-good state.`,
        '',
        ...rankedPreamble(a),
        ...playbookNote(a.playbooks),
        ...factsToAnswer(a.questions),
      ],
      body: [
        ...planPointLines(a.plan_points),
        ...trapSection(a.traps, c),
        ...groupedGates(a.checklist, (g) => gateLines(g, c)),
        ...(withRules
          ? [
              `## Rules that apply (${rules.length})`,
              '',
              `Obey each rule below; each names its check and the real incident it was learned from. ${ABSENT_INPUT}`,
              '',
              ...rules.flatMap((r) => ruleLines(r, c)),
            ]
          : []),
        ...alsoConsider(a.also_consider),
      ],
    },
    origin,
  )
}

export function rulesMarkdown(format: MarkdownFormat, a: RulesAnswer, origin: Origin): string {
  const where = describe(a.situation)
  const c = contextOf(a)
  return render(
    format,
    {
      name: skillName('engineering-rules', a.situation, a.topic ?? 'all'),
      title: `Engineering rules${a.situation?.action ? ` for ${a.situation.action}` : ''}${a.topic ? ` on ${a.topic}` : ''}`,
      whenToLoad: `Load when you plan or run a production change${where ? ` (${where})` : ''}; each rule says what to do or refuse and how to check it, learned from a real incident.`,
      preamble: [
        ...(where ? [`Situation: ${where}.`, ''] : []),
        ...scopeNote(where),
        `Obey each rule below (${a.rules.length}). Each names its check and the real incident it was learned from. ${ABSENT_INPUT}`,
        '',
        ...rankedPreamble(a, false),
        ...playbookNote(a.playbooks),
        ...factsToAnswer(a.questions),
      ],
      body: [
        ...planPointLines(a.plan_points),
        ...trapSection(a.traps, c),
        ...inRankOrder(a.rules, a.ranked).flatMap((r) => ruleLines(r, c)),
        ...alsoConsider(a.also_consider),
      ],
    },
    origin,
  )
}

export function playbooksMarkdown(format: MarkdownFormat, a: PlaybooksAnswer, origin: Origin): string {
  return render(
    format,
    {
      name: slug(`engineering-playbooks-${a.topic ?? 'all'}`)
        .slice(0, SKILL_LIMITS.name)
        .replace(/-+$/, ''),
      title: `Playbooks${a.topic ? ` on ${a.topic}` : ''}`,
      whenToLoad:
        'Load when a production change went bad or before a destructive bulk operation; each playbook gives ordered steps and how to tell each is done.',
      preamble: [
        `Follow the steps of the playbook that matches the situation, in order (${a.playbooks.length}).`,
      ],
      body: a.playbooks.flatMap(playbookLines),
    },
    origin,
  )
}

/**
 * The standing instructions an agent keeps (AGENTS.md): nothing bound to one change. When to ask
 * this service and with which facts, how to read a situated answer, and the foundational rules,
 * which hold for every production change.
 */
export function standingMarkdown(
  format: MarkdownFormat,
  data: BundleData,
  origin: Origin,
  /** Asked with `technologies`: the traps on file for them, one line each, and the names with none. */
  asked?: Pick<Situated, 'technologies' | 'ranked'>,
): string {
  const { catalogue } = data
  const rules = data.preview.rules
  const ask = 'GET /v1/fde-preship-checklist?action=<action>&<fact>=<answer>&...&include=rules&format=skill'
  return render(
    format,
    {
      name: 'production-change-standing-rules',
      title: 'Standing instructions for production changes',
      whenToLoad:
        'Keep loaded whenever you may change production: when to fetch the checks for one change, which facts to send, how to read the answer, and the foundational rules.',
      preamble: [
        "These are standing instructions: nothing here is bound to one change or one situation. Keep them in AGENTS.md (or your agent's standing instructions).",
      ],
      body: [
        '## Before every production change, fetch its checks',
        '',
        `- Ask for that one change, with its action and the facts you can answer: \`${ask}\` (or the MCP tool fde_preship_checklist with the same arguments). One payment buys the gates and the rules that apply, foundational ones included.`,
        '- Save the answer as a skill for that task (`.claude/skills/<name>/SKILL.md`, `.agents/skills/<name>/SKILL.md`), never here: it is bound to its situation. Ask again for the next change.',
        '- A change that is several actions names them all (`action=dependency-upgrade,schema-change`); the answer is their union.',
        `- Name the technologies it touches too, the platform and what runs on it alike (\`technologies=postgresql@16,pgbouncer\`, \`gke,kubernetes\`; ids or aliases from /v1/catalogue, ${catalogue.technologies.length} covered): their known traps come with a read-only probe to run first and the safe path; a name with none on file is said so. Say the change in a few words (\`change=pg_upgrade to 17\`): the trap told in its words comes first.`,
        `- Actions: ${catalogue.actions.map((a) => `\`${a.action}\``).join(', ')} (the free /v1/catalogue says what each covers).`,
        ...(catalogue.changes.length
          ? [
              `- Common changes: ${catalogue.changes
                .map(
                  (c) =>
                    `${line(c.change)}: ${c.actions.join(' + ')}${
                      Object.keys(c.facts).length
                        ? ` (${Object.entries(c.facts)
                            .map(([k, v]) => `${k}=${v}`)
                            .join(', ')})`
                        : ''
                    }`,
                )
                .join('; ')}.`,
            ]
          : []),
        '- Facts to send (a fact you leave out keeps every check that depends on it):',
        ...catalogue.facts.map(
          (f) =>
            `  - \`${f.fact}\` (${f.type === 'enum' ? f.values.join(' | ') : f.type}): ${line(f.question)}`,
        ),
        '',
        '## How to read a situated answer',
        '',
        '- It opens with where it came from, its digest and the request that fetches it again.',
        '- Gates come in three groups: before the change (a `block` that fails stops it), between stages (a failure means do not widen), after the change (outcome checks, never preconditions; a failure means the change is not done).',
        '- `block` guards harm that cannot be undone: an input you cannot read stops it as a failure would. ' +
          ABSENT_INPUT +
          ' `advice`: weigh it and note in the plan what you could not read. `defer`: go ahead only once the named approver accepts the risk in writing. Never approve an exception yourself.',
        '- "Applies because" says which action(s) and facts brought an item; "Kept until you answer" names a fact you left out and the answer that drops the item.',
        '- "Worked out for this situation" turns a share into a count for your answered facts; "In an emergency" is the path to take when the change restores service now.',
        '- "Your plan must also say" lists what no item can know, because it is your own situation (its windows, owners, order and the signal that shows it worked): write each into the plan.',
        '- A revert to the last known-good state is never held back by any gate or rule. A playbook that fits the situation is named with where to get its steps.',
        '',
        ...(asked?.technologies
          ? [
              `## Traps on file for ${asked.technologies.asked} (${asked.ranked?.length ?? 0})`,
              '',
              ...asked.technologies.notes.map((n) => `- ${n[0]?.toUpperCase()}${n.slice(1)}.`),
              ...(asked.ranked ?? []).map((r) => `- \`${r.id}\` (${r.level}): ${line(r.title)}.`),
              '',
              'Their probes, stop conditions and safe paths come with the checklist for the change (technologies and action).',
              '',
            ]
          : []),
        `## Foundational rules (${rules.length}), for every production change`,
        '',
        ...rules.flatMap((r) => ruleLines(r, { revert: false, emergency: true })),
      ],
    },
    origin,
  )
}

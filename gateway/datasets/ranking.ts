/**
 * Short and ranked: a situated answer holds at most `limit` items (traps, gates and rules together),
 * most severe first, each with one line saying why it is here; the rest follow as one-line "also
 * consider" entries, so nothing that applies is lost, only moved down.
 *
 * Order: first what is known to apply (every condition answered) before what an unanswered fact
 * only keeps open, since a question the agent can answer is no reason to crowd out a known harm;
 * within each, most severe first: a trap's own severity (irreversible > outage > degraded), a gate's
 * or a rule's the harm it guards against (content/harm.yaml). At the
 * same level a trap (the named technology's own mechanism) comes before a gate before a rule, then
 * the content order. With `change`, the traps told best in the change's own words (at most
 * CHANGE_LEADS, each scoring at least half the best) come first of all: the trap this change walks
 * into outranks every general item; and a trap scoring under CHANGE_SHARE_IN_FULL of the best (none
 * when it shares no word) is one line under "also consider", never in full: a place in full goes to
 * what this change meets, and a catalogue with little for the change says so rather than filling
 * the places with the rest. The places in full that go to traps go to the traps the change tells
 * best: one told under half as well as the best ranks one severity level down (an irreversible
 * trap that shares one common noun with a routine deploy is not what that deploy meets).
 */
import type { PublishedGate, PublishedRule } from '../../schema/datasets.js'
import type { HarmBundle, HarmEntry } from '../../schema/harm.js'
import { LIMIT_DEFAULT, LIMIT_MAX } from '../../schema/routes.js'
import type { AppliesBecause } from '../../schema/situation.js'
import { SEVERITIES, type Severity } from '../../schema/traps.js'
import type { SelectedTrap } from './trap-selection.js'

export { LIMIT_DEFAULT, LIMIT_MAX }

export type RankedKind = 'trap' | 'gate' | 'rule'

/** One line of a ranked answer: what the item is, how severe, which actions brought it, and why. */
export interface RankedItem {
  kind: RankedKind
  id: string
  title: string
  level: Severity
  actions: string[]
  why: string
}

const KIND_ORDER: Record<RankedKind, number> = { trap: 0, gate: 1, rule: 2 }
/** The most traps the change's words lift above everything else. */
export const CHANGE_LEADS = 3
/**
 * With `change`, the share of the best trap's score a trap needs to be given in full; in an
 * emergency only the traps the change leads with are (each probe read costs time the fix needs).
 */
export const CHANGE_SHARE_IN_FULL = 1 / 4
const levelOrder = (s: Severity) => SEVERITIES.indexOf(s)
/** One line without its closing full stop, so a sentence can follow it. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/\.+$/, '')

/** Reads `limit`: absent is the default; anything but a whole number from 1 to LIMIT_MAX is refused. */
export function readLimit(raw: string | undefined): { limit: number; given: boolean } | { detail: string } {
  if (raw === undefined) return { limit: LIMIT_DEFAULT, given: false }
  const text = raw.trim()
  const n = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isInteger(n) || n < 1 || n > LIMIT_MAX)
    return {
      detail: `limit must be a whole number from 1 to ${LIMIT_MAX} (default ${LIMIT_DEFAULT}); got "${raw}"`,
    }
  return { limit: n, given: n !== LIMIT_DEFAULT }
}

function becauseText(why: AppliesBecause | undefined): { actions: string[]; text: string; held: boolean } {
  if (!why) return { actions: [], text: 'applies to every change of its kind', held: true }
  const actions = why.actions ?? (why.action ? [why.action] : [])
  const matched = Object.entries(why.matched).map(([k, v]) => `${k}=${v}`)
  const open = why.unanswered?.map((u) => u.fact) ?? []
  const text = [
    actions.length ? `for ${actions.join(' + ')}` : 'for any action',
    matched.length ? `as ${matched.join(', ')}` : '',
    open.length ? `kept until you answer ${open.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(', ')
  // Held unless an unanswered yes keeps it (`kubernetes`, `iac_plan`: the item needs the yes); an
  // unanswered fact taken as the routine case (`partly_rolled_out` no, `production` yes) holds.
  const held = !why.unanswered?.some((u) => u.drops_if === false && u.fact !== 'production')
  return { actions, text, held }
}

interface Candidate extends RankedItem {
  held: boolean
  /** Whether it may be given in full: false for a trap `change` does not lead with and scores too low for. */
  inFull: boolean
  order: number
  /** Its place among the traps the change's words lead with (0 first); Infinity for the rest. */
  lead: number
  /** How well the change tells it (0 for a gate or a rule): among traps, better told first. */
  score: number
}

/** Among the traps the change's words lead with, in their order; every other item after them. */
const byLead = (a: Candidate, b: Candidate) => (a.lead === b.lead ? 0 : a.lead < b.lead ? -1 : 1)

const scoreOf = (t: SelectedTrap) => t.matched?.score ?? 0
const bestScore = (traps: readonly SelectedTrap[]) => Math.max(0, ...traps.map(scoreOf))

/**
 * The ids of the traps the change's words lead with, best first. A change of several operations
 * ("scale the compactor to 2 replicas and raise its memory limit") leads with the best overall,
 * then the best trap of each operation it does not lead with yet, in turn, before the next best
 * overall: words of one operation adding up in traps of another (memory and limit in quota traps)
 * must not push the first operation's own trap out.
 */
function changeLeads(traps: readonly SelectedTrap[], objectsTold: boolean): string[] {
  const best = bestScore(traps)
  const eligible = traps
    .filter((t) => scoreOf(t) > 0 && scoreOf(t) >= best / 2 && !(objectsTold && t.matched?.verbsOnly))
    .sort((a, b) => scoreOf(b) - scoreOf(a))
  const operations = Math.max(0, ...eligible.map((t) => t.matched?.parts?.length ?? 0))
  const partOf = (t: SelectedTrap, k: number) => t.matched?.parts?.[k] ?? 0
  // The best overall first (a trap of the version the change moves to scores above every other).
  const leads: SelectedTrap[] = eligible.slice(0, 1)
  for (let k = 0; k < operations && leads.length < CHANGE_LEADS; k++) {
    const own = eligible.filter((t) => partOf(t, k) > 0).sort((a, b) => partOf(b, k) - partOf(a, k))[0]
    if (own && !leads.includes(own)) leads.push(own)
  }
  for (const t of eligible) if (leads.length < CHANGE_LEADS && !leads.includes(t)) leads.push(t)
  return leads.map((t) => t.id)
}

function trapCandidate(
  t: SelectedTrap,
  order: number,
  lead: number,
  least: number,
  objectsTold: boolean,
): Candidate {
  const holds = t.versions ? `, holds for ${t.versions}` : ''
  const change = t.brought_by.length ? ` for ${t.brought_by.join(' + ')}` : ''
  const m = t.matched
  const words = m?.words.length
    ? `; told in your change's words (${m.words.join(', ')})`
    : m?.elsewhere.length
      ? `; its probe or safe path names your change's words (${m.elsewhere.join(', ')})`
      : m
        ? '; no word of your change is in it'
        : ''
  const oneLineOnly = t.one_line_because ? `; one line: ${t.one_line_because}` : ''
  return {
    kind: 'trap',
    id: t.id,
    title: oneLine(t.trap),
    level: t.severity,
    actions: t.brought_by,
    why: `a known trap of ${t.asked_as.join(', ') || t.technology}${change}${holds}${words}${oneLineOnly}; run its probe first`,
    held: true,
    inFull:
      !t.one_line_because &&
      (!m ||
        (m.score > 0 &&
          (lead < Number.POSITIVE_INFINITY || (m.score >= least && !(objectsTold && m.verbsOnly))))),
    order,
    lead,
    score: m?.score ?? 0,
  }
}

function gateCandidate(
  g: PublishedGate,
  why: AppliesBecause | undefined,
  order: number,
  entry: HarmEntry | undefined,
): Candidate {
  const b = becauseText(why)
  const level = entry?.harm ?? (g.check_spec.on_fail === 'block' ? 'irreversible' : 'outage')
  // `block` is kept for harm that cannot be undone; every other gate is advice, and says so.
  const effect =
    level === 'irreversible' && g.check_spec.on_fail === 'block'
      ? 'blocks the change when it fails: the harm cannot be undone'
      : `advice: ${level === 'irreversible' ? 'its approver owns the risk' : `guards against ${level === 'outage' ? 'an outage' : 'a degraded service'}`}; note an input you cannot read in the plan`
  return {
    kind: 'gate',
    id: g.id,
    title: oneLine(g.title),
    level,
    actions: b.actions,
    why: `${effect}; ${b.text}`,
    held: b.held,
    inFull: true,
    order,
    lead: Number.POSITIVE_INFINITY,
    score: 0,
  }
}

function ruleCandidate(
  r: PublishedRule,
  why: AppliesBecause | undefined,
  order: number,
  entry: HarmEntry | undefined,
): Candidate {
  const b = becauseText(why)
  return {
    kind: 'rule',
    id: r.id,
    title: oneLine(r.title),
    level: entry?.harm ?? 'degraded',
    actions: b.actions,
    why: `advice learned from ${r.incident.organisation} (${r.incident.date}); ${b.text}`,
    held: b.held,
    inFull: true,
    order,
    lead: Number.POSITIVE_INFINITY,
    score: 0,
  }
}

export interface Ranked {
  /** The items kept in full, most severe first. */
  ranked: RankedItem[]
  /** Everything else that applies, one line each, in the same order. */
  also_consider: RankedItem[]
  /** Ids kept in full, by kind. */
  kept: { traps: Set<string>; gates: Set<string>; rules: Set<string> }
}

export function rank(
  items: {
    traps: readonly SelectedTrap[]
    gates: readonly PublishedGate[]
    rules: readonly PublishedRule[]
    because: Record<string, AppliesBecause>
  },
  limit: number,
  /** What each gate and rule guards against (content/harm.yaml): its rank. */
  harm: HarmBundle = { gates: {}, rules: {} },
  /** An emergency: only the traps the change leads with are given in full. */
  emergency = false,
): Ranked {
  // When the change's words meet a trap by what it acts on, a trap met only by a verb of changing
  // ("add") is another operation's: one line, never a place in full.
  const objectsTold = items.traps.some((t) => scoreOf(t) > 0 && !t.matched?.verbsOnly)
  const leads = changeLeads(items.traps, objectsTold)
  const best = bestScore(items.traps)
  const leadOf = (id: string) => (leads.includes(id) ? leads.indexOf(id) : Number.POSITIVE_INFINITY)
  const candidates: Candidate[] = [
    ...items.traps.map((t, i) =>
      trapCandidate(
        t,
        i,
        leadOf(t.id),
        emergency ? Number.POSITIVE_INFINITY : best * CHANGE_SHARE_IN_FULL,
        objectsTold,
      ),
    ),
    ...items.gates.map((g, i) => gateCandidate(g, items.because[g.id], i, harm.gates[g.id])),
    ...items.rules.map((r, i) => ruleCandidate(r, items.because[r.id], i, harm.rules[r.id])),
  ]
  // One item once: an id that both a gate and a rule carry (never today) keeps its first place.
  const seen = new Set<string>()
  const unique = candidates
    .sort(
      (a, b) =>
        Number(b.held) - Number(a.held) ||
        byLead(a, b) ||
        levelOrder(a.level) - levelOrder(b.level) ||
        KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
        a.order - b.order,
    )
    .filter((c) => !seen.has(`${c.kind}:${c.id}`) && seen.add(`${c.kind}:${c.id}`))
  const line = ({
    held: _,
    inFull: __,
    order: ___,
    lead: ____,
    score: _____,
    ...item
  }: Candidate): RankedItem => item
  // Only what is known to apply is given in full: an item an unanswered fact keeps is one line
  // under "also consider", naming the answer that would settle it (no stall on an input that may
  // not exist for this change).
  const ranked = unique.filter((c) => c.held && c.inFull).slice(0, limit)
  // The places in full that go to traps go to the traps told best: one told under half as well as
  // the best ranks one level below its severity.
  const rankLevel = (c: Candidate) =>
    Math.min(levelOrder(c.level) + Number(c.score < best / 2), SEVERITIES.length - 1)
  const trapsInOrder = unique
    .filter((c) => c.kind === 'trap' && c.held && c.inFull)
    .sort((a, b) => byLead(a, b) || rankLevel(a) - rankLevel(b) || b.score - a.score || a.order - b.order)

  let nextTrap = 0
  const top = ranked.map((c) => (c.kind === 'trap' ? (trapsInOrder[nextTrap++] ?? c) : c))
  const rest = unique.filter((c) => !top.includes(c))
  const ids = (kind: RankedKind) => new Set(top.filter((c) => c.kind === kind).map((c) => c.id))
  return {
    ranked: top.map(line),
    also_consider: rest.map(line),
    kept: { traps: ids('trap'), gates: ids('gate'), rules: ids('rule') },
  }
}

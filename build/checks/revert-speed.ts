/**
 * The fastest safe fix is never slowed (FORMAT.md, "The fastest safe fix is never slowed"). A revert
 * to the last known-good state (a rollback, a kill switch, a flag turned off) may not wait behind a
 * bake, a staged share, a replay test or an approval. Checked two ways:
 *
 * 1. Structured: a `check_spec` whose `applies_to` includes `revert` uses no slowing threshold, says
 *    nothing slowing in `pass_when`, and reads only the revert's target identity before it (inputs
 *    named `target…`) and its outcome after it (inputs named `…_after`).
 * 2. Text: no sentence of a rule (rule, constraint), gate check or playbook step, nor any
 *    `pass_when`, names a revert together with a slowing term, unless the sentence exempts the revert
 *    or the term is negated right before it ("no replay test", "never staged").
 */
import type { CheckSpec, Threshold } from '../../schema/content.js'
import type { BuildIssue } from '../stages/issues.js'

type Break = Omit<BuildIssue, 'file'>

const TIME_UNIT = /^(ms|s|sec|seconds?|min|minutes?|h|hours?|days?|weeks?|months?)$/

/**
 * Why a threshold slows a revert, or null: its name names a wait, stage or approval; it is a
 * minimum duration (a time unit and a `-min` name); or it caps a share of targets (a `%` unit and a
 * `-max` name with step, share, batch or cycle in it).
 */
export function slowingThreshold(t: Pick<Threshold, 'name' | 'unit'>): string | null {
  const words = t.name.split('-')
  const named = words.find((w) =>
    /^(bake|hold|watch|wait|delay|soak|canary|stage|stages|wave|ring|ring0|batch|approval|replay|rehearsal)$/.test(
      w,
    ),
  )
  if (named) return `its name says "${named}": a wait, stage or approval`
  if (TIME_UNIT.test(t.unit.trim()) && t.name.endsWith('-min')) return 'a minimum duration (time unit, -min)'
  if (
    t.unit.trim().startsWith('%') &&
    t.name.endsWith('-max') &&
    words.some((w) => /^(step|share|batch|cycle)$/.test(w))
  )
    return 'a cap on the share of targets per step (%, -max)'
  return null
}

/** A revert to the last known-good state, as text names it. */
const REVERT =
  /\b(roll(?:s|ed|ing)?[ -]back|rollbacks?(?! target)|revert(?:s|ed|ing)?(?! target)|kill[ -]switch(?:es)?|last[ -]known[ -]good|known-good|flags? (?:turned )?off)\b/i

/** What slows a revert, as text names it. */
const SLOWING =
  /\b(bake[sd]?|baking|soak(?:s|ed|ing)?|replay(?:s|ed|ing)?|rehears(?:e|es|ed|al|ing)|approv(?:e|es|ed|al|er|ers|ing)|sign-off|second (?:person|approver|pair of eyes)|wait(?:s|ed|ing)?|canary|canaries|staged|(?:one|first|single|small|each|per|in|by|starting with) (?:waves?|stages?|batch(?:es)?|rings?)|one at a time|percentage cap|\d+(?:\.\d+)?\s?% of)\b/gi

/** A slowing term preceded within four words by one of these is negated ("no replay test"). */
const NEGATION = /\b(no|not|never|without|nor|exempt|skip|skips|skipping|instead of)\b/i
/** ... but "no more than" bounds a quantity, it does not negate it. */
const BOUND = /\b(?:no|not) (?:more|less|fewer|longer|shorter) than\b/gi

/** A sentence that says the revert is exempt from waits and stages passes whole. */
const EXEMPTION =
  /\b(exempt|does not apply|do not apply|never (?:waits?|slow(?:s|ed)?|delay(?:s|ed)?|staged?|capped)|not (?:slowed|staged|capped|delayed))\b/i

/** Sentences, and clauses joined by ", and" or ", but", are read one at a time. */
const SENTENCE = /(?:[^.;:!?,]|,(?! (?:and|but) ))+(?:[.;:!?]|, (?:and|but) )?/g

/** The sentences of a text; a full stop inside a number ("1.5") does not end one. */
function sentences(text: string): string[] {
  return (text.replace(/(\d)\.(\d)/g, '$1\u2024$2').match(SENTENCE) ?? [])
    .map((s) => s.replace(/\u2024/g, '.').trim())
    .filter(Boolean)
}

/** The first slowing term of a sentence that is not negated right before it; {{names}} are classified. */
function slowingTerm(
  sentence: string,
  thresholds: ReadonlyMap<string, Pick<Threshold, 'name' | 'unit'>>,
): string | undefined {
  if (EXEMPTION.test(sentence)) return undefined
  const slowing: { term: string; at: number }[] = []
  for (const m of sentence.matchAll(SLOWING)) slowing.push({ term: m[0], at: m.index ?? 0 })
  for (const m of sentence.matchAll(/\{\{\s*([^{}\s]+)\s*\}\}/g)) {
    const t = thresholds.get(m[1] ?? '')
    if (t && slowingThreshold(t)) slowing.push({ term: m[0], at: m.index ?? 0 })
  }
  slowing.sort((a, b) => a.at - b.at)
  return slowing.find(({ at }) => {
    const before = sentence.slice(0, at).split(/\s+/).filter(Boolean).slice(-4).join(' ')
    return !NEGATION.test(before.replace(BOUND, ''))
  })?.term
}

/** Sentences of `text` that name a revert and put a slowing term in front of it. */
export function slowedRevertSentences(
  text: string,
  thresholds: ReadonlyMap<string, Pick<Threshold, 'name' | 'unit'>>,
): { sentence: string; term: string }[] {
  const found: { sentence: string; term: string }[] = []
  for (const sentence of sentences(text)) {
    if (!REVERT.test(sentence)) continue
    const term = slowingTerm(sentence, thresholds)
    if (term) found.push({ sentence, term })
  }
  return found
}

/** The structured rule for a check_spec that applies to `revert`. */
export function revertSpecBreaks(
  field: string,
  spec: CheckSpec,
  thresholds: ReadonlyMap<string, Pick<Threshold, 'name' | 'unit'>>,
): Break[] {
  if (!spec.applies_to.includes('revert')) return []
  const breaks: Break[] = []
  const allowed = 'a revert waits for nothing: no bake, stage, share cap, replay test or approval (FORMAT.md)'
  for (const name of spec.thresholds) {
    const t = thresholds.get(name)
    const why = t && slowingThreshold(t)
    if (why)
      breaks.push({
        field: `${field}.thresholds`,
        problem: `a check that applies to revert uses {{${name}}}, ${why}`,
        allowed,
      })
  }
  for (const sentence of sentences(spec.pass_when)) {
    const term = slowingTerm(sentence, thresholds)
    if (term)
      breaks.push({
        field: `${field}.pass_when`,
        problem: `a check that applies to revert puts "${term}" in its comparison: "${sentence}"`,
        allowed,
      })
  }
  spec.inputs.forEach((input, i) => {
    if (!/^target/.test(input.name) && !/_after$/.test(input.name))
      breaks.push({
        field: `${field}.inputs.${i}.name`,
        problem: `a check that applies to revert reads "${input.name}", which is neither the revert's target nor its outcome`,
        allowed:
          'inputs named target… (what to revert to, and where; unreadable stops the revert) or …_after (read after it)',
      })
  })
  return breaks
}

/** The prose an agent obeys, by kind of item: the fields the text rule reads. */
export function instructionTexts(
  kind: 'rule' | 'gate' | 'playbook',
  item: Record<string, unknown>,
): [string, string][] {
  if (kind === 'rule') {
    const c = item.constraint as { statement: string; check: string; check_spec: CheckSpec }
    return [
      ['rule', item.rule as string],
      ['constraint.statement', c.statement],
      ['constraint.check', c.check],
      ['constraint.check_spec.pass_when', c.check_spec.pass_when],
    ]
  }
  if (kind === 'gate') {
    const spec = item.check_spec as CheckSpec
    return [
      ['check', item.check as string],
      ['check_spec.pass_when', spec.pass_when],
    ]
  }
  return (item.steps as { do: string; done_when: string }[]).flatMap((s, i): [string, string][] => [
    [`steps.${i}.do`, s.do],
    [`steps.${i}.done_when`, s.done_when],
  ])
}

/** Every sentence of an item's instructions that slows a revert. */
export function revertTextBreaks(
  kind: 'rule' | 'gate' | 'playbook',
  item: Record<string, unknown>,
  thresholds: ReadonlyMap<string, Pick<Threshold, 'name' | 'unit'>>,
): Break[] {
  return instructionTexts(kind, item).flatMap(([field, text]) =>
    slowedRevertSentences(text, thresholds).map(({ sentence, term }) => ({
      field,
      problem: `"${term}" stands in front of a revert: "${sentence}"`,
      allowed:
        'a sentence that names a rollback, revert or kill switch names no wait, bake, stage, share cap, replay test or approval, unless it exempts the revert (FORMAT.md)',
    })),
  )
}

/**
 * `change`: the change in the agent's own words ("add partitions to the orders topic"). A named
 * technology often has several traps for one action; the one the change walks into is the one
 * whose mechanism is told in the same words. So each trap is scored by the words it shares with the
 * change, each word weighted by how rare it is among the traps asked about (a word every trap of
 * the technology uses tells nothing), and the traps that share words rank first.
 */
import { CHANGE_MAX } from '../../schema/routes.js'

/** Words that say nothing about which mechanism a change meets. */
const STOP = new Set(
  'the and for from into onto with without our their its this that these those then than when what which who all any are was were will would can could should must not but about over under via per each every both only also just new old use using make need want set get put let one two three'.split(
    ' ',
  ),
)

/** A word's stem: enough to meet "adding"/"add", "partitions"/"partition", "raise"/"raising". */
export function stem(word: string): string {
  const s = word.replace(/(ing|ed|es|s|e)$/, '')
  return s.length >= 3 ? s : word
}

/** The distinct stems of a text, with the first word as written for each (to echo back). */
export function wordsOf(text: string): Map<string, string> {
  const words = new Map<string, string>()
  for (const w of text.toLowerCase().match(/[a-z0-9][a-z0-9_]*/g) ?? []) {
    if (w.length < 3 || STOP.has(w) || /^\d+$/.test(w)) continue
    const s = stem(w)
    if (!words.has(s)) words.set(s, w)
  }
  return words
}

/** Reads `change`: trimmed, blanks collapsed, lower-cased (what the payment binds), or why not. */
export function readChange(raw: string | undefined): { change?: string } | { detail: string } {
  if (raw === undefined) return {}
  const change = raw.replace(/\s+/g, ' ').trim().toLowerCase()
  if (!change || change.length > CHANGE_MAX)
    return { detail: `change must be 1 to ${CHANGE_MAX} characters of plain words; got ${change.length}` }
  if (!wordsOf(change).size)
    return { detail: `change holds no word to match (e.g. "add partitions to the orders topic")` }
  return { change }
}

/** How well one trap meets the change: its score and the change's words it shares. */
export interface ChangeMatch {
  score: number
  words: string[]
}

/**
 * Scores each trap by the change's words found in its id and its one-line mechanism, weighted by
 * rarity among the traps given (log(1 + n / traps holding the word)). A trap sharing none scores 0.
 */
export function matchChange(
  change: string,
  traps: readonly { id: string; trap: string }[],
): Map<string, ChangeMatch> {
  const asked = wordsOf(change)
  const held = traps.map((t) => new Set(wordsOf(`${t.id.replace(/-/g, ' ')} ${t.trap}`).keys()))
  const holding = (s: string) => held.filter((h) => h.has(s)).length
  const weight = new Map(
    [...asked.keys()].map((s) => [s, Math.log(1 + traps.length / Math.max(1, holding(s)))]),
  )
  const matches = new Map<string, ChangeMatch>()
  traps.forEach((t, i) => {
    const shared = [...asked.keys()].filter((s) => held[i]?.has(s))
    matches.set(t.id, {
      score: shared.reduce((sum, s) => sum + (weight.get(s) ?? 0), 0),
      words: shared.map((s) => asked.get(s) ?? s),
    })
  })
  return matches
}

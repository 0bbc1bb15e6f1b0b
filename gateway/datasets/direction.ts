/**
 * Which way a change moves a value, size or count, when it says one way only: by its words
 * (schema/directions.ts) or by numbers ("retention from 7 to 3 days"). A change that says both ways
 * ("raise the CPU, lower the memory"), or replaces what it sizes, or says neither decides nothing,
 * so no trap is set aside by it.
 */
import { DIRECTION_IDS, DIRECTIONS, type Direction } from '../../schema/directions.js'

const WORDS = Object.fromEntries(DIRECTION_IDS.map((d) => [d, new Set(DIRECTIONS[d].split(' '))])) as Record<
  Direction,
  Set<string>
>

/**
 * A replacement moves both ways at once: "replace the three masters with bigger ones" removes the
 * old nodes while it raises their size, so a trap of removing nodes still meets it.
 */
const REPLACES =
  /\b(replace|replaces|replacing|replaced|swap|swaps|swapping|recreate|recreating|rebuild|rebuilding)\b/

/** "from 7 to 3": whole numbers only, so a version move ("from 2.11 to 2.17") says no way. */
const FROM_TO = /\bfrom\s+(\d+)\s*[a-z%]*\s+to\s+(\d+)\b(?!\.\d)/g

export function changeDirection(change: string | undefined): Direction | undefined {
  if (!change) return undefined
  // Cutting over moves traffic, not a value: "cut" alone is a cut.
  const text = change.toLowerCase().replace(/\bcut(?:ting)?[ -]?over\b/g, ' ')
  if (REPLACES.test(text)) return undefined
  const said = new Set<Direction>()
  for (const w of text.match(/[a-z]+/g) ?? []) for (const d of DIRECTION_IDS) if (WORDS[d].has(w)) said.add(d)
  for (const [, from, to] of text.matchAll(FROM_TO)) {
    if (Number(to) > Number(from)) said.add('raising')
    if (Number(to) < Number(from)) said.add('lowering')
  }
  return said.size === 1 ? [...said][0] : undefined
}

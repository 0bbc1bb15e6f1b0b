/**
 * The versions a trap holds for (`versions: "< 17"`) and whether an asked version (`postgresql@16`)
 * falls in them. A range is alternatives joined by `||`, each a list of bounds that must all hold
 * (`>= 14, < 17` or `>=14 <17`); a bound is `<`, `<=`, `>`, `>=` or `=` and a version, or a version
 * family on its own (`9.x`, `9`). A partial version names its family: `<= 16` admits 16.4, `> 16`
 * starts at 17, as release notes mean them.
 *
 * An asked version is a family too (`16` is every 16.x): a trap is kept when any version of the
 * family can be in its range, so an answer errs towards naming a trap, never towards hiding it.
 */

/** A version as its numeric components, compared with missing components read as 0. */
type Version = readonly number[]

/** A half-open interval [lo, hi); an absent bound is open. */
interface Interval {
  lo?: Version
  hi?: Version
}

const NUMBERS = /^v?(\d{1,9}(?:\.\d{1,9}){0,3})(?:\.[x*])?$/i

/** The numeric components of a version or family (`16`, `2.4.1`, `9.x`); undefined when unreadable. */
export function versionParts(text: string): Version | undefined {
  const match = NUMBERS.exec(text.trim())
  return match?.[1] ? match[1].split('.').map(Number) : undefined
}

/** Orders two versions by their components (missing ones read as 0). */
export function compareVersionParts(a: Version, b: Version): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d) return d
  }
  return 0
}

/** The first version after the family `v` (16 → 17, 2.4 → 2.5). */
const next = (v: Version): Version => [...v.slice(0, -1), (v.at(-1) ?? 0) + 1]

const family = (v: Version): Interval => ({ lo: v, hi: next(v) })

function bound(op: string, v: Version): Interval {
  switch (op) {
    case '<':
      return { hi: v }
    case '<=':
      return { hi: next(v) }
    case '>':
      return { lo: next(v) }
    case '>=':
      return { lo: v }
    default:
      return family(v)
  }
}

function intersect(a: Interval, b: Interval): Interval {
  const lo = !a.lo ? b.lo : !b.lo ? a.lo : compareVersionParts(a.lo, b.lo) >= 0 ? a.lo : b.lo
  const hi = !a.hi ? b.hi : !b.hi ? a.hi : compareVersionParts(a.hi, b.hi) <= 0 ? a.hi : b.hi
  return { ...(lo ? { lo } : {}), ...(hi ? { hi } : {}) }
}

const empty = (i: Interval) =>
  i.lo !== undefined && i.hi !== undefined && compareVersionParts(i.lo, i.hi) >= 0

const BOUND = /(<=|>=|<|>|=)?\s*(v?\d+(?:\.\d+)*(?:\.[x*])?)/gy

/** The range as alternatives of intervals, or a reason it cannot be read. */
export function parseRange(range: string): { alternatives: Interval[] } | { problem: string } {
  const alternatives: Interval[] = []
  for (const part of range.split('||')) {
    const text = part.replace(/,/g, ' ').trim()
    if (!text) return { problem: `an empty alternative in "${range}"` }
    let interval: Interval = {}
    let at = 0
    while (at < text.length) {
      BOUND.lastIndex = at
      const m = BOUND.exec(text)
      const v = m?.[2] === undefined ? undefined : versionParts(m[2])
      if (!m || !v) return { problem: `cannot read "${text.slice(at)}" in "${range}"` }
      interval = intersect(interval, bound(m[1] ?? '=', v))
      at = BOUND.lastIndex
      while (text[at] === ' ') at++
    }
    if (empty(interval)) return { problem: `"${part.trim()}" admits no version` }
    alternatives.push(interval)
  }
  return { alternatives }
}

/**
 * Whether a trap whose range is `range` holds for the asked version. No range: every version. No
 * version asked, or one that cannot be read as numbers: kept (the agent did not say, so it is told).
 */
export function rangeAdmits(range: string | undefined, version: string | undefined): boolean {
  if (range === undefined || version === undefined) return true
  const asked = versionParts(version)
  const parsed = parseRange(range)
  if (!asked || 'problem' in parsed) return true
  return parsed.alternatives.some((alt) => !empty(intersect(alt, family(asked))))
}

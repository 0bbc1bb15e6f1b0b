/**
 * Newest page wins (content/FORMAT.md): where more than one stored copy of a vendor page was found,
 * the row lists every copy it compared (`copies_compared`), marks the one it read as the newest, and
 * `newest_because` says so. A row whose `newest_because` speaks of one copy ("the only stored
 * version") while it compared two, or names a count of copies it does not list, is refused: that is
 * how a row came to quote a price a newer copy no longer shows.
 */
import type { PricingRow } from '../../schema/content.js'

export interface CopyBreak {
  field: 'copies_compared' | 'newest_because'
  problem: string
  allowed: string
}

/** Wording that claims a single copy, or that no other copy exists. */
const SINGLE_COPY =
  /\b(?:the\s+)?only\s+(?:stored\s+)?(?:version|copy|versions|copies)\b|\bno\s+other\s+(?:stored\s+)?(?:version|copy)\b|\bone\s+stored\s+(?:version|copy)\b/i

const COUNT_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 }

/** "Two stored versions", "three copies": the number of copies the text says it compared, or null. */
export function copiesNamed(text: string): number | null {
  const m = /\b(one|two|three|four|five|[1-5])\s+(?:stored\s+)?(?:versions?|copies|copy)\b/i.exec(text)
  if (!m) return null
  const word = (m[1] as string).toLowerCase()
  return COUNT_WORDS[word] ?? Number(word)
}

/** The phrase in `text` that claims one copy only, or null. */
export function singleCopyClaim(text: string): string | null {
  return SINGLE_COPY.exec(text)?.[0] ?? null
}

export function copyBreaks(row: PricingRow): CopyBreak[] {
  const breaks: CopyBreak[] = []
  const copies = row.copies_compared
  const named = copiesNamed(row.newest_because)
  if (copies.length === 1)
    breaks.push({
      field: 'copies_compared',
      problem: 'one copy listed: copies_compared lists the copies compared, at least two',
      allowed: 'every stored copy compared (two or more), or none when only one copy was found',
    })
  if (copies.length >= 2) {
    const claim = singleCopyClaim(row.newest_because)
    if (claim)
      breaks.push({
        field: 'newest_because',
        problem: `newest_because says "${claim}", but copies_compared lists ${copies.length} copies`,
        allowed: 'say which of the copies compared is the newest and why',
      })
    const newest = copies.filter((c) => c.newest)
    if (newest.length !== 1)
      breaks.push({
        field: 'copies_compared',
        problem: `${newest.length} copies are marked newest`,
        allowed: 'exactly one copy marked newest: the one the row reads',
      })
    else if (!row.newest_because.includes((newest[0] as { address: string }).address))
      breaks.push({
        field: 'newest_because',
        problem: `newest_because does not name the copy read (${(newest[0] as { address: string }).address})`,
        allowed: "newest_because names the newest copy's address",
      })
  }
  if (copies.length >= 2 && named !== null && named !== copies.length)
    breaks.push({
      field: 'copies_compared',
      problem: `newest_because names ${named} copies, but copies_compared lists ${copies.length}`,
      allowed: 'list in copies_compared every copy newest_because speaks of',
    })
  return breaks
}

/**
 * The technologies a change acts on, of those named: the ones its own words name (by id, display
 * name or alias). A name given for context (the database behind a cache, the cloud a cluster runs
 * in) is not what the change alters, so an item whose inputs exist only for that kind of system (a
 * restore test for the database behind a memcached upgrade) does not fit it. When the change names
 * none of them, or no change is sent, every name counts.
 *
 * A name asked that is not on file is acted on when the change says two of its words as one phrase,
 * one of them no name on file uses ("the java tracing agent" for opentelemetry-java-agent): those words are
 * its, so a technology on file said only through them (java: the JVM) is named beside it. Its traps
 * are not on file, and the ones of the names beside it must not take their place.
 */
import type { ResolvedTechnology } from '../../schema/technologies.js'
import type { TrapsBundle } from '../../schema/traps.js'

/** How many other words may stand between two words of one name said as a phrase. */
const PHRASE_GAP = 2

const wordsIn = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? []

/** The words of the change that a name not on file claims (see above); empty when none does. */
export function claimedWords(
  named: readonly ResolvedTechnology[],
  change: string | undefined,
  bundle: TrapsBundle,
): Set<string> {
  const claimed = new Set<string>()
  if (!change) return claimed
  const said = wordsIn(change)
  const onFile = new Set(
    named.flatMap((r) => {
      const file = bundle.technologies.find((t) => t.technology === r.id)
      return file ? [file.technology, file.name, ...file.aliases].flatMap(wordsIn) : []
    }),
  )
  for (const r of named) {
    if (r.id) continue
    const own = new Set(wordsIn(r.name).filter((w) => w.length >= 3))
    // Its words said close together, as one phrase ("java tracing agent"), not far apart
    // ("upgrade java ... under the tracing agent" upgrades Java).
    let phrase: string[] = []
    let last = -Infinity
    const close = () => {
      const words = new Set(phrase)
      if (words.size >= 2 && [...words].some((w) => !onFile.has(w))) for (const w of words) claimed.add(w)
      phrase = []
    }
    said.forEach((w, i) => {
      if (!own.has(w)) return
      if (i - last > PHRASE_GAP + 1) close()
      phrase.push(w)
      last = i
    })
    close()
  }
  return claimed
}

/** The change with the claimed words blanked, for reading which names on file it says. */
export function withoutClaimed(change: string, claimed: ReadonlySet<string>): string {
  return claimed.size
    ? change.replace(/[a-z0-9]+/gi, (w) => (claimed.has(w.toLowerCase()) ? '_' : w))
    : change
}

export function actedOn(
  named: readonly ResolvedTechnology[],
  change: string | undefined,
  bundle: TrapsBundle,
  claimed: ReadonlySet<string> = claimedWords(named, change, bundle),
): readonly ResolvedTechnology[] {
  if (!change) return named
  const own = withoutClaimed(change, claimed)
  const said = new Set(own.toLowerCase().match(/[a-z0-9]+(?:[-.][a-z0-9]+)*/g) ?? [])
  const spaced = ` ${own.toLowerCase().replace(/[^a-z0-9.]+/g, ' ')} `
  const names = (r: ResolvedTechnology) => {
    const file = bundle.technologies.find((t) => t.technology === r.id)
    return [r.name, ...(file ? [file.technology, file.name, ...file.aliases] : [])].map((n) =>
      n.toLowerCase(),
    )
  }
  // A name of several words ("Amazon ElastiCache") is met by its words in order.
  const says = (n: string) => said.has(n) || spaced.includes(` ${n.replace(/[^a-z0-9.]+/g, ' ').trim()} `)
  const claims = (r: ResolvedTechnology) => !r.id && wordsIn(r.name).some((w) => claimed.has(w))
  const acted = named.filter((r) => claims(r) || names(r).some(says))
  return acted.length ? acted : named
}

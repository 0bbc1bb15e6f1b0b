/**
 * The technologies a change acts on, of those named: the ones its own words name (by id, display
 * name or alias). A name given for context (the database behind a cache, the cloud a cluster runs
 * in) is not what the change alters, so an item whose inputs exist only for that kind of system (a
 * restore test for the database behind a memcached upgrade) does not fit it. When the change names
 * none of them, or no change is sent, every name counts.
 *
 * A name asked is acted on when the change says two of its words as one phrase, one of them no
 * other name asked uses ("the java tracing agent" for opentelemetry-java-agent, "kafka connect
 * workers"): those words are its, so another name said only through them (java: the JVM; kafka:
 * the brokers) is named beside it, and its traps (or, for a name not on file, the absence of any)
 * are not replaced by the other's. A service keeps no word of the engine it runs ("elasticache redis").
 */
import type { ResolvedTechnology } from '../../schema/technologies.js'
import type { TrapsBundle } from '../../schema/traps.js'

/** How many other words may stand between two words of one name said as a phrase. */
const PHRASE_GAP = 2

const wordsIn = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? []

/** Whose each claimed word is: the id, or the name as asked when not on file. */
export type Claimed = ReadonlyMap<string, string>

const keyOf = (r: ResolvedTechnology) => r.id ?? r.name

/** Every name a technology asked goes by: as asked, and on file its id, display name and aliases. */
function namesOf(r: ResolvedTechnology, bundle: TrapsBundle): string[] {
  const file = bundle.technologies.find((t) => t.technology === r.id)
  return [r.name, ...(file ? [file.technology, file.name, ...file.aliases] : [])]
}

/** The words of the change that a name asked says as a phrase and claims (see above). */
export function claimedWords(
  named: readonly ResolvedTechnology[],
  change: string | undefined,
  bundle: TrapsBundle,
): Map<string, string> {
  const claimed = new Map<string, string>()
  if (!change) return claimed
  const said = wordsIn(change)
  for (const r of named) {
    const own = new Set(
      namesOf(r, bundle)
        .flatMap(wordsIn)
        .filter((w) => w.length >= 3),
    )
    const others = new Set(
      named.filter((o) => keyOf(o) !== keyOf(r)).flatMap((o) => namesOf(o, bundle).flatMap(wordsIn)),
    )
    // A service says the engine it runs by its name ("elasticache redis"): that word stays the engine's.
    const file = bundle.technologies.find((t) => t.technology === r.id)
    const runs = new Set(
      bundle.technologies
        .filter((t) => [...(file?.manages ?? []), ...(file?.includes ?? [])].includes(t.technology))
        .flatMap((t) => [t.technology, ...t.aliases]),
    )
    // Its words said close together, as one phrase ("java tracing agent"), not far apart
    // ("upgrade java ... under the tracing agent" upgrades Java).
    let phrase: string[] = []
    let last = Number.NEGATIVE_INFINITY
    const close = () => {
      const words = new Set(phrase)
      if (words.size >= 2 && [...words].some((w) => !others.has(w)))
        for (const w of words) if (!runs.has(w) && !claimed.has(w)) claimed.set(w, keyOf(r))
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

/** The change with the words others claim blanked: what it says of `key` (or of none, without one). */
export function withoutClaimed(change: string, claimed: Claimed, key?: string): string {
  return claimed.size
    ? change.replace(/[a-z0-9]+/gi, (w) => {
        const by = claimed.get(w.toLowerCase())
        return by !== undefined && by !== key ? '_' : w
      })
    : change
}

export function actedOn(
  named: readonly ResolvedTechnology[],
  change: string | undefined,
  bundle: TrapsBundle,
  claimed: Claimed = claimedWords(named, change, bundle),
): readonly ResolvedTechnology[] {
  if (!change) return named
  const acted = named.filter(saidIn(change, bundle, claimed))
  return acted.length ? acted : named
}

/**
 * Whether the change says a name asked: it claims a phrase of the change, or the change names it (by
 * any of its names; one of several words, "Amazon ElastiCache", by its words in order) in words no
 * other name claims.
 */
export function saidIn(
  change: string,
  bundle: TrapsBundle,
  claimed: Claimed,
): (r: ResolvedTechnology) => boolean {
  const claimers = new Set(claimed.values())
  return (r) => {
    if (claimers.has(keyOf(r))) return true
    const own = withoutClaimed(change, claimed, keyOf(r)).toLowerCase()
    const said = new Set(own.match(/[a-z0-9]+(?:[-.][a-z0-9]+)*/g) ?? [])
    const spaced = ` ${own.replace(/[^a-z0-9.]+/g, ' ')} `
    return namesOf(r, bundle)
      .map((n) => n.toLowerCase())
      .some((n) => said.has(n) || spaced.includes(` ${n.replace(/[^a-z0-9.]+/g, ' ').trim()} `))
  }
}

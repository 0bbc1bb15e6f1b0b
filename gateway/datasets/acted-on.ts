/**
 * The technologies a change acts on, of those named: the ones its own words name (by id, display
 * name or alias). A name given for context (the database behind a cache, the cloud a cluster runs
 * in) is not what the change alters, so an item whose inputs exist only for that kind of system (a
 * restore test for the database behind a memcached upgrade) does not fit it. When the change names
 * none of them, or no change is sent, every name counts.
 */
import type { ResolvedTechnology } from '../../schema/technologies.js'
import type { TrapsBundle } from '../../schema/traps.js'

export function actedOn(
  named: readonly ResolvedTechnology[],
  change: string | undefined,
  bundle: TrapsBundle,
): readonly ResolvedTechnology[] {
  if (!change) return named
  const said = new Set(change.toLowerCase().match(/[a-z0-9]+(?:[-.][a-z0-9]+)*/g) ?? [])
  const spaced = ` ${change.toLowerCase().replace(/[^a-z0-9.]+/g, ' ')} `
  const names = (r: ResolvedTechnology) => {
    const file = bundle.technologies.find((t) => t.technology === r.id)
    return [r.name, ...(file ? [file.technology, file.name, ...file.aliases] : [])].map((n) =>
      n.toLowerCase(),
    )
  }
  // A name of several words ("Amazon ElastiCache") is met by its words in order.
  const says = (n: string) => said.has(n) || spaced.includes(` ${n.replace(/[^a-z0-9.]+/g, ' ').trim()} `)
  const acted = named.filter((r) => names(r).some(says))
  return acted.length ? acted : named
}

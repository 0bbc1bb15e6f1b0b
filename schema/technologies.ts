/**
 * Reading `technologies` (a query parameter or an MCP argument): the names of what a change touches,
 * each with an optional `@version` (`postgresql@16,pgbouncer`). Names and aliases are matched
 * without regard to case; a name with no trap on file is no error, the answer says so.
 */
import type { CoveredTechnology } from './traps.js'

/** The most names one call may carry, and the longest name and version. */
export const TECHNOLOGIES_MAX = 20
export const TECHNOLOGY_NAME_MAX = 40
export const TECHNOLOGY_VERSION_MAX = 20

const NAME = /^[a-z0-9][a-z0-9._+-]*$/
const VERSION = /^[0-9a-z][0-9a-z.+-]*$/

/** One name as asked: the text sent, lower-cased, and the version if one was given. */
export interface AskedTechnology {
  name: string
  version?: string
}

/** A technology named, resolved against the trap layer: its id when covered, else the name as asked. */
export interface ResolvedTechnology extends AskedTechnology {
  /** The covered technology's id; absent when no trap is on file for the name. */
  id?: string
}

export interface TechnologiesError {
  parameter: 'technologies'
  detail: string
}

const problem = (detail: string): TechnologiesError => ({ parameter: 'technologies', detail })

/**
 * Reads the names: one string with names joined by commas, or a list of strings (each may hold
 * commas too). Repeats are dropped; an empty list, too many names, an over-long name or version,
 * or a character outside letters, digits and `. _ + -` is an error naming `technologies`.
 */
export function readTechnologies(raw: unknown): { asked: AskedTechnology[] } | TechnologiesError {
  const parts = Array.isArray(raw) ? raw : [raw]
  if (!parts.every((p) => typeof p === 'string'))
    return problem('technologies must be text: names joined by commas, or a list of names')
  const items = (parts as string[])
    .flatMap((p) => p.split(','))
    // "nginx plus" (or nginx+plus in a query string) is the name nginx-plus.
    .map((p) => p.trim().toLowerCase().replace(/\s+/g, '-'))
    .filter((p) => p.length > 0)
  if (!items.length) return problem('technologies names no technology; send e.g. postgresql@16,pgbouncer')
  const asked = new Map<string, AskedTechnology>()
  for (const item of items) {
    const at = item.indexOf('@')
    const name = at < 0 ? item : item.slice(0, at)
    const version = at < 0 ? undefined : item.slice(at + 1).replace(/^v(?=\d)/, '')
    if (name.length > TECHNOLOGY_NAME_MAX)
      return problem(
        `technology name "${name.slice(0, 60)}" is longer than ${TECHNOLOGY_NAME_MAX} characters`,
      )
    if (!NAME.test(name))
      return problem(
        `technology name "${name.slice(0, 60)}" may hold only letters, digits and . _ + - (then @version)`,
      )
    if (version !== undefined && (version.length > TECHNOLOGY_VERSION_MAX || !VERSION.test(version)))
      return problem(
        `version "${version.slice(0, 40)}" of ${name} must be up to ${TECHNOLOGY_VERSION_MAX} letters, digits, dots or hyphens, e.g. ${name}@16`,
      )
    asked.set(`${name}@${version ?? ''}`, { name, ...(version ? { version } : {}) })
  }
  if (asked.size > TECHNOLOGIES_MAX)
    return problem(`technologies names ${asked.size} technologies; at most ${TECHNOLOGIES_MAX} in one call`)
  return { asked: [...asked.values()] }
}

/** Each name asked, with the id of the technology it names (by id or alias), when one is covered. */
export function resolveTechnologies(
  asked: readonly AskedTechnology[],
  covered: readonly (Pick<CoveredTechnology, 'id' | 'aliases'> & { versioned_apart?: readonly string[] })[],
): ResolvedTechnology[] {
  const byName = new Map<string, string>()
  const apart = new Set<string>()
  for (const t of covered) {
    for (const n of [t.id, ...t.aliases]) byName.set(n, t.id)
    for (const n of t.versioned_apart ?? []) apart.add(n)
  }
  // A name written with dots or underscores is found by its hyphenated form (google_pubsub is
  // google-pubsub) or with the separator left out (node.js is nodejs).
  const spellings = (name: string) => [name, name.replace(/[._+]+/g, '-'), name.replace(/[._+]+/g, '')]
  return asked.map((a) => {
    const spelled = spellings(a.name).find((n) => byName.has(n))
    if (spelled === undefined) return a
    const id = byName.get(spelled) as string
    // A part released on its own versions (a provider plugin, a fork) names the technology, not its version.
    if (apart.has(spelled) && a.version !== undefined) return { name: a.name, id }
    return { ...a, id }
  })
}

/**
 * The names in one canonical text for the payment binding and the answer's echo: each as its
 * covered id (an alias names the same technology), with its version, sorted and without repeats,
 * so `pg@16,pgbouncer` and `pgbouncer,postgresql@16` buy the same answer.
 */
export function normalisedTechnologies(resolved: readonly ResolvedTechnology[]): string {
  const names = resolved.map((r) => `${r.id ?? r.name}${r.version ? `@${r.version}` : ''}`)
  return [...new Set(names)].sort().join(',')
}

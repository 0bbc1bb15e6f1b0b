/**
 * The traps an answer holds: those of the technologies named whose actions meet the actions asked
 * (every action when none is asked) and whose versions admit a version asked (any, when none is
 * given). Every name with no trap on file, or none for this change, is said so in plain words.
 */
import {
  type AskedTechnology,
  normalisedTechnologies,
  type ResolvedTechnology,
  readTechnologies,
  resolveTechnologies,
  type TechnologiesError,
} from '../../schema/technologies.js'
import type { Trap, TrapsBundle } from '../../schema/traps.js'
import { rangeAdmits } from '../../schema/version-range.js'

/** A trap as an answer carries it: the trap, whose it is, and the asked actions that brought it. */
export interface SelectedTrap extends Trap {
  technology: string
  /** The actions asked that the trap holds for; empty when no action was asked. */
  brought_by: string[]
  /** The names as asked that brought it (`postgresql@16`, `pg`). */
  asked_as: string[]
}

/** What the answer echoes about the names: canonical, covered, not covered, and why nothing came. */
export interface TechnologiesEcho {
  asked: string
  covered: string[]
  not_covered: string[]
  notes: string[]
}

export interface TrapSelection {
  traps: SelectedTrap[]
  echo: TechnologiesEcho
  /** Names asked with no trap on file at all, for the usage counters (editors add these next). */
  uncovered: string[]
}

const asText = (a: AskedTechnology) => `${a.name}${a.version ? `@${a.version}` : ''}`

/** Reads and resolves `technologies` against the trap layer; an unreadable value is an error naming it. */
export function readAskedTechnologies(
  raw: unknown,
  bundle: TrapsBundle,
): { resolved: ResolvedTechnology[]; normalised: string } | TechnologiesError {
  const read = readTechnologies(raw)
  if ('parameter' in read) return read
  const covered = bundle.technologies.map((t) => ({ id: t.technology, aliases: t.aliases }))
  const resolved = resolveTechnologies(read.asked, covered)
  return { resolved, normalised: normalisedTechnologies(resolved) }
}

export function selectTraps(
  bundle: TrapsBundle,
  resolved: readonly ResolvedTechnology[],
  normalised: string,
  actions: readonly string[],
): TrapSelection {
  const traps: SelectedTrap[] = []
  const notes: string[] = []
  const covered = [...new Set(resolved.flatMap((r) => (r.id ? [r.id] : [])))].sort()
  const uncovered = [...new Set(resolved.filter((r) => !r.id).map((r) => r.name))].sort()
  for (const name of uncovered) notes.push(`no traps on file for ${name}`)
  for (const id of covered) {
    const file = bundle.technologies.find((t) => t.technology === id)
    if (!file) continue
    const asked = resolved.filter((r) => r.id === id)
    const versions = asked.map((a) => a.version)
    const forChange = file.traps.filter((t) => !actions.length || t.actions.some((a) => actions.includes(a)))
    const kept = forChange.filter((t) => versions.some((v) => rangeAdmits(t.versions, v)))
    for (const t of kept)
      traps.push({
        ...t,
        technology: id,
        brought_by: actions.filter((a) => (t.actions as readonly string[]).includes(a)),
        asked_as: asked.filter((a) => rangeAdmits(t.versions, a.version)).map(asText),
      })
    if (!kept.length) {
      const change = actions.length ? ` and ${actions.join(' + ')}` : ''
      const at = versions.every((v) => v !== undefined) ? ` at ${versions.join(' or ')}` : ''
      const other = file.traps.length
      notes.push(
        `no traps on file for ${file.name} (${id})${change}${at}; ${other} other trap${other === 1 ? '' : 's'} on file for it`,
      )
    }
  }
  return { traps, echo: { asked: normalised, covered, not_covered: uncovered, notes }, uncovered }
}

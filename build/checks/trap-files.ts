/**
 * The rules that span trap files (content/traps/): each file named by its technology, trap ids that
 * start with it and are unique across the layer, names (ids and aliases) that name one technology
 * only, actions from actions.yaml, and version ranges the answer can read.
 */
import { fileEngines, type TrapFile } from '../../schema/traps.js'
import { parseRange } from '../../schema/version-range.js'
import type { BuildIssue } from '../stages/issues.js'

/** The words a trap line opens with when its operation deletes (schema/premises.ts, deletion). */
const DELETION_OPENING =
  /^(Deleting|Removing|Dropping|Purging|Truncating|Destroying|Wiping|Pruning|Decommissioning|Retiring)\b/

export const TRAPS_FOLDER = 'traps'

export function trapFileBreaks(
  files: readonly { file: string; value: TrapFile }[],
  actions: readonly string[],
): BuildIssue[] {
  const issues: BuildIssue[] = []
  const trapIds = new Map<string, string>()
  const names = new Map<string, string>()
  for (const { file, value } of files) {
    const expected = `${TRAPS_FOLDER}/${value.technology}.yaml`
    if (file !== expected)
      issues.push({
        file,
        field: 'technology',
        problem: `technology "${value.technology}" differs from the file name`,
        allowed: expected,
      })
    for (const [i, name] of [value.technology, ...value.aliases].entries()) {
      const first = names.get(name)
      // A name the file repeats (an alias equal to its own id) is harmless: the compiled list drops it.
      if (first === file) continue
      if (first)
        issues.push({
          file,
          field: i === 0 ? 'technology' : `aliases.${i - 1}`,
          problem: `"${name}" already names the technology of ${first}`,
          allowed: 'a name no other technology (id or alias) uses',
        })
      else names.set(name, file)
    }
    for (const [i, alias] of (value.versioned_apart ?? []).entries())
      if (!value.aliases.includes(alias))
        issues.push({
          file,
          field: `versioned_apart.${i}`,
          problem: `"${alias}" is not one of the file's aliases`,
          allowed: value.aliases.join(', ') || 'an alias of the file',
        })
    value.traps.forEach((trap, i) => {
      if (!trap.id.startsWith(`${value.technology}-`))
        issues.push({
          file,
          field: `traps.${i}.id`,
          problem: `"${trap.id}" does not start with the technology`,
          allowed: `${value.technology}-<what the trap is>`,
        })
      const first = trapIds.get(trap.id)
      if (first)
        issues.push({
          file,
          field: `traps.${i}.id`,
          problem: `"${trap.id}" is also a trap of ${first}`,
          allowed: 'an id unique across content/traps/',
        })
      else trapIds.set(trap.id, file)
      trap.actions.forEach((action, j) => {
        if (!actions.includes(action))
          issues.push({
            file,
            field: `traps.${i}.actions.${j}`,
            problem: `"${action}" is not in actions.yaml`,
            allowed: actions.join(', '),
          })
      })
      // A trap told as an upgrade is written for one: a release that keeps the version never meets it.
      if (/^Upgrading\b/.test(trap.trap) && trap.premise !== 'version-upgrade')
        issues.push({
          file,
          field: `traps.${i}.premise`,
          problem: 'its line opens "Upgrading…" but its premise is not version-upgrade',
          allowed: 'premise: version-upgrade (content/FORMAT.md, premise)',
        })
      // A trap told as a deletion is written for one: a change that deletes nothing never meets it
      // (a trap about deleting a key shown for a change that switches to that key).
      const deleting = DELETION_OPENING.exec(trap.trap)?.[0]
      if (deleting && trap.premise === undefined)
        issues.push({
          file,
          field: `traps.${i}.premise`,
          problem: `its line opens "${deleting}…" but it has no premise`,
          allowed: 'premise: deletion (content/FORMAT.md, premise)',
        })
      if (trap.versions !== undefined) {
        const range = parseRange(trap.versions)
        if ('problem' in range)
          issues.push({
            file,
            field: `traps.${i}.versions`,
            problem: range.problem,
            allowed: 'bounds such as "< 17", ">= 2.4, < 3", "9.x", alternatives joined by ||',
          })
      }
    })
  }
  // A managed service names the engines it runs, and a trap the technology whose upgrade it is
  // written for, by their ids, so the answer can find them.
  const ids = new Set(files.map((f) => f.value.technology))
  const unknownId = (file: string, field: string, id: string) =>
    ids.has(id)
      ? []
      : [
          {
            file,
            field,
            problem: `"${id}" is not a technology id in traps/`,
            allowed: 'the id of a technology on file (not an alias)',
          },
        ]
  for (const { file, value } of files) {
    for (const [i, engine] of (value.manages ?? []).entries())
      issues.push(...unknownId(file, `manages.${i}`, engine))
    for (const [i, engine] of (value.connects_to ?? []).entries())
      issues.push(...unknownId(file, `connects_to.${i}`, engine))
    const engines = fileEngines(value)
    for (const [i, other] of (value.includes ?? []).entries())
      issues.push(...unknownId(file, `includes.${i}`, other))
    for (const [i, trap] of value.traps.entries()) {
      for (const [j, id] of (trap.upgrade_of ?? []).entries())
        issues.push(...unknownId(file, `traps.${i}.upgrade_of.${j}`, id))
      if (trap.engine && !engines.includes(trap.engine))
        issues.push({
          file,
          field: `traps.${i}.engine`,
          problem: `"${trap.engine}" is not an engine this technology manages or connects to`,
          allowed: `one of manages or connects_to: ${engines.join(', ') || 'none (the file names no engine)'}`,
        })
    }
  }
  return issues
}

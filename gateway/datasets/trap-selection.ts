/**
 * The traps an answer holds: those of the technologies named whose actions meet the actions asked
 * (every action when none is asked) and whose versions admit a version asked (any, when none is
 * given). With `change`, each is scored by the words it shares with the change, and a trap sharing
 * at least CHANGE_WORDS_TO_BRING of them comes even when its actions differ (an agent's choice of
 * action is loose; the words it uses for the change are not). A trap whose premise the change does
 * not name (schema/premises.ts) shares no word with it. Every name with no trap on file, or
 * none for this change, is said so in plain words.
 */
import { NAMED_BY_A_TOOL } from '../../schema/premises.js'
import {
  type AskedTechnology,
  normalisedTechnologies,
  type ResolvedTechnology,
  readTechnologies,
  resolveTechnologies,
  type TechnologiesError,
} from '../../schema/technologies.js'
import { fileEngines, type Trap, type TrapFile, type TrapsBundle } from '../../schema/traps.js'
import { compareVersionParts, rangeAdmits, versionParts } from '../../schema/version-range.js'
import { actedOn, claimedWords, saidIn, withoutClaimed } from './acted-on.js'
import {
  type ChangeMatch,
  matchChange,
  premisesNamedBy,
  stem,
  withoutQuantities,
  wordsOf,
} from './change-match.js'
import { changeDirection } from './direction.js'
import { addVersions, changeVersions, movesOfRunning, upgradesUnnamed } from './upgraded.js'

/** A range with only a lower bound (">= 7", "> 2.4"): an upgrade trap of arriving at that version. */
const LOWER_BOUND_ONLY = /^>=?\s*v?\d+(\.[\dx]+)*$/

/** A thing and the version a change gives it ("boto3 1.36", "pydantic to 2.9", "buildkit v0.16"). */
const THING_AT_VERSION = /\b([a-z][a-z0-9_.-]*?)\s+(?:to\s+)?v?\d+\.\d+/g
/** A thing a change bumps or unpins ("bump of the artifact actions", "unpin boto3"). */
const THING_BUMPED =
  /\b(?:bump|bumps|bumped|bumping|unpin|unpins|unpinned|unpinning)\s+(?:of\s+)?(?:the\s+)?([a-z][a-z0-9_.-]*)(?:\s+([a-z][a-z0-9_.-]*))?/g

/** The words a trap must share with `change` to come although its actions differ from those asked. */
export const CHANGE_WORDS_TO_BRING = 2

/** Kinds of technology a change is made with, never only named beside it. */
const TOOL_KINDS = new Set(['iac', 'ci'])

/** A trap as an answer carries it: the trap, whose it is, and the asked actions that brought it. */
export interface SelectedTrap extends Trap {
  technology: string
  /** The actions asked that the trap holds for; empty when no action was asked. */
  brought_by: string[]
  /** The names as asked that brought it (`postgresql@16`, `pg`). */
  asked_as: string[]
  /** How it meets the change described; absent when no `change` was sent. */
  matched?: ChangeMatch
  /** Why it is one line under "also consider" whatever its words: the reason, for its line. */
  one_line_because?: string
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
  /** The names the change acts on (acted-on.ts): read here once, for trap context and for fits. */
  acted_on: readonly ResolvedTechnology[]
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
  const covered = bundle.technologies.map((t) => ({
    id: t.technology,
    aliases: t.aliases,
    ...(t.versioned_apart ? { versioned_apart: t.versioned_apart } : {}),
  }))
  const resolved = resolveTechnologies(read.asked, covered)
  return { resolved, normalised: normalisedTechnologies(resolved) }
}

export function selectTraps(
  bundle: TrapsBundle,
  resolved: readonly ResolvedTechnology[],
  normalised: string,
  actions: readonly string[],
  change?: string,
): TrapSelection {
  const traps: SelectedTrap[] = []
  const notes: string[] = []
  const named = resolved.flatMap((r) => (r.id ? [r.id] : []))
  // A name brings the technologies it includes (a DNS provider, dns), answered as if asked with it.
  const included = bundle.technologies
    .filter((t) => named.includes(t.technology))
    .flatMap((t) => (t.includes ?? []).map((id) => ({ name: `${id} via ${t.technology}`, id })))
  const covered = [...new Set([...named, ...included.map((i) => i.id)])].sort()
  const uncovered = [...new Set(resolved.filter((r) => !r.id).map((r) => r.name))].sort()
  const files = covered.flatMap((id) => bundle.technologies.find((t) => t.technology === id) ?? [])
  // Words of the change a name claims ("java tracing agent") name no other technology: which names
  // the change acts on and upgrades is read without the words others claim (acted-on.ts).
  const claimed = claimedWords(resolved, change, bundle)
  // The versions the change moves a technology to are asked too: a trap of 3.x holds for a move
  // to 3.1 although the agent named the 2.53 it runs.
  // A move said by versions alone ("the orders database from 13.15 to 16.4") moves the one run at 13.15.
  const moves = new Map(
    files.flatMap((f) => [
      ...changeVersions(change === undefined ? undefined : withoutClaimed(change, claimed, f.technology), [
        f,
      ]),
    ]),
  )
  for (const [id, versions] of movesOfRunning(change, resolved)) addVersions(moves, id, versions)
  const movedTo: ResolvedTechnology[] = [...moves].flatMap(([id, versions]) =>
    versions.map((version) => ({ name: `${id}@${version} in your change`, id, version })),
  )
  // A version given to a managed service (aws-rds@14.12) is its engine's, when the change says an
  // upgrade and one engine the service runs is named beside it (postgresql@16.4): the two name one
  // move, from 14.12 to 16.4. Outside an upgrade a service's own numbering (Aurora MySQL 3.05
  // beside MySQL 8.0) says no move.
  // The premises the change's words name, read once; with no change sent, it names none of them here.
  const saysPremise = premisesNamedBy(change)
  const upgradeSaid = change !== undefined && saysPremise('version-upgrade')
  const engineVersions: ResolvedTechnology[] = resolved.flatMap((r) => {
    const runs = files.find((f) => f.technology === r.id)?.manages ?? []
    const engines = runs.filter((e) => covered.includes(e))
    const [engine] = engines
    return upgradeSaid && r.version && engines.length === 1 && engine
      ? [{ name: `${engine}@${r.version} via ${r.id}`, id: engine, version: r.version }]
      : []
  })
  const asking: ResolvedTechnology[] = [
    ...resolved,
    ...included.filter((i) => !named.includes(i.id)),
    ...movedTo,
    ...engineVersions,
  ]
  const admitted = (id: string, t: Trap) =>
    asking.some((r) => r.id === id && rangeAdmits(t.versions, r.version))
  // Weighed among every trap of the names asked (at their versions), not only those for the action.
  const names = files.flatMap(technologyNames)
  const matches = change
    ? matchChange(
        change,
        files.flatMap((f) => f.traps.filter((t) => admitted(f.technology, t))),
        names,
      )
    : undefined
  // Why a trap is one line whatever its words: written for a circumstance the change does not name
  // (moving the runtime to 3.12, for a release that keeps it), or needing the server itself when a
  // managed service named runs that server for you (Sentinel's probes on ElastiCache).
  const managedBy = managers(bundle, covered, change)
  // A managed service whose engine the change upgrades is upgraded with it (an RDS engine upgrade).
  const upgraded = new Set([
    ...moves.keys(),
    ...files.filter((f) => f.manages?.some((e) => moves.has(e))).map((f) => f.technology),
  ])
  // Something the change moves by version that no name asked is ("WeasyPrint 60.2 to 61.2").
  const upgradesOther = upgradesUnnamed(change, files, resolved)
  // A technology named at two versions (asked, or "cut over from 13 to 16") is being upgraded,
  // whether or not the change says the word.
  const versionsOf = new Map(
    files.map((f) => [
      f.technology,
      [...new Set(asking.flatMap((r) => (r.id === f.technology && r.version ? [r.version] : [])))],
    ]),
  )
  const atTwoVersions = [...versionsOf.values()].some((v) => v.length >= 2)
  // A tool's own name says some premises (certbot: ACME issuance), as the agent asked for it.
  const toolSays = premisesNamedBy(resolved.map((r) => r.name.replace(/-/g, ' ')).join(' '))
  // With a dependency upgrade asked, a change that gives a thing a version ("boto3 1.36") or bumps
  // or unpins it upgrades that thing: a trap of upgrading it says its name in its line. The names
  // of the technologies asked are no such thing ("bump python pins" keeps the runtime).
  const upgradedThings =
    actions.includes('dependency-upgrade') && change !== undefined
      ? versionedThings(change, names)
      : new Set<string>()
  const upgradesThingOf = (t: Trap) =>
    upgradedThings.size > 0 &&
    [...wordsOf(`${t.id.replace(/-/g, ' ')} ${t.trap}`).keys()].some((s) => upgradedThings.has(s))
  const namesPremise = (t: Trap) =>
    (t.premise === 'version-upgrade' && (atTwoVersions || upgradesThingOf(t))) ||
    saysPremise(t.premise) ||
    (t.premise !== undefined && NAMED_BY_A_TOOL.includes(t.premise) && toolSays(t.premise))
  // "aurora-postgresql" names Aurora and, in its words, the engine.
  const engines = enginesNamed(
    bundle,
    covered,
    `${change ?? ''} ${resolved.map((r) => r.name.replace(/-/g, ' ')).join(' ')}`,
  )
  // Of those, the ones a file runs for you: an RDS trap for PostgreSQL is not set aside because a
  // Kubernetes cluster named beside it is an engine EKS runs.
  const enginesOf = (id: string) => {
    const file = files.find((f) => f.technology === id)
    const runs = file ? fileEngines(file) : []
    return [...engines].filter((e) => runs.includes(e))
  }
  // Named for context beside what the change acts on (the OS under an agent being upgraded, the
  // sink it ships to): one shared word ("config", "upgrade") is no sign its trap is met.
  // The tool a change is made with (Terraform, a CI system) acts on what it manages: a change said
  // only through its tool ("via Terraform") acts on every name, none of them context. A tool the
  // change upgrades ("terraform 1.5.7 to opentofu 1.8") is its object: the store beside it is not.
  const isTool = (r: ResolvedTechnology) =>
    r.id !== undefined && TOOL_KINDS.has(bundle.technologies.find((t) => t.technology === r.id)?.kind ?? '')
  const said = actedOn(resolved, change, bundle, claimed)
  const saidBeyondTools = said.filter((r) => !isTool(r))
  const toolsUpgraded = said.filter((r) => isTool(r) && r.id !== undefined && moves.has(r.id))
  const acted = saidBeyondTools.length ? saidBeyondTools : toolsUpgraded.length ? toolsUpgraded : resolved
  const context = contextNames(bundle, resolved, covered, acted)
  // A name not on file is said so; when the change acts on it and moves its version, the answer
  // cannot name its traps, so it says where the agent finds them (what its own release notes change).
  const upgradesSaid = upgradeSaid && change !== undefined ? saidIn(change, bundle, claimed) : undefined
  for (const name of uncovered) {
    const actedUpon = upgradesSaid?.({ name }) ?? false
    notes.push(
      actedUpon
        ? `no traps on file for ${name}, which your change acts on: before the change, read its release notes and upgrade guide for every version from the one you run to the one you move to, and put each changed default (a protocol, port, flag, name or limit) and each removal your setup uses into the plan, with a read-only check`
        : `no traps on file for ${name}`,
    )
  }
  // A trap written for moving a value one way does not meet a change that says only the other.
  const direction = changeDirection(change)
  // A move whose oldest version is already at or past an upgrade trap's only bound ("upgrading to 7"
  // for a move from 7.49 to 7.58) has made that crossing before.
  // The oldest version of a technology the change moves (named at two versions or more), once each.
  const movedFrom = new Map(
    [...versionsOf].flatMap(([id, known]) => {
      const oldest = known.length >= 2 ? oldestVersion(known) : undefined
      return oldest ? [[id, oldest] as const] : []
    }),
  )
  const crossedBefore = (id: string, t: Trap) => {
    const oldest = movedFrom.get(id)
    return t.premise === 'version-upgrade' &&
      t.versions !== undefined &&
      LOWER_BOUND_ONLY.test(t.versions.trim()) &&
      oldest !== undefined &&
      rangeAdmits(t.versions, oldest)
      ? oldest
      : undefined
  }
  // A move that stays within one major version ("16.3 to 16.6", or told as a minor or patch upgrade)
  // does not cross what a trap written for a major upgrade crosses.
  const saysMinor = upgradeSaid && /\b(?:minor|patch)\b/.test(change ?? '')
  // The one major each technology's move stays within, once per technology.
  const withinMajor = new Map(
    [...versionsOf].flatMap(([id, known]) => {
      const majors = new Set(known.flatMap((v) => majorOf(v) ?? []))
      const [major] = majors
      return majors.size === 1 && major !== undefined && (known.length >= 2 || saysMinor)
        ? [[id, major] as const]
        : []
    }),
  )
  const forMajor = (t: Trap) => {
    const told = `${t.id.replace(/-/g, ' ')} ${t.trap}`
    return (
      (t.premise === 'version-upgrade' || /upgrad/i.test(told)) && MAJOR.test(told) && !MINOR.test(t.trap)
    )
  }
  const reasonFor = (id: string, t: Trap, crossed = crossedBefore(id, t), within = withinMajor.get(id)) =>
    !namesPremise(t)
      ? `written for a ${t.premise} change, which yours does not name`
      : t.premise === 'version-upgrade' &&
          (upgraded.size || upgradesOther) &&
          !(t.upgrade_of ?? [id]).some((u) => upgraded.has(u))
        ? `written for upgrading ${(t.upgrade_of ?? [id]).join(' or ')}, which your change does not upgrade`
        : within !== undefined && forMajor(t)
          ? `written for a major version upgrade, and your change keeps ${id} within ${within}`
          : crossed
            ? `written for upgrading to ${t.versions?.trim()}, and your change moves from ${crossed}, already there`
            : t.direction && direction && t.direction !== direction
              ? `written for ${t.direction} the value, and your change is ${direction} it`
              : t.needs_server && managedBy.has(id)
                ? `it needs the server itself, which ${managedBy.get(id)} runs for you`
                : t.engine && enginesOf(id).length && !enginesOf(id).includes(t.engine)
                  ? `written for ${t.engine}, and your change names ${enginesOf(id).join(' and ')}`
                  : context.names.has(id) &&
                      (matches?.get(t.id)?.words.length ?? 0) < CHANGE_WORDS_TO_BRING &&
                      !t.upgrade_of?.some((u) => context.acting.includes(u))
                    ? `${id} is named beside what your change acts on (${context.acting.join(', ')}), and this trap shares fewer than ${CHANGE_WORDS_TO_BRING} words with it`
                    : undefined
  // Worked out once per trap: the scoring below and each trap's line read it.
  const oneLineBecause = new Map(
    files.flatMap((f) =>
      f.traps.flatMap((t) => {
        const reason = reasonFor(f.technology, t)
        return reason ? [[t.id, reason] as const] : []
      }),
    ),
  )
  for (const id of oneLineBecause.keys())
    if (matches?.has(id)) matches.set(id, { score: 0, words: [], elsewhere: [] })
  // When a technology is named at two versions (asked, or in the change: "from 2.53 to 3.1"), a
  // trap that holds for a newer one and not the oldest is what the move walks into, unless its
  // stop-if is scoped to an operation the change does not say (creating a database): it scores just
  // above the best told in the change's words, so it leads (a chart tool's traps told by "upgrade"
  // and "chart" do not push Traefik 3's own breaking changes out of the places in full).
  const best = Math.max(0, ...[...(matches?.values() ?? [])].map((m) => m.score))
  // Just above the best, in the order of its own words: it leads, saying why.
  const lead = (m: ChangeMatch, why: string): ChangeMatch => ({
    ...m,
    score: Math.max(m.score, best) + m.score / 1000 + 1e-9,
    words: [...m.words, why],
  })
  for (const f of files) {
    const known = versionsOf.get(f.technology) ?? []
    const oldest = movedFrom.get(f.technology)
    if (!oldest) continue
    for (const t of f.traps) {
      const m = matches?.get(t.id)
      const arriving = known.some((v) => rangeAdmits(t.versions, v)) && !rangeAdmits(t.versions, oldest)
      if (m && t.versions && arriving && !m.outOfScope && !oneLineBecause.has(t.id))
        matches?.set(t.id, lead(m, 'the version it moves to'))
    }
  }
  // A trap filed under one technology and written for upgrading another (a Helm release broken by
  // the cluster's upgrade) meets a change that upgrades that other one: it leads, as one of its own.
  for (const f of files)
    for (const t of f.traps) {
      const m = matches?.get(t.id)
      const by = t.upgrade_of?.find((u) => u !== f.technology && upgraded.has(u))
      if (m && by && m.score > 0 && !m.outOfScope && !oneLineBecause.has(t.id))
        matches?.set(t.id, lead(m, `the upgrade of ${by}`))
    }
  const forAction = (t: Trap) => !actions.length || t.actions.some((a) => actions.includes(a))
  const byWords = (t: Trap) => (matches?.get(t.id)?.words.length ?? 0) >= CHANGE_WORDS_TO_BRING
  for (const file of files) {
    const id = file.technology
    const asked = asking.filter((r) => r.id === id)
    const versions = asked.map((a) => a.version)
    const kept = file.traps.filter((t) => admitted(id, t) && (forAction(t) || byWords(t)))
    for (const t of kept) {
      const matched = matches?.get(t.id)
      const because = oneLineBecause.get(t.id)
      traps.push({
        ...t,
        technology: id,
        brought_by: actions.filter((a) => (t.actions as readonly string[]).includes(a)),
        asked_as: asked.filter((a) => rangeAdmits(t.versions, a.version)).map(asText),
        ...(matched ? { matched } : {}),
        ...(because ? { one_line_because: because } : {}),
      })
    }
    if (!kept.length) {
      const change = actions.length ? ` and ${actions.join(' + ')}` : ''
      const at = versions.every((v) => v !== undefined) ? ` at ${versions.join(' or ')}` : ''
      const other = file.traps.length
      notes.push(
        `no traps on file for ${file.name} (${id})${change}${at}; ${other} other trap${other === 1 ? '' : 's'} on file for it`,
      )
    }
  }
  // Said plainly when the catalogue has nothing told in the change's words (ranking.ts then gives
  // none of these traps in full).
  if (matches && traps.length && traps.every((t) => !t.matched?.score))
    notes.push(
      `none of the ${traps.length} trap${traps.length === 1 ? '' : 's'} on file for ${covered.join(', ')} and this action is told in your change's words; they are one line each under "also consider"`,
    )
  return {
    traps,
    // Fits are decided by kinds on file: a name acted on that is not on file leaves that to all named.
    acted_on: acted.some((r) => r.id) ? acted : resolved,
    echo: { asked: normalised, covered, not_covered: uncovered, notes },
    uncovered,
  }
}

/**
 * The words that name a technology, which tell which technology and not which of its traps: its id,
 * the first word of its display name (the vendor or product: "Amazon", "Apache", "Linux") and its
 * one-word aliases. The other words tell the mechanism: what a display name says the thing is
 * ("Linux hosts", "Apache HTTP Server", "Elastic Load Balancing"), an alias of several words that
 * names a part of it ("security group", "network acl"), and an alias some of its traps are named by
 * ("dnssec", "galera", "nlb").
 */
export function technologyNames(f: TrapFile): string[] {
  const parts = new Set(
    f.traps.flatMap((t) =>
      t.id
        .slice(f.technology.length + 1)
        .split('-')
        .map(stem),
    ),
  )
  const namesAPart = (alias: string) => parts.has(stem(alias))
  return [
    f.technology,
    f.name.split(/\s+/)[0] ?? '',
    ...f.aliases.filter((a) => !a.includes('-') && !namesAPart(a)),
  ]
}

/**
 * The names given for context: those on file that the change's own words do not say, when they say
 * another (acted-on.ts), that no name they say includes (a DNS provider said brings `dns`), and
 * that are not the tool the change is made with (infrastructure as code, CI: its rollout runs
 * there). An engine a tool connects to stays context: a log shipper's sink is where it ships.
 */
function contextNames(
  bundle: TrapsBundle,
  resolved: readonly ResolvedTechnology[],
  covered: readonly string[],
  acted: readonly ResolvedTechnology[],
): { names: Set<string>; acting: string[] } {
  const acting = acted.flatMap((r) => (r.id ? [r.id] : []))
  // What the change acts on, as said in the reason: an id, or a name not on file as asked.
  const actingNames = [...new Set(acted.map((r) => r.id ?? r.name))]
  if (acted.length === resolved.length) return { names: new Set(), acting: actingNames }
  const brought = bundle.technologies
    .filter((t) => acting.includes(t.technology))
    .flatMap((t) => t.includes ?? [])
  return {
    names: new Set(
      covered.filter((id) => {
        const kind = bundle.technologies.find((t) => t.technology === id)?.kind
        return !acting.includes(id) && !brought.includes(id) && !TOOL_KINDS.has(kind ?? '')
      }),
    ),
    acting: actingNames,
  }
}

/**
 * The engines a managed service runs for the agent, each with that service's id: every engine that
 * a technology named (or said in the change, "elasticache") `manages`.
 */
function managers(
  bundle: TrapsBundle,
  named: readonly string[],
  change: string | undefined,
): Map<string, string> {
  const asked = namedOrSaid(named, change)
  const engines = new Map<string, string>()
  for (const f of bundle.technologies)
    if (asked(f)) for (const e of f.manages ?? []) if (!engines.has(e)) engines.set(e, f.technology)
  return engines
}

/**
 * The engines a change names, of those a managed service runs or a tool connects to (postgresql,
 * redis): named as technologies, or said by id or alias in the change or the names asked ("aurora
 * postgresql").
 */
function enginesNamed(bundle: TrapsBundle, named: readonly string[], words: string): Set<string> {
  const asked = namedOrSaid(named, words)
  const managed = new Set(bundle.technologies.flatMap(fileEngines))
  return new Set(
    bundle.technologies.filter((f) => managed.has(f.technology) && asked(f)).map((f) => f.technology),
  )
}

/** Whether a technology is among those named, or said in `text` by its id or an alias. */
function namedOrSaid(named: readonly string[], text: string | undefined): (f: TrapFile) => boolean {
  const said = new Set(text?.toLowerCase().match(/[a-z0-9]+(?:-[a-z0-9]+)*/g) ?? [])
  return (f) => named.includes(f.technology) || [f.technology, ...f.aliases].some((n) => said.has(n))
}

/** A trap's line or id that says it is written for crossing a major version. */
const MAJOR = /\bmajors?\b/i
const MINOR = /\b(?:minor|patch)\b/i

/** The major of a version: its first number, or its first two below 1 ("0.98" is its own major). */
function majorOf(version: string): string | undefined {
  const parts = versionParts(version)
  if (!parts) return undefined
  return parts[0] === 0 ? parts.slice(0, 2).join('.') : String(parts[0])
}

/** The oldest of some versions ("2.53", "3.1.0"); undefined when none reads as a version. */
function oldestVersion(versions: readonly string[]): string | undefined {
  const read = versions.flatMap((v) => {
    const parts = versionParts(v)
    return parts ? [{ v, parts }] : []
  })
  return read.sort((a, b) => compareVersionParts(a.parts, b.parts))[0]?.v
}

/** The stems of the things a change gives a version to or bumps ("unpin boto3 1.36": boto3), not the names asked. */
function versionedThings(change: string, names: readonly string[]): Set<string> {
  const text = withoutQuantities(change)
  const said = [...text.matchAll(THING_AT_VERSION), ...text.matchAll(THING_BUMPED)].flatMap((m) => [
    ...wordsOf(`${m[1] ?? ''} ${m[2] ?? ''}`).keys(),
  ])
  const naming = new Set(names.flatMap((n) => [...wordsOf(n.replace(/-/g, ' ')).keys()]))
  return new Set(said.filter((s) => !naming.has(s)))
}

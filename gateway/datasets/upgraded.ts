/**
 * Which of the technologies asked the change upgrades. A change names several technologies, most
 * as where it happens ("upgrade the collector on 14 GKE clusters", "upgrade Prometheus to v3" with
 * Grafana beside it); a trap written for upgrading one of them (premise `version-upgrade`) meets
 * the change only when that one is upgraded. A technology is upgraded when the change names it
 * right after a word of upgrading or right before a version; when the change names none that way,
 * nothing is decided here.
 */
import type { TrapFile } from '../../schema/traps.js'
import { stem, withoutQuantities } from './change-match.js'

/** Words that, a few words before a technology's name, say it is the one upgraded. */
const UPGRADE_WORDS = new Set(['upgrade', 'migrate', 'bump', 'update', 'move'].map(stem))
/** Words of place: an upgrade word before one of them is not about the name after it. */
const PLACE_WORDS = new Set(['on', 'in', 'at', 'across', 'inside', 'within', 'for'])
/** How far before the name an upgrade word, and after it a version ("from 2.53 to 3.1"), may stand. */
const BEFORE = 4
const AFTER = 4
const VERSION = /^v?\d+(\.[\dx]+)*$/
/** A whole number with no dot or "v": a count as often as a version. */
const BARE = /^\d+$/
/** Words that join one version to the next ("from 3.13 to 4.0", "2.6 then 2.7"). */
const JOINED = new Set(['to', 'then', 'and', 'through'])
/** Words after which a whole number is a version ("to 17", "from 13", "version 3"). */
const INTRODUCES = new Set([...JOINED, 'from', 'version'])
/**
 * Words naming another artifact of a technology, with versions of its own: "opensearch js client
 * 2.5 to 2.11" moves the client, "redis chart 18.1" the chart, "kafka operator 0.40" the operator;
 * the technology itself is neither upgraded nor at those versions.
 */
const ARTIFACTS = new Set(
  'client clients sdk driver drivers library lib gem crate binding bindings chart operator exporter provider plugin'.split(
    ' ',
  ),
)
/** How far after a technology's name an artifact word claims the versions that follow. */
const ARTIFACT_REACH = 2
/** A plural noun after a whole number counts things ("to 2 replicas", "3 brokers"): no version. */
const COUNTED = /^[a-z]{3,}s$/

/** Adds versions to a technology's, each once. */
export function addVersions(to: Map<string, string[]>, id: string, versions: readonly string[]): void {
  to.set(id, [...new Set([...(to.get(id) ?? []), ...versions])])
}

/** The change's words, versions kept whole ("8.4", "v3"), its quantities ("3 to 7 days") left out. */
const tokensOf = (change: string) =>
  withoutQuantities(change)
    .split(/[^a-z0-9.]+/)
    .map((t) => t.replace(/^\.+|\.+$/g, ''))
    .filter(Boolean)

/** A technology's names as the words a change says them in: its id, aliases and display name. */
const phrasesOf = (f: TrapFile) =>
  [f.technology, ...f.aliases, f.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')].map((p) =>
    p.split('-').filter(Boolean),
  )

/**
 * The technologies the change upgrades, by id, each with the versions the change gives it
 * ("prometheus from 2.53 to 3.1": 2.53 and 3.1; none when it names only a word of upgrading): a trap
 * of the version it moves to holds although the agent named the one it runs. Empty when the change
 * names none that way.
 */
export function changeVersions(
  change: string | undefined,
  files: readonly TrapFile[],
): Map<string, string[]> {
  const upgraded = new Map<string, string[]>()
  if (change === undefined) return upgraded
  const tokens = tokensOf(change)
  for (const f of files) {
    for (const phrase of phrasesOf(f))
      for (let i = 0; i + phrase.length <= tokens.length; i++) {
        if (!phrase.every((w, k) => tokens[i + k] === w)) continue
        const before = tokens.slice(Math.max(0, i - BEFORE), i)
        const start = i + phrase.length
        if (tokens.slice(start, start + ARTIFACT_REACH).some((t) => ARTIFACTS.has(t))) continue
        const after = tokens.slice(start, start + AFTER)
        // A version in reach carries the ones joined to it ("cluster from 3.13 to 4.0").
        const last = after.findLastIndex((t) => VERSION.test(t))
        if (last >= 0) {
          let end = start + last + 1
          while (JOINED.has(tokens[end] ?? '') && VERSION.test(tokens[end + 1] ?? '')) {
            if (end + 1 >= start + AFTER) after.push(tokens[end + 1] as string)
            end += 2
          }
        }
        // A bare whole number is a version only right after the name or a word that introduces one
        // ("postgres 16", "to 17"), and not before a plural it counts: "ansible role across 420
        // hosts" and "compactor to 2 replicas" count hosts and replicas, not a version.
        const versions = after
          .filter(
            (t, k) =>
              VERSION.test(t) &&
              (!BARE.test(t) ||
                k === 0 ||
                (INTRODUCES.has(after[k - 1] ?? '') && !COUNTED.test(tokens[start + k + 1] ?? ''))),
          )
          .map((t) => t.replace(/^v/, ''))
        // An upgrade word before the name upgrades it unless a word of place stands between
        // ("postgres 15 to 16 upgrade on local docker": the upgrade is postgres', on docker).
        const word = before.findLastIndex((t) => UPGRADE_WORDS.has(stem(t)))
        const upgradesIt = word >= 0 && !before.slice(word + 1).some((t) => PLACE_WORDS.has(t))
        if (upgradesIt || versions.length) addVersions(upgraded, f.technology, versions)
      }
  }
  return upgraded
}

/** A version move the change states ("from 13.15 to 16.4", "7.17 to 8.15"), with the word before it. */
interface StatedMove {
  from: string
  to: string
  /** The word before the move ("weasyprint 60.2 to 61.2"), past a "from". */
  before?: string
}

function statedMoves(change: string): StatedMove[] {
  const tokens = tokensOf(change)
  return tokens.flatMap((t, i) => {
    const to = tokens[i + 2]
    const introduced = tokens[i - 1] === 'from'
    if (!VERSION.test(t) || (BARE.test(t) && !introduced) || !JOINED.has(tokens[i + 1] ?? '')) return []
    if (to === undefined || !VERSION.test(to)) return []
    const before = introduced ? tokens[i - 2] : tokens[i - 1]
    return [{ from: t.replace(/^v/, ''), to: to.replace(/^v/, ''), ...(before ? { before } : {}) }]
  })
}

/** Whether a version said in the change is the one the agent runs ("13.15" of 13.15 or 13.15.2). */
const isRelease = (said: string, runs: string) => runs === said || runs.startsWith(`${said}.`)

/** A technology asked, at the version the agent runs. */
export interface RunningVersion {
  id?: string
  version?: string
}

/**
 * The versions a change moves the technologies asked to or from, when it says the move by versions
 * and not by name: "upgrade the orders database from 13.15 to 16.4" with postgresql@13.15 asked
 * moves PostgreSQL to 16.4; with postgresql@16.4 asked, from 13.15.
 */
export function movesOfRunning(
  change: string | undefined,
  running: readonly RunningVersion[],
): Map<string, string[]> {
  const moves = new Map<string, string[]>()
  if (change === undefined) return moves
  // The agent may name the version it moves to ("eks@1.26" with "from 1.25 to 1.26"): then the
  // move starts at the other.
  for (const move of statedMoves(change))
    for (const r of running) {
      if (!r.id || !r.version) continue
      const other = isRelease(move.from, r.version)
        ? move.to
        : isRelease(move.to, r.version)
          ? move.from
          : undefined
      if (other) addVersions(moves, r.id, [other])
    }
  return moves
}

/** Words that say where a move happens, not what moves ("the logging cluster from 7.17 to 8.15"). */
const PLACES = new Set(
  'cluster clusters database databases db server servers node nodes engine service broker brokers instance instances fleet stack app application runtime version release image images everything'.split(
    ' ',
  ),
)

/**
 * Whether the change moves something it does not name among the technologies asked from one
 * version to another ("WeasyPrint 60.2 to 61.2" beside python@3.12): then a named technology not
 * upgraded by name is not upgraded either, and its upgrade traps do not meet the change. A move from
 * a version the agent runs, or said of a place ("the cluster from 7.17 to 8.15"), is not that.
 */
export function upgradesUnnamed(
  change: string | undefined,
  files: readonly TrapFile[],
  running: readonly RunningVersion[] = [],
): boolean {
  if (change === undefined) return false
  const named = new Set(files.flatMap((f) => phrasesOf(f).flat()))
  return statedMoves(change).some(
    (m) =>
      !BARE.test(m.from) &&
      m.before !== undefined &&
      !VERSION.test(m.before) &&
      !named.has(m.before) &&
      !PLACES.has(m.before) &&
      !running.some((r) => r.version && isRelease(m.from, r.version)),
  )
}

/**
 * Which of the technologies asked the change upgrades. A change names several technologies, most
 * as where it happens ("upgrade the collector on 14 GKE clusters", "upgrade Prometheus to v3" with
 * Grafana beside it); a trap written for upgrading one of them (premise `version-upgrade`) meets
 * the change only when that one is upgraded. A technology is upgraded when the change names it
 * right after a word of upgrading or right before a version; when the change names none that way,
 * nothing is decided here.
 */
import type { TrapFile } from '../../schema/traps.js'
import { stem } from './change-match.js'

/** Words that, a few words before a technology's name, say it is the one upgraded. */
const UPGRADE_WORDS = new Set(['upgrade', 'migrate', 'bump', 'update', 'move'].map(stem))
/** How far before the name an upgrade word, and after it a version, may stand. */
const BEFORE = 4
const AFTER = 3
const VERSION = /^v?\d+(\.[\dx]+)*$/

/** The change's words, versions kept whole ("8.4", "v3"). */
const tokensOf = (change: string) =>
  change
    .split(/[^a-z0-9.]+/)
    .map((t) => t.replace(/^\.+|\.+$/g, ''))
    .filter(Boolean)

/** The ids of the technologies the change upgrades; empty when it names none that way. */
export function upgradedTechnologies(change: string | undefined, files: readonly TrapFile[]): Set<string> {
  const upgraded = new Set<string>()
  if (change === undefined) return upgraded
  const tokens = tokensOf(change)
  for (const f of files) {
    const phrases = [f.technology, ...f.aliases, f.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')].map((p) =>
      p.split('-').filter(Boolean),
    )
    for (const phrase of phrases)
      for (let i = 0; i + phrase.length <= tokens.length; i++) {
        if (!phrase.every((w, k) => tokens[i + k] === w)) continue
        const before = tokens.slice(Math.max(0, i - BEFORE), i)
        const after = tokens.slice(i + phrase.length, i + phrase.length + AFTER)
        if (before.some((t) => UPGRADE_WORDS.has(stem(t))) || after.some((t) => VERSION.test(t)))
          upgraded.add(f.technology)
      }
  }
  return upgraded
}

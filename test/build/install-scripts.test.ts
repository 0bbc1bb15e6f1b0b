/**
 * npm 11 runs a dependency's install script only when package.json's `allowScripts` names it, and
 * otherwise ends `npm install` with a warning listing the skipped packages. Every package the lock
 * file marks as having an install script must be decided here, so a fresh install prints no such
 * warning and nothing the service needs (Node 22, esbuild, workerd) is silently left half-installed.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

interface LockEntry {
  version?: string
  hasInstallScript?: boolean
}
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, LockEntry>
}
const allowScripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: object })
  .allowScripts as Record<string, boolean> | undefined

/** The package name of a lock key (`node_modules/a/node_modules/@s/b` is `@s/b`). */
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)
/** An allowScripts key is a name, or a name pinned to a version (`esbuild@0.28.2`). */
const covers = (entry: string, name: string, version?: string) =>
  entry === name || entry === `${name}@${version}`

describe('install scripts (package.json allowScripts)', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([key, entry]) => key && entry.hasInstallScript)
    .map(([key, entry]) => ({ name: nameOf(key), version: entry.version }))

  it('behavior: every package with an install script in the lock file is decided by allowScripts', () => {
    const undecided = withScripts.filter(
      (p) => !Object.keys(allowScripts ?? {}).some((entry) => covers(entry, p.name, p.version)),
    )
    expect(undecided).toEqual([])
  })

  it('behavior: the three whose scripts the service needs are allowed, not denied', () => {
    // node: installs the Node 22 binary npm scripts run on; esbuild and workerd: check their
    // platform binaries, which the bundler and the local runtime use.
    for (const name of ['node', 'esbuild', 'workerd']) {
      expect(withScripts.map((p) => p.name)).toContain(name)
      expect(allowScripts?.[name]).toBe(true)
    }
  })

  it('behavior: allowScripts names no package that has no install script (npm install-scripts prune)', () => {
    const stale = Object.keys(allowScripts ?? {}).filter(
      (entry) => !withScripts.some((p) => covers(entry, p.name, p.version)),
    )
    expect(stale).toEqual([])
  })
})

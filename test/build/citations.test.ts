/**
 * A fresh clone must be enough: every file the repository tracks cites only what the repository
 * holds. No path outside it (the notes or specification of the workspace it was written in), no
 * repository path that does not exist, and no section of schema/CONTRACT.md that is not there.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const THIS_FILE = 'test/build/citations.test.ts'
const CONTRACT = 'schema/CONTRACT.md'

const tracked = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
  .split('\0')
  .filter((path) => path && existsSync(path))
/** Text written by this project: third-party copies (vectors, vendored schemas) and the lock file are not. */
const TEXT = /\.(ts|js|mjs|cjs|md|ya?ml|json|jsonc|sh|txt|html|css|sql)$|(^|\/)(\.gitignore|run)$/
const ours = (path: string) =>
  TEXT.test(path) &&
  path !== 'package-lock.json' &&
  !path.startsWith('test/fixtures/') &&
  !(path.startsWith('schema/vendor/') && path.endsWith('.json'))
const files = tracked.filter(ours).map((path) => ({ path, text: readFileSync(path, 'utf8') }))

/** Every folder that holds a tracked file, and the top-level ones a citation can start from. */
const folders = new Set(
  tracked.flatMap((p) =>
    p
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
)
const topFolders = [...folders].filter((f) => !f.includes('/'))
const trackedSet = new Set(tracked)

/** Where each hit is, for a failure message a person can act on. */
function hits(pattern: RegExp, skip: (path: string) => boolean = () => false) {
  const found: string[] = []
  for (const { path, text } of files) {
    if (skip(path)) continue
    text.split('\n').forEach((line, i) => {
      for (const match of line.matchAll(pattern)) found.push(`${path}:${i + 1}: ${match[0]}`)
    })
  }
  return found
}

/** Git ignores it: a generated or local path (dist/, drafts), named on purpose, never committed. */
function ignored(path: string): boolean {
  // As a file, then as a folder (an ignore rule ending in / matches only folders).
  return [path, `${path}/`].some((candidate) => {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', candidate])
      return true
    } catch {
      return false
    }
  })
}

function exists(path: string): boolean {
  const bare = path.replace(/\/$/, '')
  // A glob (biome's `bench/results*.md`): some tracked file must match it.
  if (bare.includes('*')) {
    const glob = new RegExp(`^${bare.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`)
    return tracked.some((p) => glob.test(p))
  }
  if (trackedSet.has(bare) || folders.has(bare)) return true
  // An import-style name: the source of `schema/routes.js` is `schema/routes.ts`.
  if (bare.endsWith('.js') && trackedSet.has(bare.replace(/\.js$/, '.ts'))) return true
  return ignored(bare)
}

describe('citations resolve inside the repository', () => {
  it('behavior: no tracked file cites a path outside the repository', () => {
    const outside = [
      // The workspace's shared folder and its notes, wherever they are named from.
      /\.\.\/shared\b|\bshared\/notes\b|\/work\/\w+/g,
      /(?<![\w/.-])notes\/[\w.-]+\.md\b/g,
      // The specification and design of the workspace: the repository's own are schema/CONTRACT.md
      // and schema/DESIGN.md, cited with their folder.
      /(?<!schema\/)\b(SPEC|DESIGN)\.md\b/g,
    ]
    expect(outside.flatMap((pattern) => hits(pattern, (path) => path === THIS_FILE))).toEqual([])
  })

  it('behavior: every repository path a tracked file names exists (or is one git ignores on purpose)', () => {
    const alternatives = topFolders.map((f) => f.replace(/\./g, '\\.')).join('|')
    // A path starts at a top-level folder, not inside a URL or a longer path, and ends on a name.
    const pathLike = new RegExp(`(?<![\\w@./:-])(?:${alternatives})/[\\w./-]*[\\w](\\*[\\w.*]*)?`, 'g')
    const missing = hits(pathLike).filter((hit) => !exists(hit.slice(hit.lastIndexOf(': ') + 2)))
    expect(missing).toEqual([])
  })

  it('behavior: every section of schema/CONTRACT.md that is cited is there', () => {
    const contract = readFileSync(CONTRACT, 'utf8')
    const sections = new Set<string>()
    let current = ''
    for (const line of contract.split('\n')) {
      const heading = /^#{2,3} §(\d+(?:\.\d+)?) /.exec(line)
      if (heading) {
        current = heading[1]?.split('.')[0] ?? ''
        sections.add(heading[1] as string)
      }
      // A numbered item of a section is cited as §N.M too (§1.8 is item 8 of §1).
      const item = /^(\d+)\. /.exec(line)
      if (item && current) sections.add(`${current}.${item[1]}`)
    }
    expect(sections.has('1') && sections.has('9')).toBe(true)
    const cited = hits(/schema\/CONTRACT\.md( §\d+(\.\d+)?)(( and| or|,) §\d+(\.\d+)?)*/g).flatMap((hit) =>
      [...hit.slice(hit.indexOf('schema/CONTRACT.md')).matchAll(/§(\d+(?:\.\d+)?)/g)].map((m) => ({
        hit,
        section: m[1] as string,
      })),
    )
    expect(cited.length).toBeGreaterThan(0)
    expect(cited.filter((c) => !sections.has(c.section)).map((c) => c.hit)).toEqual([])
  })

  it('behavior: the Payment scheme is cited as the draft in force, draft-httpauth-payment-01', () => {
    const older = /draft-(?:ietf-)?httpauth-payment(?!-01\b)/g
    expect(hits(older, (path) => path === THIS_FILE)).toEqual([])
    // The conformance vectors are copies, but their spec_ref is kept current (test/fixtures/mpp/README.md).
    const vectors = tracked.filter((p) => /^test\/fixtures\/mpp\/.*\.json$/.test(p))
    expect(vectors.length).toBeGreaterThan(0)
    for (const path of vectors) {
      const ref = (JSON.parse(readFileSync(path, 'utf8')) as { spec_ref?: string }).spec_ref ?? ''
      if (ref.includes('httpauth')) expect(ref, path).toMatch(/^draft-httpauth-payment-01 §\d/)
    }
  })
})

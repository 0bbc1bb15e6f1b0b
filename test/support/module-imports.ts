/**
 * The import graph of a folder of TypeScript modules, read from their source text: every relative
 * `import` and `export … from` (types included: a type-only circle is still a circle a reader must
 * follow round), resolved to the module it names. For tests that hold a folder's structure.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** Module path (relative to the folder, with `/`) → the modules of the folder it imports. */
export type ImportGraph = Map<string, string[]>

/** Every `.ts` file under `dir`, as paths relative to it. */
function modules(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under ? `${under}/${entry.name}` : entry.name
    if (entry.isDirectory()) return modules(dir, path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** Block comments and whole-line comments go first, so an example in prose is not an import. */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')

/** `import … from 'x'`, `import 'x'`, `export … from 'x'` and `import('x')`. */
const SPECIFIER = /(?:\b(?:import|export)\b[^'";]*?\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g

/** The specifiers one module's source imports, in order. */
export function specifiers(source: string): string[] {
  return [...withoutComments(source).matchAll(SPECIFIER)].map((m) => m[1] as string)
}

/** The import graph of the modules under `dir`; imports leaving the folder are left out. */
export function importGraph(dir: string): ImportGraph {
  const root = resolve(dir)
  const graph: ImportGraph = new Map()
  for (const path of modules(root)) {
    const targets = specifiers(readFileSync(join(root, path), 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(root, resolve(dirname(join(root, path)), s.replace(/\.js$/, '.ts'))))
      .map((p) => p.split('\\').join('/'))
      .filter((p) => !p.startsWith('..'))
    graph.set(path, [...new Set(targets)])
  }
  return graph
}

/** The first circle of imports found (its first module repeated at its end), or undefined when none. */
export function findCycle(graph: ImportGraph): string[] | undefined {
  const done = new Set<string>()
  const onPath: string[] = []
  const visit = (node: string): string[] | undefined => {
    const at = onPath.indexOf(node)
    if (at >= 0) return [...onPath.slice(at), node]
    if (done.has(node)) return undefined
    onPath.push(node)
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next)
      if (cycle) return cycle
    }
    onPath.pop()
    done.add(node)
    return undefined
  }
  for (const node of [...graph.keys()].sort()) {
    const cycle = visit(node)
    if (cycle) return cycle
  }
  return undefined
}

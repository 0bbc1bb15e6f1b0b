/**
 * What the gateway bundle is made of: bytes in the output per npm package (zod's locales and
 * JSON-schema code counted apart, since the lean-Worker work removes exactly those), the built
 * data (dist/) and the project's own code. Read from the esbuild metafile wrangler writes.
 */
import { readFile } from 'node:fs/promises'

interface Metafile {
  outputs: Record<string, { inputs?: Record<string, { bytesInOutput: number }> }>
}

export interface BundlePart {
  name: string
  bytes: number
}

function partOf(input: string): string {
  const pkg = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1]
  if (pkg === 'zod' && input.includes('/locales/')) return 'zod (locales)'
  if (pkg === 'zod' && /json-schema/.test(input)) return 'zod (JSON schema)'
  if (pkg) return pkg
  return /(^|\/)dist\//.test(input) ? 'built data (dist/)' : 'project code'
}

/** Parts of the bundle, largest first. */
export async function bundleComposition(metafilePath: string): Promise<BundlePart[]> {
  const meta = JSON.parse(await readFile(metafilePath, 'utf8')) as Metafile
  const bytes = new Map<string, number>()
  for (const output of Object.values(meta.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs ?? {})) {
      const name = partOf(input)
      bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput)
    }
  }
  return [...bytes].map(([name, n]) => ({ name, bytes: n })).sort((a, b) => b.bytes - a.bytes)
}

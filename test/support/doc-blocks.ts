/**
 * The project's documents that carry runnable examples and quoted texts: README.md and the
 * documents beside what they describe, each linked from README. A block is found by its
 * `<!-- marker -->` comment wherever it lives, and must live in exactly one document, so a test
 * runs what a reader copies from whichever page they read.
 */
import { readFileSync } from 'node:fs'

export const DOCS = [
  'README.md',
  'gateway/payment/README.md',
  'gateway/mcp/README.md',
  'gateway/datasets/README.md',
  'gateway/submissions/README.md',
  'content/pricing/README.md',
  'content/FORMAT.md',
  'scripts/deploy/README.md',
] as const

/** The text after `<!-- marker -->` in the one document that has it, and that document's path. */
export function afterMarker(marker: string): { doc: string; after: string } {
  const found = DOCS.flatMap((doc) => {
    const parts = readFileSync(doc, 'utf8').split(`<!-- ${marker} -->`)
    if (parts.length > 2) throw new Error(`${doc} has <!-- ${marker} --> more than once`)
    return parts.length === 2 ? [{ doc, after: parts[1] as string }] : []
  })
  if (found.length !== 1)
    throw new Error(
      `<!-- ${marker} --> is in ${found.length} documents (${found.map((f) => f.doc)}), not one`,
    )
  return found[0] as { doc: string; after: string }
}

/** The fenced code block right after `<!-- marker -->` (any language, or only `lang`). */
export function codeBlock(marker: string, lang = '\\w+'): string {
  const { doc, after } = afterMarker(marker)
  const code = new RegExp(`^\\s*\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(after)?.[1]
  if (code === undefined) throw new Error(`${doc}: no code block right after <!-- ${marker} -->`)
  return code
}

/**
 * The README's receipt-verification snippets, run as written: each `<!-- marker -->` block is
 * saved as a module under test-results/ and imported, so a test calls exactly what a buyer copies.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

export type VerifyReceipt = (jwks: unknown, r: Response, body: string) => Promise<Record<string, unknown>>
export type VerifyToolReceipt = (
  jwks: unknown,
  result: unknown,
  service: string,
  tool: string,
) => Promise<Record<string, unknown>>

/** Imports the js block after `<!-- marker -->` in README.md; throws when the README has none. */
export async function readmeSnippet<T>(marker: string, file: string): Promise<T> {
  const readme = await readFile('README.md', 'utf8')
  const snippet = new RegExp(`<!-- ${marker} -->\\s*\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1]
  if (!snippet) throw new Error(`README.md has no js block marked ${marker}`)
  const path = join(process.cwd(), 'test-results', file)
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, snippet)
  return (await import(path)) as T
}

/** The README's `verifyReceipt`, as a buyer copies it, saved under test-results/`file`. */
export async function readmeVerifyReceipt(file = 'readme-verify-receipt.mjs'): Promise<VerifyReceipt> {
  return (await readmeSnippet<{ verifyReceipt: VerifyReceipt }>('receipt-verify', file)).verifyReceipt
}

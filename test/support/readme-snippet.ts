/**
 * The documented receipt-verification snippets (gateway/payment/README.md), run as written: each
 * `<!-- marker -->` block is saved as a module under test-results/ and imported, so a test calls
 * exactly what a buyer copies.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { codeBlock } from './doc-blocks.js'

export type VerifyReceipt = (jwks: unknown, r: Response, body: string) => Promise<Record<string, unknown>>
export type VerifyToolReceipt = (
  jwks: unknown,
  result: unknown,
  service: string,
  tool: string,
) => Promise<Record<string, unknown>>

/** Imports the js block after `<!-- marker -->` in the one document that has it; throws when none has. */
export async function readmeSnippet<T>(marker: string, file: string): Promise<T> {
  const snippet = codeBlock(marker, 'js')
  const path = join(process.cwd(), 'test-results', file)
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, snippet)
  return (await import(path)) as T
}

/** The documented `verifyReceipt`, as a buyer copies it, saved under test-results/`file`. */
export async function readmeVerifyReceipt(file = 'readme-verify-receipt.mjs'): Promise<VerifyReceipt> {
  return (await readmeSnippet<{ verifyReceipt: VerifyReceipt }>('receipt-verify', file)).verifyReceipt
}

/**
 * Throwaway folders for build tests: a copy of the real content to break, somewhere to build into,
 * and the report of a build that must fail. Removed after the test file that made them.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect } from 'vitest'
import { parse, stringify } from 'yaml'
import { build } from '../../build/index.js'
import { BuildFailed } from '../../build/stages/issues.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { BundleManifest, PricingBundle } from '../../schema/datasets.js'

const temps: string[] = []
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))))

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rpi-build-'))
  temps.push(dir)
  return dir
}

export async function copyOfContent(): Promise<string> {
  const dir = await tempDir()
  await cp('content', dir, { recursive: true })
  return dir
}

/** Builds `contentDir`, which must be refused; the build's grouped report. */
export async function buildFailure(contentDir: string): Promise<string> {
  const error = await build({ contentDir, outDir: await tempDir(), urls: LOCAL_URLS }).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(BuildFailed)
  return (error as BuildFailed).message
}

export type Row = Record<string, unknown>

/** Builds a copy of the content with the first pricing row `pick` accepts rewritten by `edit`; the report. */
export async function buildWithRow(pick: (row: Row) => boolean, edit: (row: Row) => void) {
  const dir = await copyOfContent()
  for (const file of await readdir(join(dir, 'pricing/rows'))) {
    const path = join(dir, 'pricing/rows', file)
    const row = parse(await readFile(path, 'utf8')) as Row
    if (!pick(row)) continue
    edit(row)
    await writeFile(path, stringify(row))
    return { file, message: await buildFailure(dir) }
  }
  throw new Error('no row fits this case')
}

/** The real content built into a fresh folder: its pricing bundle and the human pricing page. */
export async function builtPricing() {
  const { files } = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
  const manifest = JSON.parse(files.get('private/manifest.json') as string) as BundleManifest
  return {
    pricing: JSON.parse(files.get(manifest.bundles.pricing.file) as string) as PricingBundle,
    html: files.get('public/pricing/index.html') as string,
  }
}

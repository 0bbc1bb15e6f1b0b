/**
 * Sealed bundles: the paid bundles sit among the public assets only as AES-GCM ciphertext, the key
 * is only in the Worker module, and the Worker's reader gives back exactly the built data, or
 * refuses a file that is tampered with, swapped, stale or missing.
 */
import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { SEALING_KEY_FILE } from '../../build/stages/bundle.js'
import { type AssetReader, BundleUnavailable, readBundles } from '../../gateway/datasets/bundle-store.js'
import { prepare, retryAfter } from '../../gateway/datasets/prepare.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { BundleManifest, BundleName } from '../../schema/datasets.js'
import { SEALED_ASSET_DIR } from '../../schema/sealing.js'
import { tempDir } from '../support/content-copy.js'

let files: Map<string, string>
let manifest: BundleManifest
let key: string
let paid: BundleName[]

beforeAll(async () => {
  files = (await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })).files
  manifest = JSON.parse(files.get('private/manifest.json') as string) as BundleManifest
  key = (JSON.parse(files.get(`private/${SEALING_KEY_FILE}`) as string) as { key: string }).key
  paid = (Object.keys(manifest.bundles) as BundleName[]).filter((n) => manifest.bundles[n].access === 'paid')
})

/** The asset store as the Worker's ASSETS binding sees it: the public files, by path. */
const assetStore = (publicFiles: Map<string, string>): AssetReader => ({
  fetch: async (request) => {
    const text = publicFiles.get(`public${new URL(request.url).pathname}`)
    return text === undefined ? new Response('not found', { status: 404 }) : new Response(text)
  },
})

const plainBundles = () =>
  Object.fromEntries(
    Object.entries(manifest.bundles).map(([name, entry]) => [
      name,
      JSON.parse(files.get(entry.file) as string),
    ]),
  )

const refusal = (store: AssetReader, withKey = key) =>
  readBundles(store, manifest, withKey).then(
    () => 'read',
    (error: unknown) => (error instanceof BundleUnavailable ? error.message : `other: ${String(error)}`),
  )

describe('sealed bundles', () => {
  it('behavior: every paid bundle is among the assets only sealed, under the sealed folder', () => {
    expect(paid.length).toBeGreaterThan(3)
    for (const name of paid) {
      const entry = manifest.bundles[name]
      expect(entry.asset.startsWith(SEALED_ASSET_DIR), name).toBe(true)
      const sealed = files.get(`public${entry.asset}`) as string
      expect(sealed, name).toMatch(/^[A-Za-z0-9_-]+$/)
      // Not one of the bundle's rows, rules or gates shows through.
      const plain = files.get(entry.file) as string
      for (const piece of plain.match(/"[^"]{24,}"/g) ?? []) expect(sealed.includes(piece), name).toBe(false)
    }
  })

  it('behavior: the key is in the Worker module and in no public file', () => {
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const holders = [...files].filter(([, text]) => text.includes(key)).map(([path]) => path)
    expect(holders).toEqual([`private/${SEALING_KEY_FILE}`])
    expect(files.get('private/bundles.js')).toContain(`from './${SEALING_KEY_FILE}'`)
  })

  it('behavior: the Worker reads back exactly the built bundles', async () => {
    expect(await readBundles(assetStore(files), manifest, key)).toEqual(plainBundles())
  })

  it('error: a changed byte, a swapped file, a wrong key, a stale free file or a missing file is refused', async () => {
    const lessons = manifest.bundles.lessons.asset
    const sealed = files.get(`public${lessons}`) as string
    const flipped = `${sealed.slice(0, 100)}${sealed[100] === 'A' ? 'B' : 'A'}${sealed.slice(101)}`
    const withFile = (path: string, text: string | undefined) => {
      const copy = new Map(files)
      if (text === undefined) copy.delete(`public${path}`)
      else copy.set(`public${path}`, text)
      return assetStore(copy)
    }
    const swapped = files.get(`public${manifest.bundles.playbooks.asset}`) as string
    const catalogue = manifest.bundles.catalogue.asset

    expect(await refusal(withFile(lessons, flipped))).toMatch(/^lessons: the sealed file does not open/)
    expect(await refusal(withFile(lessons, swapped))).toMatch(/^lessons: the sealed file does not open/)
    expect(await refusal(assetStore(files), `${key[0] === 'A' ? 'B' : 'A'}${key.slice(1)}`)).toMatch(
      /does not open/,
    )
    expect(await refusal(withFile(catalogue, '{"stale":true}'))).toBe(
      'catalogue: the bytes do not match the manifest',
    )
    expect(await refusal(withFile(lessons, undefined))).toBe('lessons: the asset store answered 404')
  })
})

describe('the Worker when its bundles cannot be read', () => {
  // The Worker module's own manifest and key (dist/, as npm test builds it) over dist/public.
  let reads = 0
  const fromDist: AssetReader = {
    fetch: async (request) => {
      reads++
      const text = await readFile(`dist/public${new URL(request.url).pathname}`, 'utf8').catch(
        () => undefined,
      )
      return text === undefined ? new Response('not found', { status: 404 }) : new Response(text)
    },
  }
  const down: AssetReader = { fetch: async () => new Response('unavailable', { status: 503 }) }

  it('error: a failed read is a 503 with Retry-After before any challenge, and the next request reads again', async () => {
    const failed = await prepare(down, 'lessons', {}, Date.now())
    expect(failed?.ok).toBe(false)
    if (failed?.ok !== false) return
    expect(failed.problem.status).toBe(503)
    expect(failed.problem.type).toMatch(/data-unavailable$/)
    expect(failed.problem.detail).toContain('nothing was charged')
    expect(retryAfter(failed.problem)['retry-after']).toMatch(/^[1-9]\d*$/)

    const read = await prepare(fromDist, 'lessons', {}, Date.now())
    expect(read?.ok).toBe(true)
    const readsAfterFirst = reads
    expect(readsAfterFirst).toBeGreaterThan(0)
    // Read once per isolate: later requests neither read again nor notice the store going down.
    expect((await prepare(down, 'pricing', {}, Date.now()))?.ok).toBe(true)
    expect(reads).toBe(readsAfterFirst)
  })
})

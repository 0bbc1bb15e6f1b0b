/**
 * The bundles, read from the asset store once per isolate: free ones as they are served, paid
 * ones unsealed with the key compiled into the Worker; every one checked against the manifest's
 * hash, so a stale or tampered asset is refused instead of sold.
 */
import { manifest, sealingKey } from '../../dist/private/bundles.js'
import type { BundleData, BundleManifest, BundleName } from '../../schema/datasets.js'
import { unseal } from '../../schema/sealing.js'
import { sha256Hex } from '../sha256-hex.js'

/** What the Worker's ASSETS binding offers; any fetch-shaped reader does (tests pass files). */
export interface AssetReader {
  fetch(request: Request): Promise<Response>
}

export class BundleUnavailable extends Error {
  override name = 'BundleUnavailable'
}

/** Every bundle of the manifest, read and verified. */
export async function readBundles(
  assets: AssetReader,
  list: BundleManifest,
  key: string,
): Promise<BundleData> {
  const names = Object.keys(list.bundles) as BundleName[]
  const bodies = await Promise.all(names.map((name) => readBundle(assets, list, key, name)))
  return Object.fromEntries(names.map((name, i) => [name, bodies[i]])) as BundleData
}

async function readBundle(assets: AssetReader, list: BundleManifest, key: string, name: BundleName) {
  const entry = list.bundles[name]
  // The host is never contacted: the binding looks up the path in this Worker's own assets.
  const response = await assets.fetch(new Request(`https://assets.invalid${entry.asset}`))
  if (!response.ok) throw new BundleUnavailable(`${name}: the asset store answered ${response.status}`)
  const body = await response.text()
  let text: string
  try {
    text = entry.access === 'paid' ? await unseal(key, name, body) : body
  } catch {
    throw new BundleUnavailable(`${name}: the sealed file does not open with this Worker's key`)
  }
  if ((await sha256Hex(text)) !== entry.sha256)
    throw new BundleUnavailable(`${name}: the bytes do not match the manifest`)
  return JSON.parse(text) as unknown
}

let loading: Promise<BundleData> | undefined

/** The bundles of this deployment; a failed read is not kept, so the next request tries again. */
export function bundleData(assets: AssetReader): Promise<BundleData> {
  loading ??= readBundles(assets, manifest, sealingKey).catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

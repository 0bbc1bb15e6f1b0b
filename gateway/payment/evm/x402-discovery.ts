/**
 * Each paid route's x402 discovery declaration (the bazaar extension and the service metadata of
 * its resource), read from the asset store once per isolate: the build wrote it
 * (build/stages/x402-discovery.ts), so the Worker carries no schema in its bundle.
 */
import { x402DiscoveryAsset } from '../../../dist/private/bundles.js'
import type { X402Declaration, X402Declarations } from '../../../schema/x402-declaration.js'
import type { AssetReader } from '../../datasets/bundle-store.js'

let declarations: Promise<X402Declarations> | undefined

/** Every declaration; a failed read is not kept, so the next request reads again. */
export function x402Declarations(assets: AssetReader): Promise<X402Declarations> {
  declarations ??= assets
    .fetch(new Request(`https://assets.invalid${x402DiscoveryAsset}`))
    .then(async (r) => {
      if (!r.ok) throw new Error(`x402 discovery: the asset store answered ${r.status}`)
      return (await r.json()) as X402Declarations
    })
  declarations.catch(() => {
    declarations = undefined
  })
  return declarations
}

/**
 * The declaration of the route at `path`, or undefined when it cannot be read: a 402 without its
 * crawler metadata still takes payment, so a failed read never fails the challenge.
 */
export async function declarationFor(
  assets: AssetReader,
  path: string,
): Promise<X402Declaration | undefined> {
  try {
    return (await x402Declarations(assets))[path]
  } catch {
    return undefined
  }
}

/**
 * The same declaration in x402 v1's form, the `outputSchema` of a v1 offer: how to call the route
 * (its query parameters' schemas) and the outline of its answer.
 */
export function v1OutputSchema(d: X402Declaration): Record<string, unknown> {
  const { input, output } = d.bazaar.schema.properties as Record<
    string,
    { properties: Record<string, unknown> }
  >
  const query = input?.properties.queryParams as { properties?: Record<string, unknown> } | undefined
  return {
    input: { type: 'http', method: d.method, discoverable: true, queryParams: query?.properties ?? {} },
    output: output?.properties.example ?? {},
  }
}

/**
 * `/.well-known/x402` (and `/.well-known/x402.json`): the origin's x402 discovery manifest, in the
 * shape of x402's per-origin discovery draft (specs/extensions/well-known-discovery.md in the x402
 * repository, marked "Draft / Work in progress"; its canonical path is the .json one). Every paid
 * route with its x402 offer, how to call it and what it answers; `resources` lists the same URLs
 * in the older list form some crawlers read. Advisory: the live 402 stays authoritative.
 */
import type { X402Declarations } from '../../../schema/x402-declaration.js'
import type { EvmConfig } from './config.js'
import { x402Requirements } from './request.js'

export const X402_MANIFEST_STATUS =
  'x402 per-origin discovery manifest, draft shape (x402 specs/extensions/well-known-discovery.md, Draft / Work in progress): advisory; the live 402 (PAYMENT-REQUIRED) is authoritative'

/** The requirements of the wallet offer without the per-challenge members a live 402 adds. */
function standingOffer(evm: EvmConfig) {
  const { extra, ...requirements } = x402Requirements(evm, { id: '' })
  return {
    ...requirements,
    extra: { name: extra.name, version: extra.version, assetTransferMethod: extra.assetTransferMethod },
  }
}

export function x402Manifest(origin: string, declarations: X402Declarations, evm: EvmConfig | undefined) {
  const items = Object.values(declarations).map((d) => {
    const { input, output } = d.bazaar.schema.properties as Record<
      string,
      { properties: Record<string, unknown> }
    >
    return {
      resource: {
        url: `${origin}${d.path}`,
        description: d.description,
        mimeType: d.mimeType,
        serviceName: d.serviceName,
        tags: d.tags,
      },
      type: 'http',
      // No wallet rail on this deployment: no x402 offer (the card's Payment challenge remains).
      accepts: evm ? [standingOffer(evm)] : [],
      input: { method: d.method, queryParams: input?.properties.queryParams },
      output: { mimeType: d.mimeType, schema: output?.properties.example },
    }
  })
  return {
    x402Version: 2,
    status: X402_MANIFEST_STATUS,
    items,
    resources: items.map((i) => i.resource.url),
  }
}

/**
 * One paid route as x402 crawlers read it (build/stages/x402-discovery.ts writes them, the gateway
 * serves them): its resource's service metadata and its bazaar discovery extension.
 */
export interface X402Declaration {
  method: string
  path: string
  description: string
  mimeType: string
  /** x402 bazaar service metadata: printable ASCII, at most 32 characters. */
  serviceName: string
  /** At most 5 tags of at most 32 printable ASCII characters. */
  tags: string[]
  /** The bazaar extension as PAYMENT-REQUIRED carries it: `info` validates against `schema`. */
  bazaar: { info: Record<string, unknown>; schema: Record<string, unknown> }
}

/** The declarations of every paid route, by path. */
export type X402Declarations = Record<string, X402Declaration>

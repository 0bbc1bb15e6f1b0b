/**
 * The MCP resources: the free documents, so a client that browses resources sees what is sold.
 * Each is served byte for byte as its HTTP twin: a free bundle as its static file, the pricing-index
 * descriptor as GET /v1/pricing/index answers it. The MCP server, the server card and llms.txt read
 * this list.
 */
import type { BundleManifest, BundleName } from './datasets.js'
import { routeByName } from './routes.js'

export interface McpResource {
  name: string
  title: string
  description: string
  /** Where the bytes come from: a free bundle's static file, or the free route that builds them. */
  source: { bundle: Extract<BundleName, 'catalogue' | 'preview'> } | { route: 'index' }
}

export const MCP_RESOURCES: readonly McpResource[] = [
  {
    name: 'catalogue',
    title: 'Rules catalogue',
    description:
      'Every rule, playbook and pre-ship gate by id, title, phase and tags, the topics and the actions the checklist filters by: what the paid tools sell, with their bodies withheld. The same file as GET /v1/catalogue.',
    source: { bundle: 'catalogue' },
  },
  {
    name: 'foundational-rules',
    title: 'Foundational rules (free)',
    description:
      'The free foundational rules in full: each rule, the real incident behind it with its postmortem link, and the agent constraint.',
    source: { bundle: 'preview' },
  },
  {
    name: 'pricing-index',
    title: 'AI product pricing index descriptor',
    description:
      'What the paid pricing_index tool sells: method, coverage counts, the latest correction date, how to contribute a price, and the crowd aggregates. The same JSON as GET /v1/pricing/index.',
    source: { route: 'index' },
  },
]

/** Every resource is JSON. */
export const MCP_RESOURCE_MIME_TYPE = 'application/json'

/** The path that serves a resource's bytes over HTTP: the free bundle's static file, or the route. */
export function resourcePath(resource: McpResource, manifest: BundleManifest): string {
  return 'bundle' in resource.source
    ? manifest.bundles[resource.source.bundle].asset
    : routeByName(resource.source.route).path
}

/** Every resource as resources/list gives it: its URI is its HTTP address under `baseUrl`. */
export function resourceList(baseUrl: string, manifest: BundleManifest) {
  return MCP_RESOURCES.map((resource) => ({
    uri: `${baseUrl}${resourcePath(resource, manifest)}`,
    name: resource.name,
    title: resource.title,
    description: resource.description,
    mimeType: MCP_RESOURCE_MIME_TYPE,
  }))
}

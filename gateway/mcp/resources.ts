/**
 * resources/list and resources/read: the free documents of schema/mcp-resources.ts, each at the
 * HTTP address that serves the very same bytes, so a client may read it either way.
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server'
import { manifest } from '../../dist/private/bundles.js'
import {
  MCP_RESOURCE_MIME_TYPE,
  MCP_RESOURCES,
  type McpResource,
  resourceList,
  resourcePath,
} from '../../schema/mcp-resources.js'
import type { Env } from '../env.js'
import { serialize } from '../http/json.js'
import { pricingIndex } from '../pricing-index.js'

export const listedResources = (env: Env) => resourceList(env.BASE_URL, manifest)

/** The text of one resource, exactly as its HTTP address serves it. */
async function textOf(env: Env, resource: McpResource): Promise<string> {
  if ('route' in resource.source) {
    const index = await pricingIndex(env)
    if ('status' in index) throw new ProtocolError(ProtocolErrorCode.InternalError, index.detail)
    return (await serialize(index)).body
  }
  // The host is never contacted: the binding looks up the path in this Worker's own assets.
  const response = await env.ASSETS.fetch(
    new Request(`https://assets.invalid${resourcePath(resource, manifest)}`),
  )
  if (!response.ok)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `${resource.name} cannot be read right now (the asset store answered ${response.status}); try again shortly`,
    )
  return response.text()
}

export async function readResource(env: Env, uri: string) {
  const listed = listedResources(env)
  const i = listed.findIndex((r) => r.uri === uri)
  const resource = MCP_RESOURCES[i]
  if (!resource)
    throw new ResourceNotFoundError(
      uri,
      `no resource at ${uri}; resources/list names them: ${listed.map((r) => r.uri).join(', ')}`,
    )
  return { contents: [{ uri, mimeType: MCP_RESOURCE_MIME_TYPE, text: await textOf(env, resource) }] }
}

/**
 * The MCP SDK's runtime shims for this Worker, in place of its workerd ones (wrangler.jsonc
 * `alias`). The SDK validates JSON Schema only for what a client sends back to an elicitation, and
 * for tools declared in raw JSON Schema; this server elicits nothing and declares its tools with
 * zod, so it carries no JSON Schema validator (the SDK's is about 22 KB of the bundle). Should
 * anything ask one, it refuses, naming why, rather than passing unchecked input.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server'

export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(_schema: JsonSchemaType): JsonSchemaValidator<T> {
    return () => ({
      valid: false,
      data: undefined,
      errorMessage: 'this server validates no JSON Schema input: it sends no elicitation',
    })
  }
}

/** Stdio is no transport of a Worker. */
const notSupported = (): never => {
  throw new Error('stdio is not supported in a Worker; use the Streamable HTTP transport')
}
export const process = {
  get stdin() {
    return notSupported()
  },
  get stdout() {
    return notSupported()
  },
}

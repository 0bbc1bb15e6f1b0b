/**
 * The Worker's MCP SDK shims (gateway/mcp/sdk-shims.ts, wired by wrangler.jsonc's alias): this
 * server elicits nothing and declares its tools with zod, so it carries no JSON Schema validator;
 * should anything ask one, the answer is a refusal naming why, never input passed unchecked.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { DefaultJsonSchemaValidator, process } from '../../gateway/mcp/sdk-shims.js'

describe('MCP SDK shims of the Worker', () => {
  it('behavior: a JSON Schema validator asked for is a refusal with its reason, whatever the input', () => {
    const validate = new DefaultJsonSchemaValidator().getValidator({ type: 'object' })
    for (const input of [{}, { a: 1 }, 'text'])
      expect(validate(input)).toEqual({
        valid: false,
        data: undefined,
        errorMessage: expect.stringContaining('no elicitation'),
      })
  })

  it('error: stdio is refused by name, and the shims are what wrangler bundles for the SDK', async () => {
    expect(() => process.stdin).toThrow(/stdio is not supported/)
    const config = await readFile('gateway/wrangler.jsonc', 'utf8')
    expect(config).toContain('"@modelcontextprotocol/server/_shims": "./mcp/sdk-shims.ts"')
  })
})

/**
 * The x402 declarations the build writes: an answer's outline keeps its shape and drops only
 * constraints, and a declaration too heavy for the headers it travels in fails the build.
 */
import { describe, expect, it } from 'vitest'
import {
  declarationIssues,
  outline,
  X402_DECLARATION_MAX_BYTES,
  x402Declaration,
} from '../../build/stages/x402-discovery.js'
import { ROUTES } from '../../schema/routes.js'

const schema = {
  type: 'object',
  description: 'an answer',
  required: ['items'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string', pattern: '^[a-z]+$' }, n: { type: 'integer', minimum: 0 } },
      },
    },
    kind: { type: 'string', enum: ['a', 'b'] },
  },
}

describe('the outline of an answer', () => {
  it('behavior: keeps types, fields, enums and required to its depth; drops descriptions, patterns and bounds', () => {
    expect(outline(schema, 3)).toEqual({
      type: 'object',
      required: ['items'],
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id'],
            properties: { id: { type: 'string' }, n: { type: 'integer' } },
          },
        },
        kind: { type: 'string', enum: ['a', 'b'] },
      },
    })
  })

  it('behavior: below its depth a field keeps only its type, never a list of fields it no longer names', () => {
    expect(outline(schema, 1)).toEqual({
      type: 'object',
      required: ['items'],
      properties: { items: { type: 'array' }, kind: { type: 'string', enum: ['a', 'b'] } },
    })
  })
})

describe('a declaration over its budget', () => {
  const route = ROUTES.find((r) => r.access === 'paid' && r.params.length > 0)
  if (!route) throw new Error('no paid route with parameters')

  it('behavior: a declaration within the budget raises no issue', () => {
    expect(declarationIssues({ [route.path]: x402Declaration(route, []) })).toEqual([])
  })

  it('error: one over the budget is a build issue naming the route and the limit', () => {
    const heavy = { ...x402Declaration(route, []), description: 'x'.repeat(X402_DECLARATION_MAX_BYTES) }
    const issues = declarationIssues({ [route.path]: heavy })
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatchObject({ field: route.path })
    expect(issues[0]?.allowed).toContain(String(X402_DECLARATION_MAX_BYTES))
  })
})

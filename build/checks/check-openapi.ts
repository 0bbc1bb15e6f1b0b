/**
 * Checks openapi.json before it ships: the OpenAPI 3.1 JSON Schema, the MPP discovery offer shape
 * (ajv), a 402 on every paid operation, and the 64 KB registry size cap.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv } from 'ajv'
import type { BuildIssue } from '../stages/issues.js'

export const OPENAPI_MAX_BYTES = 64 * 1024

/** An offer as draft-payment-discovery defines it; extra keys are not allowed. */
const offerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['intent', 'method', 'amount'],
  properties: {
    intent: { enum: ['charge', 'session'] },
    method: { type: 'string', pattern: '^[a-z]+$' },
    amount: { anyOf: [{ type: 'string', pattern: '^(0|[1-9][0-9]*)$' }, { type: 'null' }] },
    currency: { type: 'string' },
    description: { type: 'string' },
  },
}
/**
 * Beside the offers, the x402 crawlers' fields (x402scan, MPPscan): a fixed price in dollars and
 * the protocols that carry it, each an object named by its protocol.
 */
const paymentInfoSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['offers', 'price', 'protocols'],
  properties: {
    offers: { type: 'array', minItems: 1, items: offerSchema },
    price: {
      type: 'object',
      additionalProperties: false,
      required: ['mode', 'currency', 'amount'],
      properties: {
        mode: { const: 'fixed' },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
        amount: { type: 'string', pattern: '^[0-9]+\\.[0-9]{2}$' },
      },
    },
    protocols: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', minProperties: 1, maxProperties: 1, propertyNames: { enum: ['mpp', 'x402'] } },
    },
  },
}

export async function checkOpenapi(doc: object, text: string): Promise<BuildIssue[]> {
  const issues: BuildIssue[] = []
  const file = 'dist/public/openapi.json'
  const bytes = Buffer.byteLength(text)
  if (bytes > OPENAPI_MAX_BYTES)
    issues.push({
      file,
      field: '-',
      problem: `${bytes} bytes`,
      allowed: `at most ${OPENAPI_MAX_BYTES} bytes`,
    })
  const result = await new Validator().validate(structuredClone(doc) as Parameters<Validator['validate']>[0])
  if (!result.valid) {
    const errors = typeof result.errors === 'string' ? [result.errors] : (result.errors ?? [])
    for (const e of errors)
      issues.push({
        file,
        field: typeof e === 'string' ? '-' : e.instancePath || '-',
        problem: typeof e === 'string' ? e : (e.message ?? 'invalid'),
        allowed: 'OpenAPI 3.1.0',
      })
  }
  const checkOffer = new Ajv({ allErrors: true }).compile(paymentInfoSchema)
  const paths = (doc as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths
  for (const [path, ops] of Object.entries(paths))
    for (const [method, op] of Object.entries(ops)) {
      const info = op['x-payment-info']
      if (info === undefined) continue
      const field = `paths.${path}.${method}`
      if (!checkOffer(info))
        issues.push({
          file,
          field,
          problem: 'x-payment-info is not a valid offer list',
          allowed: 'draft-payment-discovery offers',
        })
      if (!(op.responses as Record<string, unknown>)['402'])
        issues.push({
          file,
          field,
          problem: 'paid operation without a 402 response',
          allowed: 'a 402 response',
        })
    }
  return issues
}

/**
 * Checks a parsed submission body against schema/submission.ts and lists EVERY problem by field, each
 * with what is allowed there. Messages are written here, never taken from the input: an error names
 * a field and the rule, not the value that broke it.
 */
import * as z from 'zod'
import { Submission } from '../../schema/submission.js'

export interface FieldError {
  field: string
  problem: string
  allowed: string[]
}

export type Validated = { ok: true; value: Submission } | { ok: false; errors: FieldError[] }

const FIELDS = Object.keys(Submission.shape)
const PRICE_FIELDS = ['entry_usd_month', 'unit_price_usd'] as const
/** A field name the client made up is echoed (it is a name, not a value) but never at length. */
const MAX_ECHOED_NAME = 64
const MAX_UNKNOWN_LISTED = 20

export function validateSubmission(body: unknown): Validated {
  const parsed = Submission.safeParse(body)
  if (parsed.success) return { ok: true, value: parsed.data }
  const errors: FieldError[] = []
  const unknown: string[] = []
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') unknown.push(...issue.keys)
    else errors.push(fieldError(issue, body))
  }
  // zod skips the object-level refine (neither price) while other fields fail; check it here too.
  if (isRecord(body) && PRICE_FIELDS.every((f) => body[f] === undefined) && !errors.some(isNeitherPrice))
    errors.push(neitherPrice())
  errors.sort((a, b) => order(a.field) - order(b.field))
  for (const name of unknown.slice(0, MAX_UNKNOWN_LISTED))
    errors.push({ field: name.slice(0, MAX_ECHOED_NAME), problem: 'unknown field', allowed: FIELDS })
  if (unknown.length > MAX_UNKNOWN_LISTED)
    errors.push({
      field: '(body)',
      problem: `${unknown.length - MAX_UNKNOWN_LISTED} more unknown fields`,
      allowed: FIELDS,
    })
  return { ok: false, errors }
}

function fieldError(issue: z.core.$ZodIssue, body: unknown): FieldError {
  const field = issue.path.length ? issue.path.map(String).join('.') : '(body)'
  if (field === '(body)') {
    return {
      field,
      problem: 'the body must be a JSON object',
      allowed: [`a JSON object with the fields ${FIELDS.join(', ')}`],
    }
  }
  const allowed = allowedAt(field)
  const value = isRecord(body) ? body[field] : undefined
  switch (issue.code) {
    case 'invalid_value':
      return { field, problem: 'not one of the allowed values', allowed }
    case 'invalid_type':
      if (typeof value === 'number') return { field, problem: 'not a finite number', allowed }
      return { field, problem: `wrong type: expected ${issue.expected}, got ${jsonType(value)}`, allowed }
    case 'too_small':
      return {
        field,
        problem: issue.origin === 'string' ? 'empty (blank text is not accepted)' : 'below the minimum',
        allowed,
      }
    case 'too_big':
      return { field, problem: issue.origin === 'string' ? 'too long' : 'above the maximum', allowed }
    case 'invalid_format':
      return {
        field,
        problem: `not a valid ${issue.format === 'email' ? 'email address' : issue.format}`,
        allowed,
      }
    case 'custom':
      return PRICE_FIELDS.includes(field as never) ? neitherPrice() : { field, problem: 'invalid', allowed }
    default:
      return { field, problem: 'invalid', allowed }
  }
}

function neitherPrice(): FieldError {
  return {
    field: PRICE_FIELDS[0],
    problem: `give ${PRICE_FIELDS.join(' or ')} (at least one)`,
    allowed: [
      ...allowedAt(PRICE_FIELDS[0]),
      `or ${PRICE_FIELDS[1]}: ${allowedAt(PRICE_FIELDS[1]).join(', ')}`,
    ],
  }
}

const isNeitherPrice = (e: FieldError) => e.field === PRICE_FIELDS[0] && e.problem.startsWith('give ')

/** What a field accepts, read from the zod schema itself so the message cannot drift from the rule. */
function allowedAt(field: string): string[] {
  let schema: z.core.$ZodType | undefined = Submission.shape[field as keyof typeof Submission.shape]
  if (schema instanceof z.ZodOptional) schema = schema.unwrap()
  if (schema instanceof z.ZodEnum) return schema.options.map(String)
  if (schema instanceof z.ZodNumber) return [`a finite number from ${schema.minValue} to ${schema.maxValue}`]
  if (schema instanceof z.ZodEmail) return [`an email address of at most ${schema.maxLength} characters`]
  if (schema instanceof z.ZodString)
    return [`text of ${schema.minLength ?? 0} to ${schema.maxLength} characters`]
  return [`one of the fields ${FIELDS.join(', ')}`]
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Schema field order first; anything else (the body itself) after. */
function order(field: string): number {
  const i = FIELDS.indexOf(field)
  return i === -1 ? FIELDS.length : i
}

/**
 * Turns zod issues into build issues that say what is wrong and what is allowed.
 */
import type { z } from 'zod'
import type { BuildIssue } from './issues.js'

export function fromZod(file: string, error: z.ZodError): BuildIssue[] {
  return error.issues.map((issue) => ({
    file,
    field: issue.path.length ? issue.path.join('.') : '-',
    problem: issue.message,
    allowed: allowedFor(issue),
  }))
}

function allowedFor(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return issue.values.map((v) => JSON.stringify(v)).join(', ')
    case 'invalid_type':
      return issue.expected
    case 'unrecognized_keys':
      return 'only the fields of content/FORMAT.md; remove the unknown ones'
    case 'too_small':
      return `at least ${String(issue.minimum)}`
    case 'too_big':
      return `at most ${String(issue.maximum)}`
    case 'invalid_format':
      return issue.format
    default:
      return 'see content/FORMAT.md'
  }
}

/**
 * Reading and checking the filters of a data request, the same way for HTTP and MCP, before any
 * payment challenge: unknown or repeated parameters and malformed values are a 400.
 */
import type { Route } from '../../schema/routes.js'
import { badRequest, type Problem } from '../http/problem.js'

export type Filters = Record<string, string | undefined>

/** What a fact's name may look like on the wire; the content's facts.yaml says which exist. */
const FACT_NAME = /^[a-z][a-z0-9_]{0,40}$/

export type Prepared =
  | {
      ok: true
      filters: Filters
      payload: () => unknown
      /** Present when the call asked for Markdown (`format`): the same answer, rendered. */
      markdown?: () => string
      /** Technologies asked that no trap covers, for the usage counters (gateway/stats.ts). */
      uncovered?: string[]
    }
  | { ok: false; problem: Problem }

/** Checks names and shapes against the route's parameter list. */
export function checkParams(
  route: Route,
  entries: readonly [string, string][],
): { filters: Filters } | Problem {
  const allowed = route.params.map((p) => p.name)
  const filters: Filters = {}
  for (const [name, value] of entries) {
    const param = route.params.find((p) => p.name === name)
    // A situation route reads facts by name from the content; prepare() checks each one.
    if (!param && route.situation && FACT_NAME.test(name)) {
      // Own properties only: a fact named like an Object member ("constructor") is just a name.
      if (Object.hasOwn(filters, name))
        return badRequest(`fact "${name}" is given more than once`, { parameter: name })
      filters[name] = value
      continue
    }
    if (!param)
      return badRequest(
        allowed.length
          ? `unknown parameter "${name}"; ${route.path} accepts only ${allowed.join(', ')}`
          : `${route.path} takes no parameters`,
        { parameter: name, allowed },
      )
    const before = filters[name]
    if (before !== undefined && !param.repeatable)
      return badRequest(`parameter "${name}" is given more than once`, { parameter: name })
    if (param.pattern && !new RegExp(param.pattern).test(value))
      return badRequest(`parameter "${name}" is malformed: ${param.description}`, {
        parameter: name,
        pattern: param.pattern,
        ...(param.allowed ? { allowed: param.allowed } : {}),
      })
    // A repeatable parameter given again adds to the list, as commas would.
    filters[name] = before === undefined ? value : `${before},${value}`
  }
  return { filters }
}

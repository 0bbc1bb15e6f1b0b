/**
 * RFC 9457 problem details: the one error shape of both Workers.
 */

export interface Problem {
  status: number
  /** A URI naming the kind of problem. */
  type: string
  title: string
  detail: string
  /** Extra members, e.g. `allowed` values or `errors` by field. */
  extra?: Record<string, unknown>
}

export const PROBLEM_TYPES = 'https://rules-pricing-index.invalid/problems/'

export function problem(
  status: number,
  slug: string,
  title: string,
  detail: string,
  extra?: Record<string, unknown>,
): Problem {
  return { status, type: `${PROBLEM_TYPES}${slug}`, title, detail, ...(extra ? { extra } : {}) }
}

export function problemResponse(p: Problem, headers: Record<string, string> = {}): Response {
  const body = { type: p.type, title: p.title, status: p.status, detail: p.detail, ...p.extra }
  return new Response(JSON.stringify(body), {
    status: p.status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...headers },
  })
}

export const badRequest = (detail: string, extra?: Record<string, unknown>) =>
  problem(400, 'bad-request', 'Bad Request', detail, extra)
export const notFound = (detail: string, extra?: Record<string, unknown>) =>
  problem(404, 'not-found', 'Not Found', detail, extra)

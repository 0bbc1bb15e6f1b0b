/**
 * Usage counters, written off the request path (after the response) to the submissions Worker.
 * Directional only: the client class is whatever the User-Agent says.
 */

import type { Outcome } from '../schema/routes.js'
import type { Env } from './env.js'

const CLIENT_CLASSES: readonly [RegExp, string][] = [
  [/mppx/i, 'mppx'],
  [/mcp/i, 'mcp-client'],
  [/curl/i, 'curl'],
  [/python|httpx|aiohttp|requests/i, 'python'],
  [/node|undici|axios/i, 'node'],
  [/mozilla|chrome|safari/i, 'browser'],
]

export function clientClass(userAgent: string | null): string {
  if (!userAgent) return 'none'
  return CLIENT_CLASSES.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'other'
}

export function countHit(
  ctx: ExecutionContext,
  env: Env,
  req: Request,
  endpoint: string,
  outcome: Outcome,
): void {
  const body = JSON.stringify({ endpoint, outcome, client: clientClass(req.headers.get('user-agent')) })
  ctx.waitUntil(
    env.SUBMISSIONS.fetch('https://submissions/internal/hits', { method: 'POST', body }).then(
      (r) => r.body?.cancel(),
      () => undefined, // counters are best effort; a lost hit is acceptable, a failed request is not
    ),
  )
}

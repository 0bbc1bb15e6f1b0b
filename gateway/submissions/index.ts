/**
 * The submissions Worker (rules-pricing-submissions): crowd pricing submissions, their aggregates and
 * the usage counters, in D1. Reached only through the gateway's SUBMISSIONS service binding.
 * Privacy: rows and emails are written, never read back one by one, and never logged.
 */
import { hungUp, isHangUp } from '../http/hang-up.js'
import { problem, problemResponse } from '../http/problem.js'
import type { Env } from './env.js'
import { route } from './router.js'

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    let response: Response
    try {
      const handler = route(request)
      response = handler instanceof Response ? handler : await handler(request, env)
    } catch (error) {
      if (isHangUp(error)) return hungUp(new URL(request.url).pathname)
      // Name and message only (D1 messages carry SQL, not bound values), with anything shaped like an
      // email masked in case; never the request body.
      const message = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error'
      console.error('submissions: unhandled', message.replace(/\S+@\S+/g, '[masked]').slice(0, 300))
      response = problemResponse(
        problem(500, 'internal', 'Internal Server Error', 'an unexpected error on our side'),
      )
    }
    return request.method === 'HEAD' ? new Response(null, response) : response
  },
} satisfies ExportedHandler<Env>

/**
 * The retired layoff-notice feed: 410 Gone naming the free register. Never a payment challenge.
 */
import { WARN_FEED_RETIRED_ON } from '../schema/routes.js'
import type { Env } from './env.js'
import { problem, problemResponse } from './http/problem.js'

export function retiredFeed(env: Env): Response {
  return problemResponse(
    problem(
      410,
      'retired',
      'Gone',
      `The layoff-notice feed was withdrawn from sale on ${WARN_FEED_RETIRED_ON}. Use the free open register instead.`,
      {
        withdrawn_on: WARN_FEED_RETIRED_ON,
        replacement: {
          name: 'Open layoff-notice register (47 states)',
          licence: 'Apache-2.0',
          csv: env.REGISTER_URL,
          price: 'free',
        },
      },
    ),
    { 'cache-control': 'public, max-age=86400' },
  )
}

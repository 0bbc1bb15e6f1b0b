/**
 * The retired layoff-notice feed: 410 Gone naming the free register. Never a payment challenge.
 * Its lifecycle headers follow the version policy (schema/version-lifecycle.ts): `Deprecation`
 * (RFC 9745, the withdrawal date as `@<unix seconds>`), `Sunset` (RFC 8594, the last day the 410
 * answer is promised), and `Link` to the free register as the successor (RFC 5829
 * `successor-version`) and to the policy (RFC 9745 `deprecation`).
 */

import { WARN_FEED_RETIRED_ON } from '../schema/routes.js'
import { retiredHeaders } from '../schema/version-lifecycle.js'
import type { Env } from './env.js'
import { problem, problemResponse } from './http/problem.js'

const LIFECYCLE = retiredHeaders(WARN_FEED_RETIRED_ON)

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
    {
      'cache-control': 'public, max-age=86400',
      deprecation: LIFECYCLE.deprecation,
      sunset: LIFECYCLE.sunset,
      link: `<${env.REGISTER_URL}>; rel="successor-version"; type="text/csv", <${env.BASE_URL}/llms.txt>; rel="deprecation"; type="text/plain"`,
    },
  )
}

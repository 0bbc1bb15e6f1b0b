/**
 * The version policy's numbers and a retired path's lifecycle headers: what the Worker needs of the
 * policy (schema/version-policy.ts holds its statements, which the build renders).
 */
import { WARN_FEED_RETIRED_ON } from './routes.js'

/** How long a deprecated path keeps answering as before, counted from its announcement. */
export const DEPRECATION_NOTICE_DAYS = 180
/** How long a withdrawn path keeps answering 410 with its successor, counted from the withdrawal. */
export const RETIRED_ANSWER_DAYS = 365

const DAY_MS = 86_400_000
const dateMs = (isoDay: string) => Date.parse(`${isoDay}T00:00:00Z`)

/** A retired path's lifecycle headers: when it was withdrawn, when the 410 answer may end. */
export interface RetiredHeaders {
  /** RFC 9745: an RFC 9651 Date, `@<unix seconds>`. */
  deprecation: string
  /** RFC 8594: an HTTP-date. */
  sunset: string
}

export function retiredHeaders(withdrawnOn: string = WARN_FEED_RETIRED_ON): RetiredHeaders {
  const withdrawn = dateMs(withdrawnOn)
  return {
    deprecation: `@${withdrawn / 1000}`,
    sunset: new Date(withdrawn + RETIRED_ANSWER_DAYS * DAY_MS).toUTCString(),
  }
}

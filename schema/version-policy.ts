/**
 * The version and deprecation policy, written once. The build renders it into llms.txt and
 * summarises it in openapi.json `info`; README carries the same Markdown (a build test compares them); the retired
 * paths' headers take their dates from here.
 */

import { SERVICE_VERSION, WARN_FEED_RETIRED_ON } from './routes.js'
import { DEPRECATION_NOTICE_DAYS, RETIRED_ANSWER_DAYS } from './version-lifecycle.js'

export {
  DEPRECATION_NOTICE_DAYS,
  RETIRED_ANSWER_DAYS,
  type RetiredHeaders,
  retiredHeaders,
} from './version-lifecycle.js'

/** The policy, one statement a line: every rendering uses these sentences, in this order. */
export const VERSION_POLICY: readonly string[] = [
  `The service version (now ${SERVICE_VERSION}) follows semantic versioning and is the same in agents.json, openapi.json, the MCP server card and the MCP Registry entry.`,
  'Compatible changes ship under the current path prefix without notice: new paths, new MCP tools, new optional query parameters, new fields in an answer, new values in a list the documentation calls open.',
  'A breaking change is anything a working client could trip on: removing or renaming a path, tool, parameter or field; changing a field type or meaning; making a parameter required; changing the status code or problem type of an existing case; changing the payment scheme or method.',
  'A breaking change never changes an existing path: it gets a new path prefix (/v2 after /v1) and a new major version, and the old prefix keeps answering as before.',
  `A deprecated path keeps answering as before for at least ${DEPRECATION_NOTICE_DAYS} days from its announcement, with a Deprecation header (RFC 9745) giving the announcement date, a Sunset header (RFC 8594) giving the last day, and a Link to its successor (rel="successor-version").`,
  `After its last day a path answers 410 Gone, never a payment challenge, for at least ${RETIRED_ANSWER_DAYS} days from the withdrawal: the same Deprecation and Link headers, a Sunset header giving the last day of the 410 answer, and a body naming the replacement.`,
  'A deprecation is announced in openapi.json (deprecated: true), in llms.txt, in the headers of every answer from the path, and by a new version of the MCP Registry entry.',
  `A price rise keeps the paths: it is announced the same way at least ${DEPRECATION_NOTICE_DAYS} days before it takes effect, and every 402 challenge states the amount before anything is paid.`,
  `The layoff-notice feed (/v1/warn-feed*) was withdrawn on ${WARN_FEED_RETIRED_ON}, before this policy, without a notice period; it answers 410 as above, its Deprecation date being that withdrawal day.`,
]

export const VERSION_POLICY_TITLE = 'Versions and deprecation'

/** The policy in one sentence, for openapi.json (whose size is capped); the statements are in llms.txt. */
export const VERSION_POLICY_SUMMARY = `Semantic versioning; a breaking change gets a new path prefix and the old one keeps answering; a deprecation or a price rise is announced at least ${DEPRECATION_NOTICE_DAYS} days ahead, and a withdrawn path answers 410 for ${RETIRED_ANSWER_DAYS} days.`

/** The policy as one paragraph (llms.txt). */
export function versionPolicyText(): string {
  return VERSION_POLICY.join(' ')
}

/** The policy as a Markdown section body: one bullet a statement (README). */
export function versionPolicyMarkdown(): string {
  return VERSION_POLICY.map((line) => `- ${line}`).join('\n')
}

/**
 * POST /v1/pricing/submit: one crowd pricing row into D1, answered 202 without echoing any of it.
 * Checks, cheapest first: content type (415), flood limit (429), size (413), JSON (400), schema (400).
 */

import type { Retryable } from '../../schema/retryable.js'
import { MAX_SUBMISSION_BYTES } from '../../schema/submission.js'
import { hungUp } from '../http/hang-up.js'
import { problem, problemResponse } from '../http/problem.js'
import { discardBody, readBody } from '../http/read-body.js'
import { sha256Hex } from '../sha256-hex.js'
import { recordSubmission } from './aggregate.js'
import { isJsonRequest } from './content-type.js'
import type { Env } from './env.js'
import { clientKey, limitPerMinute, submitterNetwork, takeSubmitSlot } from './rate-limit.js'
import { validateSubmission } from './validation.js'

const NO_STORE = { 'cache-control': 'no-store' }

function submissionTooLarge(): Response {
  return problemResponse(
    problem(
      413,
      'content-too-large',
      'Content Too Large',
      `a submission is at most ${MAX_SUBMISSION_BYTES} bytes`,
      {
        max_bytes: MAX_SUBMISSION_BYTES,
      },
    ),
  )
}
const MIN_SALT_LENGTH = 32

export async function submit(request: Request, env: Env): Promise<Response> {
  const refused = await refuseEarly(request, env)
  if (refused) {
    // A refused body is left unread (read-body.ts).
    await discardBody(request)
    return refused
  }
  return accept(request, env)
}

/** The checks made before the body is read: content type, configuration, flood limit. */
async function refuseEarly(request: Request, env: Env): Promise<Response | undefined> {
  if (!isJsonRequest(request)) {
    return problemResponse(
      problem(
        415,
        'unsupported-media-type',
        'Unsupported Media Type',
        'send the submission as application/json (UTF-8, no content coding)',
        {
          accepted: ['application/json'],
        },
      ),
      { 'accept-post': 'application/json' },
    )
  }

  if ((env.SUBMITTER_SALT ?? '').length < MIN_SALT_LENGTH)
    return problemResponse(
      problem(
        503,
        'not-configured',
        'Submissions Not Configured',
        'this service cannot take submissions yet',
      ),
    )

  const slot = await takeSubmitSlot(
    env.DB,
    clientKey(request),
    limitPerMinute(env.SUBMIT_LIMIT_PER_MINUTE),
    Date.now(),
  )
  if (!slot.ok) {
    return problemResponse(
      problem(
        429,
        'too-many-requests',
        'Too Many Requests',
        `too many submissions from this client; retry after ${slot.retryAfter} s`,
        {
          retry_after_seconds: slot.retryAfter,
          retryable: 'same-credential' satisfies Retryable,
        },
      ),
      { 'retry-after': String(slot.retryAfter) },
    )
  }
  return undefined
}

async function accept(request: Request, env: Env): Promise<Response> {
  const body = await readBody(request, MAX_SUBMISSION_BYTES)
  if (!body.ok) return body.reason === 'hung-up' ? hungUp('/v1/pricing/submit') : submissionTooLarge()

  let json: unknown
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body.bytes))
  } catch {
    // The parser's own message quotes the input, so it is not passed on.
    return problemResponse(problem(400, 'invalid-json', 'Bad Request', 'the body is not valid UTF-8 JSON'))
  }

  const checked = validateSubmission(json)
  if (!checked.ok) {
    return problemResponse(
      problem(
        400,
        'invalid-submission',
        'Bad Request',
        `the submission has ${checked.errors.length} problem(s); see errors`,
        {
          errors: checked.errors,
        },
      ),
    )
  }

  // The submitter's network, told apart for the disclosure rule without keeping who it is: a salted hash.
  const submitter = await sha256Hex(`${env.SUBMITTER_SALT}\n${submitterNetwork(request)}`)
  await recordSubmission(env.DB, checked.value, submitter)
  const body202 = {
    status: 'accepted',
    category: checked.value.category,
    message:
      'Thank you. Your submission is stored and counted; only category aggregates are published, from a periodic snapshot (medians once a category has 5 or more submissions from 5 or more submitters), never this submission or your email.',
    aggregates: '/v1/pricing/aggregates',
  }
  return new Response(JSON.stringify(body202), {
    status: 202,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE },
  })
}

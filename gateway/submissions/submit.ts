/**
 * POST /v1/pricing/submit: one crowd pricing row into D1, answered 202 without echoing any of it.
 * Checks, cheapest first: content type (415), flood limit (429), size (413), JSON (400), schema (400).
 */

import { MAX_SUBMISSION_BYTES } from '../../schema/submission.js'
import { problem, problemResponse } from '../http/problem.js'
import { recordSubmission } from './aggregate.js'
import { isJsonRequest } from './content-type.js'
import type { Env } from './env.js'
import { clientKey, limitPerMinute, takeSubmitSlot } from './rate-limit.js'
import { readBody } from './read-body.js'
import { validateSubmission } from './validation.js'

const NO_STORE = { 'cache-control': 'no-store' }

export async function submit(request: Request, env: Env): Promise<Response> {
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

  const slot = await takeSubmitSlot(env.DB, clientKey(request), limitPerMinute(env.SUBMIT_LIMIT_PER_MINUTE))
  if (!slot.ok) {
    return problemResponse(
      problem(
        429,
        'too-many-requests',
        'Too Many Requests',
        `too many submissions from this client; retry after ${slot.retryAfter} s`,
        {
          retry_after_seconds: slot.retryAfter,
        },
      ),
      { 'retry-after': String(slot.retryAfter) },
    )
  }

  const body = await readBody(request, MAX_SUBMISSION_BYTES)
  if (!body.ok) {
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

  await recordSubmission(env.DB, checked.value)
  const body202 = {
    status: 'accepted',
    category: checked.value.category,
    message:
      'Thank you. Your submission is stored and counted; only category aggregates are published (medians once a category has 5 or more submissions), never this submission or your email.',
    aggregates: '/v1/pricing/aggregates',
  }
  return new Response(JSON.stringify(body202), {
    status: 202,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE },
  })
}

/**
 * schema/CONTRACT.md states in words what the code defines. Each value the contract promises is read
 * here from the code that enforces it and must appear in the text, so a change to a price, a limit,
 * a route, a tool, a problem type or a vocabulary fails until the contract says the same.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { MAX_CREDENTIAL_BYTES } from '../../gateway/payment/credential.js'
import {
  FAILED_PAYMENTS_PER_MINUTE,
  UNFINISHED_PAYMENTS_PER_HOUR,
} from '../../gateway/payment/failure-window.js'
import { PAYMENT_PROBLEMS } from '../../gateway/payment/problems.js'
import { ANSWER_REPLAY_MS, RECONCILE_LOOKBACK_MS } from '../../gateway/payment/retention.js'
import {
  ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR,
  CHALLENGE_TTL_MS,
  HOLD_MARGIN_MS,
  PROCESSOR_TIMEOUT_MS,
  RESENDS_PER_MINUTE,
  SHARED_ADDRESS_ROOM_MS,
  UNFINISHED_PAYMENTS_PER_HOUR_PER_48,
} from '../../schema/config.js'
import { MCP_PROTOCOL_VERSIONS, MCP_TOOLS } from '../../schema/mcp-tools.js'
import { COVERAGE_GOAL, PricingIndexDescriptor, REREAD_PERIOD_DAYS } from '../../schema/pricing-index.js'
import { RETIRED_KEY_DAYS } from '../../schema/receipt-claims.js'
import { OUTCOMES, PRICE, ROUTES, SERVICE_VERSION, WARN_FEED_RETIRED_ON } from '../../schema/routes.js'
import { DISCLOSURE_THRESHOLD, MAX_SUBMISSION_BYTES, Submission } from '../../schema/submission.js'
import { DEPRECATION_NOTICE_DAYS, RETIRED_ANSWER_DAYS } from '../../schema/version-policy.js'
import {
  ACTIONS,
  EVIDENCE_LABELS,
  INDEX_CATEGORIES,
  PHASES,
  PRICING_MODELS,
  SUBMISSION_CATEGORIES,
} from '../../schema/vocabulary.js'

const contract = readFileSync('schema/CONTRACT.md', 'utf8')
/** The submissions Worker's default limit, read from its source (its module needs the Workers types). */
const DEFAULT_LIMIT_PER_MINUTE = Number(
  /DEFAULT_LIMIT_PER_MINUTE = (\d+)/.exec(readFileSync('gateway/submissions/rate-limit.ts', 'utf8'))?.[1],
)
/** The text with line breaks and runs of spaces as one space, so a phrase may wrap. */
const flat = contract.replace(/\s+/g, ' ')
const HOUR_MS = 60 * 60 * 1000
const says = (phrase: string) =>
  expect(flat.includes(phrase), `schema/CONTRACT.md should say "${phrase}"`).toBe(true)
/** A name or value written as code: `x`. */
const names = (value: string) => says(`\`${value}\``)

describe('schema/CONTRACT.md against the code', () => {
  it('behavior: the price and the inventory are the ones the code and content hold', () => {
    says(`${PRICE.display} a call`)
    names(PRICE.amount)
    names(PRICE.currency)
    const inventory = parse(readFileSync('content/inventory.yaml', 'utf8')) as Record<string, number>
    const { foundational = 0, paid = 0, playbooks = 0, gates = 0 } = inventory
    says(`${foundational + paid} rules (${foundational} foundational, free in full; ${paid} paid)`)
    says(`${playbooks} playbooks`)
    says(`${gates} pre-ship gates`)
    says(`cover ${COVERAGE_GOAL.products} products, at least ${COVERAGE_GOAL.per_category} per category`)
    says(`\`REREAD_PERIOD_DAYS\` = ${REREAD_PERIOD_DAYS}`)
  })

  it('behavior: every route, MCP tool and protocol revision is in the contract', () => {
    for (const route of ROUTES) says(`${route.path}\``)
    for (const tool of MCP_TOOLS) names(tool.name)
    for (const version of MCP_PROTOCOL_VERSIONS) says(version)
    says(SERVICE_VERSION)
    says(WARN_FEED_RETIRED_ON)
  })

  it('behavior: every field of the descriptor and the submission, and every vocabulary, is named', () => {
    for (const field of Object.keys(PricingIndexDescriptor.shape)) says(`\`${field}\``)
    for (const field of Object.keys(Submission.shape)) says(`\`${field}\``)
    for (const value of [...INDEX_CATEGORIES, ...PRICING_MODELS, ...OUTCOMES]) names(value)
    expect(SUBMISSION_CATEGORIES.filter((c) => !(INDEX_CATEGORIES as readonly string[]).includes(c))).toEqual(
      ['other'],
    )
    says('an index category or `other`')
    for (const phase of PHASES) {
      says(phase.name)
      names(phase.slug)
    }
    for (const label of EVIDENCE_LABELS) says(label)
    // The actions are a closed list the contract points to by name, not a copy.
    expect(ACTIONS.length).toBeGreaterThan(0)
    names('ACTIONS')
  })

  it('behavior: every payment problem type is in the errors table', () => {
    for (const problem of Object.keys(PAYMENT_PROBLEMS)) names(problem)
  })

  it('behavior: each limit is the value the code enforces', () => {
    says(`${CHALLENGE_TTL_MS / 60_000} minutes, checked at the first claim only`)
    says(`${MAX_CREDENTIAL_BYTES / 1024} KiB; nested at most 16 levels`)
    says(
      `${FAILED_PAYMENTS_PER_MINUTE} refused within a minute, or ${UNFINISHED_PAYMENTS_PER_HOUR} unfinished within an hour`,
    )
    says(
      `${UNFINISHED_PAYMENTS_PER_HOUR_PER_48} unfinished within an hour, then 429 for new claims (\`UNFINISHED_PAYMENTS_PER_HOUR_PER_48\`)`,
    )
    says(`one more new claim every ${SHARED_ADDRESS_ROOM_MS / 60_000} minutes (\`SHARED_ADDRESS_ROOM_MS\`)`)
    says(`${ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR} unfinished within an hour, then 503 \`payments-busy\``)
    says(
      `lapses after ${(2 * PROCESSOR_TIMEOUT_MS + HOLD_MARGIN_MS) / 1000} s (twice \`PROCESSOR_TIMEOUT_MS\` + \`HOLD_MARGIN_MS\`)`,
    )
    says(`| answer replay | a repeat under its \`Idempotency-Key\` | ${ANSWER_REPLAY_MS / HOUR_MS} hours`)
    says(`at most ${RESENDS_PER_MINUTE} a minute, one at a time (\`RESENDS_PER_MINUTE\``)
    says(`| ${RESENDS_PER_MINUTE} a minute, one at a time, then 429 \`too-many-resends\``)
    says(`looking back ${RECONCILE_LOOKBACK_MS / HOUR_MS} hours`)
    says(`| submission body | \`POST /v1/pricing/submit\` | ${MAX_SUBMISSION_BYTES / 1024} KiB`)
    says(`${DEFAULT_LIMIT_PER_MINUTE} a minute (\`SUBMIT_LIMIT_PER_MINUTE\`)`)
    says(`${DISCLOSURE_THRESHOLD} or more submissions from ${DISCLOSURE_THRESHOLD} or more distinct`)
    says(`a retired key stays there ${RETIRED_KEY_DAYS} days`)
    says(`at least ${DEPRECATION_NOTICE_DAYS} days`)
    says(`at least ${RETIRED_ANSWER_DAYS} days`)
    // The reconciler's schedule is the gateway's Cron Trigger.
    const cron = /"crons":\s*\["\*\/(\d+) \* \* \* \*"\]/.exec(readFileSync('gateway/wrangler.jsonc', 'utf8'))
    says(`every ${cron?.[1]} minutes`)
  })
})

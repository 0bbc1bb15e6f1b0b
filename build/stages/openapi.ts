/**
 * openapi.json (OpenAPI 3.1.0), derived from the route table, the price and the zod contracts.
 */

import * as z from 'zod'
import type { ServiceUrls } from '../../schema/config.js'
import { BUNDLES } from '../../schema/datasets.js'
import { ANSWER_REPLAY_HOURS, IDEMPOTENCY_KEY_RULE, MONEY_BACK_SHORT } from '../../schema/money-back.js'
import { PAYMENT_TOKEN_SUMMARY } from '../../schema/payment-token.js'
import { MPP_METHODS } from '../../schema/payment-ways.js'
import { JWKS_PATH, RECEIPT_CLAIMS } from '../../schema/receipt-claims.js'
import { type AnswerRoute, RESPONSES, responseComponents } from '../../schema/responses.js'
import { RETRYABLE_POLICY } from '../../schema/retryable.js'
import {
  PRICE,
  type QueryParam,
  ROUTES,
  type Route,
  SERVICE_VERSION,
  WARN_FEED_RETIRED_ON,
} from '../../schema/routes.js'
import { type Fact, factJsonSchema } from '../../schema/situation.js'
import { Submission } from '../../schema/submission.js'
import {
  DEPRECATION_NOTICE_DAYS,
  RETIRED_ANSWER_DAYS,
  retiredHeaders,
  VERSION_POLICY_SUMMARY,
  VERSION_POLICY_TITLE,
} from '../../schema/version-policy.js'
import { WALLET_PAYMENT_SUMMARY, WALLET_REFUND_SHORT } from '../../schema/wallet-payment.js'

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
})

/** The refusals every paid call can answer, by status, named under components/responses. */
const PAYMENT_REFUSALS = {
  '402': 'PaymentRequired',
  '409': 'PaymentAlreadyAccepted',
  '429': 'PaymentLimited',
  '503': 'PaymentPending',
} as const

const paymentProblem = (type: string) => ({
  [type]: { schema: { $ref: '#/components/schemas/PaymentProblem' } },
})
const retryAfter = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }

/** What each refusal of a paid call means and asks of the client (retryable: schema/retryable.ts). */
function paymentRefusals() {
  return {
    PaymentRequired: {
      description:
        'Payment required (retryable "pay-again"): pay a fresh offer (WWW-Authenticate, PAYMENT-REQUIRED or the body\'s x402 v1 accepts) and repeat the call (payment-refunded: this credential was charged, not delivered, and refunded). payment-action-required ("same-credential"): the card needs an extra step; WWW-Authenticate repeats this credential\'s challenge; complete the step, then send the same credential',
      content: paymentProblem('application/problem+json'),
      headers: {
        'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' },
        'PAYMENT-REQUIRED': { $ref: '#/components/headers/PAYMENT-REQUIRED' },
      },
    },
    PaymentAlreadyAccepted: {
      description:
        'payment-already-accepted: this credential was settled and its answer given to the request that first sent it; no challenge. retryable "same-credential": send it with that request\'s Idempotency-Key to get the same answer again; false: that request carried no key (or its window is over), so the answer cannot be sent again',
      content: paymentProblem('application/problem+json'),
    },
    PaymentLimited: {
      description:
        'Too many refused or unfinished payments from this client (too-many-failed-attempts; no challenge, nothing claimed or charged): after Retry-After, retryable "same-credential" if the challenge outlives the wait, else "pay-again". too-many-resends: one payment\'s answer re-sent too often; "same-credential" after Retry-After, nothing charged',
      content: paymentProblem('application/problem+json'),
      headers: retryAfter,
    },
    PaymentPending: {
      description:
        'Payment pending (processor slow, or this credential\'s first request still settling): "same-credential", send it again after Retry-After; never charged twice. Or data-unavailable (nothing charged): repeat after Retry-After. Or payments-busy (unfinished payments at their hourly bound; nothing claimed or charged): as for 429',
      content: paymentProblem('application/problem+json'),
      headers: retryAfter,
    },
  }
}

const json = (description: string, schema: object = { type: 'object' }) => ({
  description,
  content: { 'application/json': { schema } },
})

/**
 * The offers each paid operation lists, one per Payment-scheme method; the 402 stays authoritative.
 * The operation's summary says what it buys (openapi.json has a 64 KB cap, so it is not repeated).
 * The wallet rail's offer is the same price, settled in USDC (its challenge names token and chain).
 */
const OFFERS = MPP_METHODS.map((method) => ({
  intent: 'charge',
  method,
  amount: PRICE.amount,
  currency: PRICE.currency,
}))

/**
 * What x402 crawlers read beside the MPP offers: the price in dollars and each protocol that
 * carries it (the Payment scheme's methods; x402's scheme and versions, in PAYMENT-REQUIRED and
 * the 402 body).
 */
export function paymentInfo() {
  return {
    offers: OFFERS,
    price: {
      mode: 'fixed',
      currency: PRICE.currency.toUpperCase(),
      amount: (Number(PRICE.amount) / 100).toFixed(2),
    },
    // The offers name the Payment scheme's methods; x402's entry names its scheme and versions.
    protocols: [{ mpp: {} }, { x402: { scheme: 'exact', versions: [2, 1] } }],
  }
}

/** The answer schemas, written once under components/schemas and referenced by each operation. */
const answers = responseComponents('#/components/schemas/')

/** Each fact is one query parameter, written once under components/parameters. */
const factParameter = (f: Fact) => `fact-${f.fact}`

function factParameters(facts: readonly Fact[]) {
  return Object.fromEntries(
    facts.map((f) => {
      const { description, ...schema } = factJsonSchema(f)
      return [factParameter(f), { name: f.fact, in: 'query', description, schema }]
    }),
  )
}

// `required` is left out: false is its default (openapi.json has a 64 KB cap).
const queryParameter = (p: QueryParam) => ({
  name: p.name,
  in: 'query',
  description: p.description,
  ...paramSchema(p),
  example: p.example,
})

/** Parameters several routes take with the same meaning: written once under components/parameters. */
const SHARED_PARAMS = ['action', 'format', 'technologies', 'limit']

function sharedParameters() {
  return Object.fromEntries(
    SHARED_PARAMS.map((name) => {
      const p = ROUTES.flatMap((r) => r.params).find((q) => q.name === name)
      if (!p) throw new Error(`no route takes the shared parameter ${name}`)
      return [name, queryParameter(p)]
    }),
  )
}

/** A parameter's schema: a repeatable one (action) is a list, sent repeated or joined by commas. */
function paramSchema(p: QueryParam) {
  if (p.integer) return { schema: { type: 'integer', ...p.integer } }
  const one = p.allowed
    ? { type: 'string', enum: [...p.allowed] }
    : { type: 'string', ...(p.pattern ? { pattern: p.pattern } : {}) }
  return p.repeatable
    ? { schema: { type: 'array', items: one }, style: 'form', explode: true }
    : { schema: one }
}

function operation(route: Route, facts: readonly Fact[]) {
  const op: Record<string, unknown> = {
    operationId: route.name,
    summary: route.summary,
    tags: [route.access],
  }
  if (route.params.length)
    op.parameters = route.params.map((p) =>
      SHARED_PARAMS.includes(p.name) ? { $ref: `#/components/parameters/${p.name}` } : queryParameter(p),
    )
  // A situation route takes each fact of the content as a further parameter (schema/situation.ts).
  if (route.situation)
    op.parameters = [
      ...((op.parameters as unknown[]) ?? []),
      ...facts.map((f) => ({ $ref: `#/components/parameters/${factParameter(f)}` })),
    ]
  const responses: Record<string, unknown> = {}
  if (route.access === 'retired') {
    op.deprecated = true
    op.description = `Withdrawn from sale on ${WARN_FEED_RETIRED_ON}. Answers 410 Gone, naming the free Apache-2.0 open register and its CSV address. Never issues a payment challenge.`
    // The same for every retired path: written once (openapi.json has a 64 KB cap).
    responses['410'] = { $ref: '#/components/responses/Gone' }
  } else if (route.name === 'submit') {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: z.toJSONSchema(Submission, { io: 'input' }) } },
    }
    responses['202'] = json('Accepted; the row is never echoed')
    responses['400'] = problem('Invalid submission: every problem listed by field')
    responses['413'] = problem('Body over 16 KiB')
    responses['415'] = problem('Content type other than application/json')
    responses['429'] = problem('Too many submissions from this client; see Retry-After')
  } else if (route.name in RESPONSES) {
    responses['200'] = json(
      route.access === 'paid' ? 'The payload, with a Payment-Receipt header' : 'OK',
      answers.ref(route.name as AnswerRoute),
    )
    // format=agents-md or skill (or Accept: text/markdown): the same answer as Markdown to save.
    if (route.params.some((p) => p.name === 'format')) {
      const ok = responses['200'] as { content: Record<string, unknown> }
      ok.content['text/markdown'] = { schema: { $ref: '#/components/schemas/Markdown' } }
    }
  } else if (route.path === '/llms.txt') {
    responses['200'] = {
      description: 'Plain-text summary',
      content: { 'text/plain': { schema: { type: 'string' } } },
    }
  } else {
    // A free document with no schema of its own: one shared response (openapi.json has a 64 KB cap).
    responses['200'] =
      route.access === 'paid'
        ? json('The payload, with a Payment-Receipt header')
        : { $ref: '#/components/responses/Ok' }
  }
  if (route.access === 'paid') {
    op['x-payment-info'] = paymentInfo()
    op.parameters = [
      ...((op.parameters as unknown[]) ?? []),
      { $ref: '#/components/parameters/Idempotency-Key' },
    ]
    responses['200'] = {
      ...(responses['200'] as object),
      headers: {
        'Payment-Receipt': { $ref: '#/components/headers/Payment-Receipt' },
        'Content-Digest': { $ref: '#/components/headers/Content-Digest' },
      },
    }
    responses['400'] = problem('A malformed parameter or Idempotency-Key; nothing is claimed or charged')
    // The refusals are the same for every paid call: written once under components/responses.
    for (const [status, name] of Object.entries(PAYMENT_REFUSALS))
      responses[status] = { $ref: `#/components/responses/${name}` }
    op.security = [{ payment: [] }]
  } else {
    // Free: no authentication of any kind.
    op.security = []
    if (route.name in BUNDLES || route.name === 'index')
      responses['503'] = { $ref: '#/components/responses/DataUnavailable' }
  }
  if (route.params.length) {
    // Written once under components/responses (openapi.json has a 64 KB cap).
    responses['400'] = { $ref: '#/components/responses/BadFilter' }
    responses['404'] = { $ref: '#/components/responses/NothingMatches' }
  }
  op.responses = responses
  return op
}

export function openapi(urls: ServiceUrls, facts: readonly Fact[]) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of ROUTES) {
    if (route.path === '/mcp') continue // JSON-RPC, described in the MCP server card
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route, facts) }
  }
  paths['/mcp'] = {
    post: {
      operationId: 'mcp',
      summary: ROUTES.find((r) => r.path === '/mcp')?.summary,
      description:
        'Model Context Protocol over Streamable HTTP (stateless, JSON): revisions 2026-07-28 (server/discover) and 2025-11-25 (initialize). Tools sell or give the data of the routes here (tools/list gives each price); resources are the free documents. See /mcp/server-card.',
      tags: ['free'],
      // The transport needs no authentication; paid tools take their payment in band.
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': json('JSON-RPC response'),
        '400': json(
          'Not one JSON-RPC message (batches are refused), an unsupported protocol version or headers that do not match the body: a JSON-RPC error',
        ),
        '403': json(
          'An Origin that may not call (the opaque null origin, or plain http other than loopback): a JSON-RPC error',
        ),
      },
    },
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rules and Pricing-Index Service',
      version: SERVICE_VERSION,
      description: `Engineering-practice rules traced to real incidents, and an index of published AI product prices. Paid operations cost ${PRICE.display} per call through the HTTP "Payment" authentication scheme (intent charge), by card or in USDC (see securitySchemes); no account here. Every paid answer carries a signed receipt (components/headers/Payment-Receipt; its policy: llms.txt). ${MONEY_BACK_SHORT}\n\n${VERSION_POLICY_TITLE}: ${VERSION_POLICY_SUMMARY} The whole policy: ${urls.base_url}/llms.txt.`,
      'x-version-policy': {
        breakingChange: 'new path prefix and new major version; the old prefix keeps answering',
        deprecationNoticeDays: DEPRECATION_NOTICE_DAYS,
        retiredAnswerDays: RETIRED_ANSWER_DAYS,
        headers: ['Deprecation (RFC 9745)', 'Sunset (RFC 8594)', 'Link rel="successor-version"'],
        // openapi.json has a 64 KB cap: the policy's prose is in llms.txt and README, once each.
        policy: `${urls.base_url}/llms.txt`,
      },
    },
    servers: [{ url: urls.base_url }],
    'x-service-info': {
      categories: ['data', 'developer-tools'],
      docs: {
        apiReference: `${urls.base_url}/openapi.json`,
        homepage: urls.site_url,
        llms: `${urls.base_url}/llms.txt`,
      },
    },
    paths,
    components: {
      responses: {
        ...paymentRefusals(),
        Ok: json('OK'),
        Gone: {
          ...problem('Gone: names the free register, its licence and CSV address; no payment challenge'),
          headers: {
            Deprecation: { $ref: '#/components/headers/Deprecation' },
            Sunset: { $ref: '#/components/headers/Sunset' },
            Link: { $ref: '#/components/headers/Link' },
          },
        },
        BadFilter: problem('A malformed parameter; no charge'),
        NothingMatches: problem('The filter matches nothing; the body lists the valid values; no charge'),
        DataUnavailable: problem(
          'The dataset could not be read (data-unavailable): repeat after Retry-After',
        ),
      },
      parameters: {
        ...sharedParameters(),
        ...factParameters(facts),
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: `Optional on paid calls: repeated with the same credential and key within ${ANSWER_REPLAY_HOURS} hours, the request gets its original answer again (same bytes, Content-Digest and Payment-Receipt), with no second charge.`,
          schema: { type: 'string', description: IDEMPOTENCY_KEY_RULE, maxLength: 257 },
        },
      },
      securitySchemes: {
        payment: {
          type: 'http',
          scheme: 'Payment',
          description: `HTTP "Payment" scheme (draft-httpauth-payment-01): answer the 402 challenge, then send Authorization: Payment <credential>; ${PAYMENT_TOKEN_SUMMARY} ${WALLET_PAYMENT_SUMMARY} ${WALLET_REFUND_SHORT}`,
        },
      },
      headers: {
        Deprecation: {
          description: `RFC 9745: when the path was deprecated, as an RFC 9651 Date (@<unix seconds>); on the retired feed ${retiredHeaders().deprecation}, the withdrawal on ${WARN_FEED_RETIRED_ON}`,
          schema: { type: 'string', pattern: '^@-?[0-9]+$' },
        },
        Sunset: {
          description: `RFC 8594: the last day the path's current answer is promised (HTTP-date); on the retired feed the end of the ${RETIRED_ANSWER_DAYS}-day 410 period, ${retiredHeaders().sunset}`,
          schema: { type: 'string' },
        },
        Link: {
          description:
            'RFC 8288: the successor (rel="successor-version", the free open register CSV) and the version policy (rel="deprecation", llms.txt)',
          schema: { type: 'string' },
        },
        'Retry-After': {
          description: 'Seconds to wait before sending the same request again (RFC 9110)',
          schema: { type: 'integer', minimum: 0 },
        },
        'WWW-Authenticate': {
          description:
            'Payment challenges: id, realm, method ("stripe", then "evm"; an Accept-Payment header such as "evm/charge" picks and orders them), intent="charge", request, description, expires, opaque',
          schema: { type: 'string' },
        },
        'PAYMENT-REQUIRED': {
          description:
            'x402 v2 offer where the wallet rail is offered: base64 JSON (resource with serviceName and tags, accepts, extensions.bazaar with input and output schema); pay with PAYMENT-SIGNATURE. The body holds the x402 v1 offer (x402Version 1, accepts); pay with X-PAYMENT',
          schema: { type: 'string' },
        },
        'Content-Digest': {
          description: 'RFC 9530 sha-256 of the body, the digest the signed receipt binds',
          schema: { type: 'string' },
        },
        'Payment-Receipt': {
          description: `base64url JSON receipt: status, method, timestamp, reference (PaymentIntent id or transaction), challengeId, amount, currency (a wallet's: chainId, payer), and jws: a compact JWS (EdDSA) over ${Object.keys(RECEIPT_CLAIMS).join(', ')}, verifiable with ${JWKS_PATH}`,
          schema: { type: 'string' },
        },
      },
      schemas: {
        ...answers.schemas,
        // The Markdown form of every rules answer: written once, referenced by each.
        Markdown: {
          type: 'string',
          description: 'agents-md, or skill (a YAML header: name, description)',
        },
        Problem: {
          type: 'object',
          description: 'RFC 9457 problem details',
          required: ['type', 'title', 'status'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            challengeId: { type: 'string' },
            retryable: { $ref: '#/components/schemas/Retryable' },
            payment_help: { type: 'string' },
          },
        },
        PaymentProblem: {
          description: 'The problem body of every refusal of a paid call (402, 409, 429, 503)',
          allOf: [{ $ref: '#/components/schemas/Problem' }],
          required: ['type', 'title', 'status', 'detail', 'retryable'],
        },
        Retryable: {
          description: RETRYABLE_POLICY,
          oneOf: [
            { type: 'string', enum: ['pay-again', 'same-credential'] },
            { type: 'boolean', const: false },
          ],
        },
      },
    },
  }
}

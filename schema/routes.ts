/**
 * The route table: the one list of every HTTP endpoint. The gateway router, openapi.json,
 * agents.json `endpoints`, llms.txt and the MCP tool list are all derived from it.
 */

import { FORMATS } from './markdown.js'
import { TECHNOLOGIES_MAX } from './technologies.js'
import { ACTIONS, INDEX_CATEGORIES } from './vocabulary.js'

export type Access = 'free' | 'paid' | 'retired'

export interface QueryParam {
  name: string
  description: string
  example: string
  /** A regular expression the raw value must match, checked before any payment challenge. */
  pattern?: string
  /** The closed set of values, when there is one (published as an OpenAPI enum). */
  allowed?: readonly string[]
  /** The parameter may name several values: repeated, or joined by commas (read as one list). */
  repeatable?: true
  /** A whole number in this range (an integer in openapi.json and in the MCP tools' arguments). */
  integer?: { minimum: number; maximum: number }
}

export interface Route {
  /** Short name used in agents.json `endpoints` and as the OpenAPI operationId. */
  name: string
  method: 'GET' | 'POST'
  path: string
  access: Access
  summary: string
  params: readonly QueryParam[]
  /** The MCP tool that sells or gives the same data, if any. */
  mcpTool?: string
  /**
   * The route also reads a situation: `action` and any fact of the free catalogue's `facts` as
   * further parameters (schema/situation.ts), checked against the content before any challenge.
   */
  situation?: true
}

/** The price of every paid call, in the smallest unit of the currency (cents). */
/** A situated answer's items in full by default, and the most a call may ask for (`limit`). */
export const LIMIT_DEFAULT = 7
/** The default on a fast path (an emergency, or outside production): fewer items, nothing that waits. */
export const FAST_PATH_LIMIT = 4
export const LIMIT_MAX = 50
/** The longest `change` text a call may send. */
export const CHANGE_MAX = 200

const PRICE_CENTS = 50
/** The price as challenges carry it (`amount`, `currency`) and as every text states it (`display`). */
export const PRICE = {
  amount: String(PRICE_CENTS),
  currency: 'usd',
  display: `${(PRICE_CENTS / 100).toFixed(2)} USD`,
} as const

/** The topic filter; `example` is a topic that the route's own items carry. */
const topic = (example: string): QueryParam => ({
  name: 'topic',
  description: 'Topic keyword filter, e.g. retry, deploy, cache, verify, dns (see /v1/catalogue topics).',
  example,
  pattern: '^[A-Za-z0-9-]{1,40}$',
})

/**
 * The situation's action. Facts go beside it as further parameters named in the free catalogue's
 * `facts` (e.g. `targets=3&stateful=false`); an unanswered fact keeps the checks that depend on it.
 */
const action = (example: string): QueryParam => ({
  name: 'action',
  description: `The action(s) about to be taken (the free /v1/catalogue lists the actions, the facts and common changes): only items that apply come, each with applies_because. Several actions (comma-joined or repeated) give the union. Facts go as further parameters (emergency=false&targets=3); an unanswered fact is named with its question.`,
  example,
  pattern: '^[^\\u0000-\\u001f]{1,400}$',
  allowed: ACTIONS,
  repeatable: true,
})

/** The representation of a rules answer: JSON, or Markdown an agent loads (schema/markdown.ts). */
const format: QueryParam = {
  name: 'format',
  description:
    'json (default), agents-md (Markdown for AGENTS.md; also by Accept: text/markdown) or skill (the same under a YAML header, for SKILL.md); the payment binds it',
  example: 'agents-md',
  pattern: '^[a-z-]{1,20}$',
  allowed: FORMATS,
}

/**
 * What the change touches (schema/technologies.ts): the answer adds the known traps of each, for the
 * action(s) asked and the version given, and says plainly which names have none on file.
 */
const technologies: QueryParam = {
  name: 'technologies',
  description: `Technologies changed (ids or aliases from /v1/catalogue), optional @version, at most ${TECHNOLOGIES_MAX}: adds their traps; a name with none on file is said so`,
  example: 'postgresql@16,pgbouncer',
  pattern: '^[A-Za-z0-9@._+, -]{1,400}$',
  repeatable: true,
}

/** How many items a situated answer holds in full (most severe first); the rest are one-line also_consider. */
const limit: QueryParam = {
  name: 'limit',
  description: `Items in full (default ${LIMIT_DEFAULT}; ${FAST_PATH_LIMIT} if emergency or production=false); rest: also_consider`,
  example: '10',
  pattern: '^[0-9]{1,3}$',
  integer: { minimum: 1, maximum: LIMIT_MAX },
}

/** The change in the agent's words: the named technologies' traps told in the same words rank first. */
const change: QueryParam = {
  name: 'change',
  description: `The change in a few words, with technologies: their traps told in its words lead`,
  example: 'add partitions to the orders topic',
  pattern: `^[^\\u0000-\\u001f]{1,${CHANGE_MAX}}$`,
}

/** What the checklist's `include` may add to its answer: the rules of the same situation. */
export const INCLUDES = ['rules'] as const

export const ROUTES: readonly Route[] = [
  {
    name: 'catalogue',
    method: 'GET',
    path: '/v1/catalogue',
    access: 'free',
    summary:
      'Identity, phase and tags of every rule, playbook and checklist item, and the actions the checklist filters by; paid bodies withheld',
    params: [],
    mcpTool: 'fde_catalogue',
  },
  {
    name: 'preview',
    method: 'GET',
    path: '/v1/fde-lessons/preview',
    access: 'free',
    summary:
      'The 2 foundational rules in full, free; as agents-md, the standing instructions to keep in AGENTS.md',
    params: [topic('deploy'), format, technologies],
    mcpTool: 'fde_lessons_preview',
  },
  {
    name: 'lessons',
    method: 'GET',
    path: '/v1/fde-lessons',
    access: 'paid',
    summary:
      'Every paid rule, or those matching a topic or applying to a situation (action and facts), each with its incident and constraint',
    params: [topic('retry'), action('retry-loop'), format, technologies, change, limit],
    mcpTool: 'fde_lessons_full',
    situation: true,
  },
  {
    name: 'playbooks',
    method: 'GET',
    path: '/v1/fde-playbooks',
    access: 'paid',
    summary: 'The situational playbooks with ordered, checkable steps',
    params: [topic('rollback'), format],
    mcpTool: 'fde_playbook',
  },
  {
    name: 'checklist',
    method: 'GET',
    path: '/v1/fde-preship-checklist',
    access: 'paid',
    summary:
      'The pre-ship gates, each with the failure it prevents, its concrete check and its machine-readable check_spec',
    params: [
      {
        name: 'phase',
        description:
          'Phase filter: a slug such as verifying, the roman numeral (I to VI) or the full phase name',
        example: 'verifying',
        pattern: '^[^\\u0000-\\u001f]{1,80}$',
      },
      action('deploy'),
      {
        name: 'include',
        description:
          "rules: the same situation's rules (foundational ones marked free) in the same answer, one payment",
        example: 'rules',
        pattern: '^[a-z]{1,20}$',
        allowed: INCLUDES,
      },
      format,
      technologies,
      change,
      limit,
    ],
    mcpTool: 'fde_preship_checklist',
    situation: true,
  },
  {
    name: 'pricing',
    method: 'GET',
    path: '/v1/pricing',
    access: 'paid',
    summary: 'Every published pricing row plus derived comparables per category',
    params: [
      {
        name: 'category',
        description: 'Index category, e.g. support-agent',
        example: 'support-agent',
        pattern: '^[A-Za-z-]{1,40}$',
        allowed: INDEX_CATEGORIES,
      },
    ],
    mcpTool: 'pricing_index',
  },
  {
    name: 'changes',
    method: 'GET',
    path: '/v1/pricing/changes',
    access: 'paid',
    summary:
      'Dated corrections at or after a date (same price as the full dataset; the free index names the latest correction date)',
    params: [
      {
        name: 'since',
        description: 'YYYY-MM-DD; default 30 days before the call',
        example: '2026-11-01',
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      },
    ],
  },
  {
    name: 'index',
    method: 'GET',
    path: '/v1/pricing/index',
    access: 'free',
    summary: 'The pricing index descriptor: method, contribution rules, price and crowd aggregates',
    params: [],
  },
  {
    name: 'aggregates',
    method: 'GET',
    path: '/v1/pricing/aggregates',
    access: 'free',
    summary: 'Category medians of crowd submissions, published at 5 or more submissions',
    params: [],
  },
  {
    name: 'submit',
    method: 'POST',
    path: '/v1/pricing/submit',
    access: 'free',
    summary: 'Contribute a pricing row (JSON); only aggregates are ever published',
    params: [],
  },
  {
    name: 'stats',
    method: 'GET',
    path: '/v1/stats',
    access: 'free',
    summary: 'Usage counters: directional, eventually consistent, not an accounting record',
    params: [],
  },
  {
    name: 'manifest',
    method: 'GET',
    path: '/agents.json',
    access: 'free',
    summary: 'Service manifest (also at /.well-known/agents.json)',
    params: [],
  },
  {
    name: 'manifest_well_known',
    method: 'GET',
    path: '/.well-known/agents.json',
    access: 'free',
    summary: 'Service manifest',
    params: [],
  },
  {
    name: 'mcp_server_card',
    method: 'GET',
    path: '/mcp/server-card',
    access: 'free',
    summary: 'MCP server card (draft): endpoint, protocol versions, ways to pay',
    params: [],
  },
  {
    name: 'mcp_catalog',
    method: 'GET',
    path: '/.well-known/ai-catalog.json',
    access: 'free',
    summary: 'AI Catalog pointing to the MCP server card (also at /.well-known/mcp/catalog.json)',
    params: [],
  },
  {
    name: 'mcp_catalog_well_known',
    method: 'GET',
    path: '/.well-known/mcp/catalog.json',
    access: 'free',
    summary: 'AI Catalog pointing to the MCP server card',
    params: [],
  },
  {
    name: 'registry_server_json',
    method: 'GET',
    path: '/.well-known/mcp/server.json',
    access: 'free',
    summary: 'The MCP Registry entry (server.json) as published: /mcp remote, prices, ways to pay',
    params: [],
  },
  {
    name: 'mcp_card',
    method: 'GET',
    path: '/.well-known/mcp.json',
    access: 'free',
    summary: 'Older MCP server card (SEP-1649): transport, instructions, tools, prices, ways to pay',
    params: [],
  },
  {
    name: 'x402_manifest',
    method: 'GET',
    path: '/.well-known/x402',
    access: 'free',
    summary: 'x402 discovery manifest (draft): paid routes, offers, input and output schemas',
    params: [],
  },
  {
    name: 'x402_manifest_json',
    method: 'GET',
    path: '/.well-known/x402.json',
    access: 'free',
    summary: "The same x402 manifest, at the draft's own path",
    params: [],
  },
  {
    name: 'jwks',
    method: 'GET',
    path: '/.well-known/jwks.json',
    access: 'free',
    summary: 'Public keys (JWK set, Ed25519) that verify the signed receipt of every paid answer offline',
    params: [],
  },
  {
    name: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    access: 'free',
    summary: 'This interface description (OpenAPI 3.1.0)',
    params: [],
  },
  {
    name: 'llms',
    method: 'GET',
    path: '/llms.txt',
    access: 'free',
    summary: 'Plain-text summary for language models',
    params: [],
  },
  {
    name: 'mcp',
    method: 'POST',
    path: '/mcp',
    access: 'free',
    summary:
      'MCP Streamable HTTP transport: initialize, tools/list, tools/call (paid tools settle in band), resources/list and resources/read (the free documents)',
    params: [],
  },
  {
    name: 'warn_feed',
    method: 'GET',
    path: '/v1/warn-feed',
    access: 'retired',
    summary: 'Retired 2026-09-18: answers 410 Gone and names the free open register',
    params: [],
  },
  {
    name: 'warn_feed_preview',
    method: 'GET',
    path: '/v1/warn-feed/preview',
    access: 'retired',
    summary: 'Retired 2026-09-18: answers 410 Gone',
    params: [],
  },
  {
    name: 'warn_feed_status',
    method: 'GET',
    path: '/v1/warn-feed/status',
    access: 'retired',
    summary: 'Retired 2026-09-18: answers 410 Gone',
    params: [],
  },
]

/** The layoff-notice feed's withdrawal date (schema/CONTRACT.md §1.7 and §9). */
export const WARN_FEED_RETIRED_ON = '2026-09-18'

export const SERVICE_VERSION = '2.3.0'

/** The service's name, as the MCP server and every Markdown answer's first line give it. */
export const SERVICE_NAME = 'rules-pricing-index'

export function routeByName(name: string): Route {
  const route = ROUTES.find((r) => r.name === name)
  if (!route) throw new Error(`no route named ${name}`)
  return route
}

/** How a request ended, for the usage counters (GET /v1/stats). */
export const OUTCOMES = ['free', 'challenged', 'paid', 'refused', 'rejected', 'retired'] as const
export type Outcome = (typeof OUTCOMES)[number]

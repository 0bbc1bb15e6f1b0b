/**
 * The MCP tools: each one sells or gives the data of one HTTP route, with the same filters and
 * (paid) the same price.
 * The MCP server, the server card and llms.txt read this list.
 */
import { PAYMENT_TOKEN_SUMMARY } from './payment-token.js'
import { PRICE, ROUTES, type Route } from './routes.js'

export interface McpTool {
  name: string
  title: string
  description: string
  route: Route
}

function tool(name: string, title: string, description: string): McpTool {
  const route = ROUTES.find((r) => r.mcpTool === name)
  if (!route) throw new Error(`no route serves MCP tool ${name}`)
  return { name, title, description, route }
}

export const MCP_TOOLS: readonly McpTool[] = [
  tool(
    'fde_catalogue',
    'Rules catalogue (free)',
    'List every engineering-practice rule, playbook and pre-ship gate by id, title, phase and tags, plus the topic keywords and the actions (deploy, dns, schema-change, revert, ...) with what each means and how many gates apply. Free. Call this first to choose a topic, phase or action.',
  ),
  tool(
    'fde_lessons_preview',
    'Foundational rules (free)',
    'Return the foundational rules in full (rule, real incident with postmortem link, agent constraint). Free. Optional topic filter; format agents-md gives the standing instructions to keep in AGENTS.md; technologies lists the traps on file for what you change, one line each.',
  ),
  tool(
    'fde_lessons_full',
    `Paid rules with incidents (${PRICE.display})`,
    `Return every paid rule, or those tagged with a topic (e.g. retry, deploy, cache, verify, dns), each with the real incident behind it and a mechanically checkable constraint. Costs ${PRICE.display} per call, settled in band.`,
  ),
  tool(
    'fde_playbook',
    `Situational playbooks (${PRICE.display})`,
    `Return the situational playbooks (ordered steps, each with how to tell it is done), optionally filtered by topic. Costs ${PRICE.display} per call, settled in band.`,
  ),
  tool(
    'fde_preship_checklist',
    `Pre-ship gates (${PRICE.display})`,
    `Return the pre-ship gates to run before a change, each naming the failure it prevents, a concrete check and its machine-readable check_spec (inputs, pass_when, thresholds, fail-closed, exception approver); optionally only the gates for the change's action or actions (a string or a list, e.g. deploy or ["dependency-upgrade","schema-change"]: fde_catalogue lists them and the actions that fit common changes) with its facts as typed arguments, and/or one phase (slug such as verifying, or I to VI); include "rules" adds the rules that apply, in one answer; technologies (e.g. ["postgresql@16","pgbouncer"]) adds their known traps, each with a read-only probe and the safe path. At most 7 items in full, most severe first; limit raises it. Costs ${PRICE.display} per call, settled in band.`,
  ),
  tool(
    'pricing_index',
    `AI product pricing index (${PRICE.display})`,
    `Return the AI product pricing index as GET /v1/pricing does: every published row (vendor price with its verbatim quote, page read and date) and the derived comparables per category, or only one category's rows and comparables. The free pricing-index descriptor (resource) says what the index covers. Costs ${PRICE.display} per call, settled in band.`,
  ),
]

/** The MCP revisions POST /mcp serves, newest first: 2026-07-28 per request, 2025-11-25 with initialize. */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25'] as const

/** What initialize and server/discover advertise under capabilities.experimental (payment transport draft). */
// Both methods a paid tool's challenge can name: the card's, and the wallet's where the deployment
// offers it (schema/payment-ways.ts says what each needs).
export const PAYMENT_CAPABILITY = {
  payment: { methods: { stripe: { intents: ['charge'] }, evm: { intents: ['charge'] } } },
}

/** What the server card says the server does: only what the tools above serve. */
// Only the build renders it (schema/money-back.ts says why it is written so).
export const MCP_DESCRIPTION = /* @__PURE__ */ [
  `Engineering-practice rules, playbooks and pre-ship gates traced to real incidents, and an index of published AI product prices, as MCP tools: the catalogue and the foundational rules are free (also as resources, with the pricing-index descriptor), the rest cost ${PRICE.display} per call, paid in band over the HTTP 402 Payment scheme.`,
].join('')

export const MCP_INSTRUCTIONS = `Engineering-practice rules traced to real incidents. Call fde_catalogue (free) to see topics, phases and the actions the checklist filters by, fde_lessons_preview (free) for the foundational rules, then the paid tools (${PRICE.display} each) with a topic or phase filter; pricing_index (${PRICE.display}) sells the AI product pricing index, optionally one category. The free documents are also resources (resources/list). A paid tool answers with an isError result whose _meta["org.paymentauth/payment-required"] holds the challenge; pay it and repeat the same call with params._meta["org.paymentauth/credential"]. Two methods: stripe, by card: ${PAYMENT_TOKEN_SUMMARY} evm, with only a wallet key (USDC on Base, where the challenge offers it): an EIP-3009 authorization as mppx's evm client signs it, no account. The receipt comes back in _meta["org.paymentauth/receipt"]. Every refusal's problem (in that challenge, or in _meta["org.paymentauth/problem"] when no new payment is asked for) has retryable: "pay-again" (pay the new challenge), "same-credential" (send the same credential and idempotency-key again, never pay again) or false (stop).`

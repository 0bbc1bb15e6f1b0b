/**
 * Discovery documents: agents.json, the MCP server cards and catalog, and llms.txt, derived from the
 * inventory, the route table and the MCP tool list.
 */

import { PUBLISHER, type ServiceUrls } from '../../schema/config.js'
import type { Catalogue, PricingBundle } from '../../schema/datasets.js'
import {
  MCP_DESCRIPTION,
  MCP_INSTRUCTIONS,
  MCP_PROTOCOL_VERSIONS,
  MCP_TOOLS,
  PAYMENT_CAPABILITY,
} from '../../schema/mcp-tools.js'
import { MONEY_BACK_POLICY } from '../../schema/money-back.js'
import { PAYMENT_TOKEN_HOW_TO } from '../../schema/payment-token.js'
import { PAYMENT_WAYS, paymentWayLine } from '../../schema/payment-ways.js'
import { RECEIPT_POLICY } from '../../schema/receipt-claims.js'
import { RETRYABLE_POLICY } from '../../schema/retryable.js'
import {
  FAST_PATH_LIMIT,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  PRICE,
  ROUTES,
  SERVICE_VERSION,
  WARN_FEED_RETIRED_ON,
} from '../../schema/routes.js'
import { TECHNOLOGIES_MAX } from '../../schema/technologies.js'
import { VERSION_POLICY_TITLE, versionPolicyText } from '../../schema/version-policy.js'
import { WALLET_PAYMENT_HOW_TO, walletRefundPolicy } from '../../schema/wallet-payment.js'
import { PUBLISHER_META_KEY, paymentMeta, REGISTRY_API, registryName } from './registry.js'

export const DESCRIPTION =
  'Engineering-practice rules traced to real incidents, and an index of published AI product prices, sold per query to agents over the HTTP 402 Payment scheme. No account, no key.'

/** `GET /v1/fde-lessons?topic=<topic>` style strings, one per route. */
export function endpointStrings(): Record<string, string> {
  return Object.fromEntries(
    ROUTES.map((r) => {
      const query = r.params.map((p) => `${p.name}=<${p.name}>`).join('&')
      const price = r.access === 'paid' ? ` (${PRICE.display})` : r.access === 'retired' ? ' (410 Gone)' : ''
      return [r.name, `${r.method} ${r.path}${query ? `?${query}` : ''}${price}`]
    }),
  )
}

/** Topics with the most rules first: the examples an agent should try. */
function topicsExample(catalogue: Catalogue): string[] {
  return [...catalogue.topics]
    .filter((t) => t.rules > 0)
    .sort((a, b) => b.rules - a.rules || a.tag.localeCompare(b.tag))
    .map((t) => t.tag)
}

/**
 * The MCP Registry entry, once publishing is configured (MCP_REGISTRY_PUBLIC_KEY at build): its
 * name and where to look it up. Without it the discovery files claim no entry.
 */
export interface RegistryListing {
  name: string
  lookup: string
}

export function registryListing(urls: ServiceUrls): RegistryListing {
  const name = registryName(urls)
  return { name, lookup: `${REGISTRY_API}?search=${encodeURIComponent(name)}` }
}

/**
 * `pricingIndex` is the pricing index's derived counts (FORMAT.md, "Two nulls"), so an agent reading
 * the manifest sees how many products the index holds and how many publish a price.
 */
export function agentsJson(
  catalogue: Catalogue,
  urls: ServiceUrls,
  registry?: RegistryListing,
  pricingIndex?: PricingBundle['counts'],
) {
  return {
    name: 'rules-pricing-index',
    version: SERVICE_VERSION,
    publisher: PUBLISHER,
    description: DESCRIPTION,
    inventory: catalogue.inventory,
    pricing: {
      preview: 'free',
      catalogue: 'free',
      paid: `${PRICE.display} per query, one-off charge (HTTP 402, Payment scheme, method stripe, intent charge)`,
      wallet: `the same ${PRICE.display} in USDC where the 402 offers it: method evm (EIP-3009 authorization, no account or human), or the x402 exact scheme (v2 and v1)`,
    },
    // Every way to pay and what a client needs to choose one (schema/payment-ways.ts).
    payment_methods: PAYMENT_WAYS,
    ...(pricingIndex ? { pricing_index: pricingIndex } : {}),
    endpoints: endpointStrings(),
    topics_example: topicsExample(catalogue),
    contact: urls.contact,
    links: {
      openapi: `${urls.base_url}/openapi.json`,
      mcp_server_card: `${urls.base_url}${MCP_CARD_PATH}`,
      llms: `${urls.base_url}/llms.txt`,
      x402_manifest: `${urls.base_url}/.well-known/x402`,
      human_readable: urls.site_url,
    },
    ...(registry ? { mcp_registry: { name: registry.name, lookup: registry.lookup } } : {}),
  }
}

/** Where the server card lives: `<MCP endpoint>/server-card`, as the card draft places it. */
export const MCP_CARD_PATH = '/mcp/server-card'
/** The catalog that points to the card, at the draft's well-known path and at the older one. */
export const MCP_CATALOG_PATHS = ['/.well-known/ai-catalog.json', '/.well-known/mcp/catalog.json'] as const

/** The card's name is the MCP Registry entry's name (build/stages/registry.ts). */
const cardName = registryName

/** The server card in the Server Card draft's shape (modelcontextprotocol/experimental-ext-server-card). */
export function mcpServerCard(urls: ServiceUrls, registry?: RegistryListing) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: cardName(urls),
    version: SERVICE_VERSION,
    title: PUBLISHER,
    description: MCP_DESCRIPTION,
    websiteUrl: urls.site_url,
    remotes: [
      {
        type: 'streamable-http',
        url: `${urls.base_url}/mcp`,
        supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
      },
    ],
    // The card draft has no payment field: the ways to pay ride in the publisher's _meta, as in
    // the registry entry (build/stages/registry.ts), so a wallet-only client sees it can pay.
    _meta: {
      [PUBLISHER_META_KEY]: {
        payment: paymentMeta(),
        ...(registry ? { mcpRegistry: { name: registry.name, lookup: registry.lookup } } : {}),
      },
    },
  }
}

/** The AI Catalog listing the one card. */
export function mcpCatalog(urls: ServiceUrls) {
  const host = new URL(urls.base_url).hostname
  return {
    specVersion: '1.0',
    entries: [
      {
        identifier: `urn:air:${host}:mcp:rules`,
        type: 'application/mcp-server-card+json',
        url: `${urls.base_url}${MCP_CARD_PATH}`,
      },
    ],
  }
}

/** The MCP resources as resources/list gives them (schema/mcp-resources.ts resourceList). */
export type ListedResource = { uri: string; name: string; description: string }

/** The older card shape (SEP-1649) at /.well-known/mcp.json, kept for scanners that read it. */
export function legacyMcpCard(urls: ServiceUrls, resources: readonly ListedResource[]) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
    version: '1.0',
    protocolVersion: MCP_PROTOCOL_VERSIONS[1],
    supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
    serverInfo: { name: 'rules-pricing-index', title: PUBLISHER, version: SERVICE_VERSION },
    description: MCP_DESCRIPTION,
    documentationUrl: `${urls.base_url}/llms.txt`,
    serverCard: `${urls.base_url}${MCP_CARD_PATH}`,
    transport: { type: 'streamable-http', endpoint: `${urls.base_url}/mcp` },
    capabilities: { tools: {}, resources: {}, experimental: PAYMENT_CAPABILITY },
    authentication: { required: false, schemes: [] },
    instructions: MCP_INSTRUCTIONS,
    payment: paymentMeta(),
    tools: MCP_TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      price: t.route.access === 'paid' ? PRICE.display : 'free',
    })),
    resources,
  }
}

/** How to ask for only what applies to the change at hand, and to get it as a file to commit. */
/** The example llms.txt and the README give of asking with technologies (issue 43). */
/** How the rules are judged, for llms.txt (the figures per set: the repository's content/reviews/ and README). */
const EVALUATION_NOTE =
  'the rules are judged by what an agent does with them: the same planner plans each fresh change alone and with the answer, and a grader who never read the content grades both without knowing which is which; sets are written fresh and nothing changes between plans and grades.'

export const TECHNOLOGIES_EXAMPLE =
  'technologies=postgresql@16,pgbouncer&action=dependency-upgrade&change=pg_upgrade+to+17'

function situationLines(catalogue: Catalogue, urls: ServiceUrls): string[] {
  const link = (path: string, name: string, note: string) => `- [${name}](${urls.base_url}${path}): ${note}`
  const situation = 'action=deploy&emergency=false&targets=3&stateful=false&one_way_changes=false'
  return [
    '## Ask with your situation',
    `Name the action and answer the facts you know, and the gates and rules hold only what applies, each with applies_because. An unanswered fact keeps the checks that depend on it and names its question. Facts: ${catalogue.facts.map((f) => `${f.fact} (${f.type}): ${f.question.trim()}`).join(' ')}`,
    '',
    link(
      `/v1/fde-preship-checklist?${situation}`,
      'Gates for a routine deploy',
      'pay the 402 (see Paying, below); the payment binds this situation. Over MCP: tools/call fde_preship_checklist with arguments {"action":"deploy","emergency":false,"targets":3,"stateful":false,"one_way_changes":false}',
    ),
    link(
      `/v1/fde-preship-checklist?${situation}&include=rules&format=skill`,
      'Gates and rules for that one change, as a skill',
      'include=rules adds the rules that apply (foundational ones marked free) to the gates, one payment. format=skill answers a SKILL.md for that one task (name and description in a YAML header; save it as .claude/skills/<name>/SKILL.md and .agents/skills/<name>/SKILL.md); format=agents-md the same Markdown without the header. Every Markdown answer opens with the service, version, content date, a sha-256 of the rest and the request that fetches it again. Over MCP pass "format" and "include" as arguments: the text block is the Markdown',
    ),
    link(
      '/v1/fde-preship-checklist?action=dependency-upgrade,schema-change&stateful=true&one_way_changes=true',
      'A change that is several actions (a database engine upgrade)',
      'name every action, joined by commas or repeated (action=a&action=b); the answer is the union, each item naming the actions that brought it, and the order never changes what you pay for. Over MCP: "action":["dependency-upgrade","schema-change"]. The free /v1/catalogue lists common changes (engine upgrade, node-pool upgrade, flag flip, CDN rule, TTL cut, failover drill, deletion past retention, leaked credential, hotfix in an incident) with the actions and facts that fit each',
    ),
    `Traps on file: ${catalogue.technologies.reduce((n, t) => n + t.traps, 0)} over ${catalogue.technologies.length} technologies (the free /v1/catalogue technologies lists each, with its aliases), counted apart from the rules, playbooks and gates.`,
    link(
      `/v1/fde-preship-checklist?${TECHNOLOGIES_EXAMPLE}`,
      'Traps of the technologies you change',
      `name what the change touches in technologies, the platform and what runs on it alike (gke,kubernetes; aws-rds,postgresql; ids or aliases from the free /v1/catalogue technologies, any case, each with an optional @version; commas or repeated, at most ${TECHNOLOGIES_MAX}): the answer adds each one's known traps for the action and version, each a one-line trap, a read-only probe to run first, the result that means stop, the safe path and a primary source with a verbatim quote; a name with none on file is said so ("no traps on file for X"), never an error. The payment binds the set of names, not their order or spelling. Say the change in a few words too (change=pg_upgrade to 17): the traps told in its words come first, a trap of a named technology sharing two or more of its words comes even when you chose another action, and a trap that shares little or none is one line under also_consider. Say what happens to the technology itself: a trap written for upgrading it, or for a leaked key, is in full only when the change says so (upgrade, leaked), and naming the managed service beside its engine (aws-elasticache,redis) makes the engine's traps that need the server one line. Over MCP: "technologies":["postgresql@16","pgbouncer"],"change":"pg_upgrade to 17". The free /v1/fde-lessons/preview?technologies=... lists which traps are on file, one line each`,
    ),
    `Short and ranked: a situated answer holds at most ${LIMIT_DEFAULT} items in full (traps, gates and rules together; what is known to apply first, then most severe: irreversible, outage, degraded, a blocking gate counted as irreversible), listed in order in ranked with one line each of why it is here; everything else that applies follows as one-line also_consider entries. An emergency or production=false holds ${FAST_PATH_LIMIT} by default. limit=1..${LIMIT_MAX} raises it (limit=20); several actions bring each item once, naming the actions.`,
    '',
    link(
      '/v1/fde-lessons/preview?format=agents-md',
      'Standing instructions for AGENTS.md (free)',
      'the foundational rules, when to call this service and which facts to send, and how to read a situated answer: nothing in it is bound to one change. Keep it in AGENTS.md; keep per-change answers as skills',
    ),
  ]
}

export function llmsTxt(
  catalogue: Catalogue,
  urls: ServiceUrls,
  resources: readonly ListedResource[],
  registry?: RegistryListing,
  /** The last fresh A/B set's figures in one line (build/stages/evaluation.ts), when there is one. */
  evaluation?: string,
): string {
  const { inventory } = catalogue
  const link = (path: string, name: string, note: string) => `- [${name}](${urls.base_url}${path}): ${note}`
  const routeLines = (access: string) =>
    ROUTES.filter((r) => r.access === access).map((r) => {
      const query = r.params.map((p) => `${p.name}=${p.example.replaceAll(' ', '+')}`).join('&')
      return link(`${r.path}${query ? `?${query}` : ''}`, `${r.method} ${r.path}`, r.summary)
    })
  // Ordered for the reader who came to buy: what is sold and how to ask for it first, then the
  // money terms (how to pay, receipts, refunds, refusals), then versions and the optional extras.
  return [
    '# Rules and Pricing-Index Service',
    '',
    `> ${DESCRIPTION}`,
    '',
    `Inventory: ${inventory.total} rules (${inventory.free} free foundational, ${inventory.paid} paid), ${inventory.playbooks} playbooks and ${inventory.checklistItems} pre-ship gates over ${inventory.phases.length} phases; topics: ${topicsExample(catalogue).join(', ')}.`,
    '',
    `Price: ${PRICE.display} per paid call, paid per call over HTTP 402 (no account, no key); the free catalogue and foundational rules cost nothing. How to pay, receipts, refunds and what each refusal means are under "Paying", after what is sold.`,
    '',
    ...situationLines(catalogue, urls),
    '',
    '## Paid',
    ...routeLines('paid'),
    '',
    '## Free',
    ...routeLines('free'),
    '',
    '## MCP tools',
    ...MCP_TOOLS.map((t) =>
      link(MCP_CARD_PATH, t.name, `${t.route.access === 'paid' ? PRICE.display : 'free'}; ${t.description}`),
    ),
    ...(registry ? ['', `MCP Registry: listed as ${registry.name} (${registry.lookup}).`] : []),
    '',
    '## MCP resources',
    ...resources.map(
      (r) => `- [${r.name}](${r.uri}): free (resources/read, or GET this address); ${r.description}`,
    ),
    '',
    '## Paying',
    `Paying: every paid call costs ${PRICE.display}. Call it unpaid, get 402 with a WWW-Authenticate: Payment challenge (method stripe, intent charge, amount ${PRICE.amount}, currency ${PRICE.currency}), pay it, repeat the same call with Authorization: Payment <credential> (one credential, in that field only). Send Accept-Payment (draft-httpauth-payment-01 §7.4; e.g. evm/charge) to be offered only the methods you hold, best first. The 200 carries a Payment-Receipt header. Malformed parameters answer 400 and empty filters 404, both before any challenge, so they are never charged.`,
    `Ways to pay (choose the one you hold; the 402 names those this deployment offers): ${PAYMENT_WAYS.map(paymentWayLine).join(' ')}`,
    `Payment token: ${PAYMENT_TOKEN_HOW_TO}`,
    `Paying with a wallet key: ${WALLET_PAYMENT_HOW_TO}`,
    `Wallet payments and refunds: ${walletRefundPolicy(urls.contact)}`,
    `Receipts: ${RECEIPT_POLICY}`,
    `Your money: ${MONEY_BACK_POLICY}`,
    `Refusals: ${RETRYABLE_POLICY}`,
    '',
    `## ${VERSION_POLICY_TITLE}`,
    `${VERSION_POLICY_TITLE}: ${versionPolicyText()}`,
    '',
    '## Evaluation',
    `Evaluation: ${EVALUATION_NOTE}${evaluation ? ` Figures of the ${evaluation}` : ''}`,
    '',
    '## Optional',
    link('/pricing/', 'Pricing index page', 'human-readable pricing index with charts'),
    `- [Open register (replaces the retired warn feed)](${urls.register_url}): /v1/warn-feed, /v1/warn-feed/preview and /v1/warn-feed/status answer 410 Gone since ${WARN_FEED_RETIRED_ON}; the free Apache-2.0 register replaces them`,
    '',
  ].join('\n')
}

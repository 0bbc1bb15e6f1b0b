/**
 * Service addresses ({base_url}, {site_url}, {register_url} in schema/CONTRACT.md) and the corrections contact,
 * with their local defaults. The build writes them into discovery documents and the pricing page;
 * the gateway reads the addresses from its vars. A deployment sets all four (scripts/deploy/README.md, "Deploying").
 */
export interface ServiceUrls {
  base_url: string
  site_url: string
  register_url: string
  /** Where vendors and buyers write for corrections and refunds. */
  contact: string
}

export const LOCAL_URLS: ServiceUrls = {
  base_url: 'http://127.0.0.1:8787',
  site_url: 'http://127.0.0.1:8787/pricing/',
  // The open register's real address is deployment configuration; `.invalid` can never resolve.
  register_url: 'https://register.invalid/warn-notices.csv',
  // A placeholder that can never receive mail; a build for a public address refuses it.
  contact: 'corrections@rules-pricing-index.invalid',
}

export const PUBLISHER = 'Rules and Pricing-Index Service'

/** The processor secret of the local stand-in; a deployed gateway refuses it. */
export const STANDIN_SECRET = 'sk_test_standin'

/**
 * How long a challenge can be paid: long enough for a Link wallet's holder to approve the spend
 * request (Link allows 30 minutes); still single-use and bound to its request.
 */
export const CHALLENGE_TTL_MS = 30 * 60 * 1000

/**
 * Unfinished processor intents (refused, waiting for an extra step, processing) allowed per hour to
 * one IPv6 /48, beside each of its /64s' own budget (UNFINISHED_PAYMENTS_PER_HOUR): a tunnel broker
 * or a host hands anyone a /48, which would otherwise be 65,536 budgets. Two /64s' worth.
 */
export const UNFINISHED_PAYMENTS_PER_HOUR_PER_48 = 200
/**
 * Unfinished intents per hour on the whole processor account, every client together: what reaches
 * the reconciler. A day of them (24,000) is read by its band walk (20,000 intents a run) without
 * falling behind, and each is looked at again within 12 hours (500 a run), inside the 48-hour
 * look-back.
 */
export const ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR = 1000
/**
 * An address many parties share (an IPv4 address behind NAT, an IPv6 /48) keeps room past its
 * bound for one more claim per this long, so a neighbour waits minutes, not the hour another
 * client's unfinished intents would fill; the bound grows by 12 an hour at most.
 */
export const SHARED_ADDRESS_ROOM_MS = 5 * 60 * 1000

/** How long one processor call may take before it counts as unanswered (PROCESSOR_TIMEOUT_MS). */
export const PROCESSOR_TIMEOUT_MS = 10_000
/**
 * A new claim holds its place in every budget while at the processor: twice the processor timeout
 * (the card's two token forms) and this margin. A request that dies frees its place then.
 */
export const HOLD_MARGIN_MS = 10_000

/**
 * How often one payment's answer may be sent again under its Idempotency-Key, in any minute: enough
 * for a client that lost its answer and retries, never a feed. Re-sends go one at a time.
 */
export const RESENDS_PER_MINUTE = 5

/**
 * Service addresses ({base_url}, {site_url}, {register_url} in schema/CONTRACT.md) and the corrections contact,
 * with their local defaults. The build writes them into discovery documents and the pricing page;
 * the gateway reads the addresses from its vars. A deployment sets all four (README, "Deploying").
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
 * How often one payment's answer may be sent again under its Idempotency-Key, in any minute: enough
 * for a client that lost its answer and retries, never a feed. Re-sends go one at a time.
 */
export const RESENDS_PER_MINUTE = 5

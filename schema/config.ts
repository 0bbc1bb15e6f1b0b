/**
 * Service addresses ({base_url}, {site_url}, {register_url} in SPEC.md) with their local defaults.
 * The build writes them into discovery documents; the gateway reads the same names from its vars.
 */
export interface ServiceUrls {
  base_url: string
  site_url: string
  register_url: string
}

export const LOCAL_URLS: ServiceUrls = {
  base_url: 'http://127.0.0.1:8787',
  site_url: 'http://127.0.0.1:8787/pricing/',
  // The open register's real address is deployment configuration; `.invalid` can never resolve.
  register_url: 'https://register.invalid/warn-notices.csv',
}

export const CONTACT = 'corrections@rules-pricing-index.invalid'
export const PUBLISHER = 'Rules and Pricing-Index Service'

/** The processor secret of the local stand-in; a deployed gateway refuses it. */
export const STANDIN_SECRET = 'sk_test_standin'

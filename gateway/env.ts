/**
 * The gateway's bindings and configuration (wrangler.jsonc vars, secrets in .dev.vars or
 * `wrangler secret put`).
 */
import type { AttemptLimiter } from './payment/attempt-limiter.js'
import type { EvmVars } from './payment/evm/config.js'
import type { PaymentLedger } from './payment/ledger.js'

/** EvmVars: the wallet rail's settings (gateway/payment/evm/config.ts); none set, no wallet rail. */
export interface Env extends EvmVars {
  ASSETS: Fetcher
  LEDGER: DurableObjectNamespace<PaymentLedger>
  /** Failed payment attempts per client. */
  ATTEMPTS: DurableObjectNamespace<AttemptLimiter>
  /**
   * Workers Analytics Engine: one data point per reconciler run (reconcilerMetric in
   * payment/stripe/reconciler.ts: blob1 `complete`, `behind`, `refunds-owed` or `backlog`). Optional: without
   * it, the `reconciler-behind` and `reconciler-owed` log lines remain.
   */
  RECONCILER_METRICS?: AnalyticsEngineDataset
  /** Refused payments a client may make per minute before 429 (default in failure-window.ts). */
  FAILED_PAYMENTS_PER_MINUTE?: string
  UNFINISHED_PAYMENTS_PER_HOUR?: string
  /** Per IPv6 /48 and per processor account (defaults in schema/config.ts). */
  UNFINISHED_PAYMENTS_PER_HOUR_PER_48?: string
  ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR?: string
  /** The submissions Worker (D1): submit, aggregates, counters. */
  SUBMISSIONS: Fetcher
  /** `production` refuses the local processor stand-in; `local` is what `npm start` sets. */
  ENVIRONMENT: string
  BASE_URL: string
  SITE_URL: string
  REGISTER_URL: string
  /** The protection space of challenges; defaults to the host of BASE_URL. */
  REALM?: string
  STRIPE_NETWORK_ID: string
  PROCESSOR_URL: string
  PROCESSOR_TIMEOUT_MS?: string
  PROCESSOR_SEARCH_LAG_MS?: string
  /** Secrets. */
  PROCESSOR_SECRET?: string
  PAYMENT_HMAC_SECRET?: string
  /** A private Ed25519 JWK with kid (JSON) that signs every receipt. */
  RECEIPT_SIGNING_KEY?: string
  /** The operator's bearer secret for GET /v1/operator/wallet-owed; unset, the path does not exist. */
  OPERATOR_TOKEN?: string
  /** Retired public keys still published at /.well-known/jwks.json: JSON [{kid, x, retired_on}]. */
  RECEIPT_RETIRED_KEYS?: string
}

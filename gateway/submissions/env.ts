/**
 * The submissions Worker's bindings and configuration (wrangler.jsonc).
 */

export interface Env {
  /** D1 database rules-pricing-submissions (migrations/). */
  DB: D1Database
  /** Submit attempts allowed per client per one-minute window; 30 when unset or not a positive integer. */
  SUBMIT_LIMIT_PER_MINUTE?: string
}

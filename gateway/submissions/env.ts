/**
 * The submissions Worker's bindings and configuration (wrangler.jsonc).
 */

export interface Env {
  /** D1 database rules-pricing-submissions (migrations/). */
  DB: D1Database
  /** Submit attempts allowed per client per one-minute window; 30 when unset or not a positive integer. */
  SUBMIT_LIMIT_PER_MINUTE?: string
  /** Secret salt of the submitter hash (32+ bytes); submissions are refused without it. */
  SUBMITTER_SALT?: string
  /** How often the published aggregates are recomputed, in seconds (86400 deployed, 0 = every read). */
  AGGREGATE_SNAPSHOT_SECONDS?: string
}

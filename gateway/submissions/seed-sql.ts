/**
 * SQL with no runtime dependencies, shared by the submissions Worker and the benchmark (which
 * seeds a million rows through `wrangler d1 execute`): the day stamp, the bulk seed, the recount.
 */
import { PRICING_MODELS, SUBMISSION_CATEGORIES } from '../../schema/vocabulary.js'

/** Today as YYYY-MM-DD (UTC): the only time a row keeps. */
export function today(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10)
}

/**
 * Pure SQL that inserts `count` synthetic submissions (spread over every category and pricing model,
 * prices pseudo-random, some rows with one price only) and then rebuilds the counts, distinct
 * submitters and voices from the table. For seeding a million rows in seconds, e.g. with
 * `wrangler d1 execute rules-pricing-submissions --local --command "<statement>"` per statement.
 */
export function syntheticSeedSql(count: number): string[] {
  // CASE (expr) % size WHEN 0 THEN 'a' WHEN 1 THEN 'b' ... END: a vocabulary value chosen by row number.
  const pick = (values: readonly string[], expr: string) =>
    `CASE (${expr}) % ${values.length} ${values.map((v, i) => `WHEN ${i} THEN '${v}'`).join(' ')} END`
  return [
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${Math.trunc(count)})
    INSERT INTO submissions (received_on, category, pricing_model, entry_usd_month, unit_price_usd, submitter)
    SELECT '${today()}',
      ${pick(SUBMISSION_CATEGORIES, 'i')},
      ${pick(PRICING_MODELS, 'i / 8')},
      CASE WHEN i % 3 = 2 THEN NULL ELSE ((i * 7919) % 100000) / 100.0 END,
      CASE WHEN i % 3 = 1 THEN NULL ELSE ((i * 104729) % 1000000) / 1000000.0 END,
      'synthetic-' || (i % 997)
    FROM seq`,
    REBUILD_COUNTS_SQL,
    ...REBUILD_SUBMITTERS_SQL,
    REBUILD_VOICES_SQL,
  ]
}

/** Recomputes category_counts from the rows (after a bulk seed; never needed on the request path). */
export const REBUILD_COUNTS_SQL = `INSERT OR REPLACE INTO category_counts (category, pricing_model, n, entry_n, unit_n)
  SELECT category, pricing_model, COUNT(*), COUNT(entry_usd_month), COUNT(unit_price_usd)
  FROM submissions GROUP BY category, pricing_model`

/** Recomputes the distinct-submitter tables from the rows (after a bulk seed). */
export const REBUILD_SUBMITTERS_SQL = [
  `INSERT OR IGNORE INTO category_submitters (category, submitter)
  SELECT DISTINCT category, submitter FROM submissions WHERE submitter IS NOT NULL`,
  `INSERT OR REPLACE INTO category_distinct (category, submitters)
  SELECT category, COUNT(*) FROM category_submitters GROUP BY category`,
]

/** Recomputes every network's voice in every category from the rows (after a bulk seed). */
export const REBUILD_VOICES_SQL = `INSERT OR REPLACE INTO category_voices
  (category, submitter, entry_sum, entry_n, entry_voice, unit_sum, unit_n, unit_voice)
  SELECT category, submitter,
    COALESCE(SUM(entry_usd_month), 0), COUNT(entry_usd_month), AVG(entry_usd_month),
    COALESCE(SUM(unit_price_usd), 0), COUNT(unit_price_usd), AVG(unit_price_usd)
  FROM submissions WHERE submitter IS NOT NULL GROUP BY category, submitter`

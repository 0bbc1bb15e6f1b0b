/**
 * Writing submissions and reading their aggregates: the SQL and the functions, exported so that a
 * benchmark can seed a million rows the same way the Worker writes one.
 *
 * Fast at a million rows because nothing scans the table: counts live in category_counts, and each
 * submitter network's voice in a category (the mean of its prices there) in category_voices, both
 * kept in step by the same atomic batch as each insert. A median is taken over voices, not rows, so
 * padding a category with rows from one network moves it by one place at most (the disclosure rule
 * says what that leaves); it is one index walk to the middle of (category, voice). Medians are
 * memoised per isolate by the row count they were computed at; rows are never updated or deleted,
 * so an unchanged count means unchanged voices. The walk to the middle costs O(voices), so past
 * LARGE_COUNT rows a memoised median is reused for up to MEDIAN_TTL_MS while new rows arrive: one
 * more row barely moves a median of thousands, and the aggregates are documented as eventually
 * consistent. Small categories stay exact.
 */
import {
  type CategoryAggregate,
  type Contributions,
  DISCLOSURE_RULE,
  DISCLOSURE_THRESHOLD,
  type Submission,
} from '../../schema/submission.js'
import { PRICING_MODELS, SUBMISSION_CATEGORIES } from '../../schema/vocabulary.js'
import { today } from './seed-sql.js'

export { REBUILD_COUNTS_SQL, syntheticSeedSql, today } from './seed-sql.js'

export const INSERT_SUBMISSION_SQL = `INSERT INTO submissions
  (received_on, category, pricing_model, entry_usd_month, unit_price_usd, product, usage_unit,
   typical_discount_pct, acv_band, note, email, submitter)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)`

/** A submitter's first row in a category adds one to its distinct count (changes() is 0 after that). */
export const NOTE_SUBMITTER_SQL =
  'INSERT OR IGNORE INTO category_submitters (category, submitter) VALUES (?1, ?2)'
export const COUNT_SUBMITTER_SQL = `INSERT INTO category_distinct (category, submitters) SELECT ?1, changes() WHERE true
  ON CONFLICT (category) DO UPDATE SET submitters = submitters + excluded.submitters`

/**
 * The row's network's voice in its category: sums and counts added in SQL (concurrent submissions
 * each count exactly once), the voice set to the new mean. In DO UPDATE the bare column names are the
 * stored row's values, so every expression reads the counts from before this row.
 */
export const COUNT_VOICE_SQL = `INSERT INTO category_voices
  (category, submitter, entry_sum, entry_n, entry_voice, unit_sum, unit_n, unit_voice)
  VALUES (?1, ?2, COALESCE(?3, 0), ?3 IS NOT NULL, ?3, COALESCE(?4, 0), ?4 IS NOT NULL, ?4)
  ON CONFLICT (category, submitter) DO UPDATE SET
    entry_sum = entry_sum + excluded.entry_sum,
    entry_n = entry_n + excluded.entry_n,
    entry_voice = CASE WHEN entry_n + excluded.entry_n > 0
      THEN (entry_sum + excluded.entry_sum) / (entry_n + excluded.entry_n) END,
    unit_sum = unit_sum + excluded.unit_sum,
    unit_n = unit_n + excluded.unit_n,
    unit_voice = CASE WHEN unit_n + excluded.unit_n > 0
      THEN (unit_sum + excluded.unit_sum) / (unit_n + excluded.unit_n) END`

/** `n = n + 1` in SQL, never read-modify-write in JS: concurrent submissions each count exactly once. */
export const COUNT_SUBMISSION_SQL = `INSERT INTO category_counts (category, pricing_model, n, entry_n, unit_n)
  VALUES (?1, ?2, 1, ?3, ?4)
  ON CONFLICT (category, pricing_model) DO UPDATE SET
    n = n + 1, entry_n = entry_n + excluded.entry_n, unit_n = unit_n + excluded.unit_n`

export const READ_COUNTS_SQL = 'SELECT category, pricing_model, n, entry_n, unit_n FROM category_counts'
export const READ_DISTINCT_SQL = 'SELECT category, submitters FROM category_distinct'

/** The two prices a median is taken over (a fixed list: column names are never user input). */
export const PRICE_COLUMNS = { entry: 'entry_usd_month', unit: 'unit_price_usd' } as const
export type PriceColumn = keyof typeof PRICE_COLUMNS

/**
 * The median of one price's voices in one category, with the number of voices and the category's
 * row count for that price (the version the memo keys on), in one statement so all three come from
 * the same snapshot. With k voices, the middle is at offset (k-1)/2: odd k reads one voice, even k
 * the two middle ones and averages them. The partial indexes on (category, voice) make the count and
 * the walk O(k), and k is at most the number of networks that submitted.
 */
export function medianSql(price: PriceColumn): string {
  const voice = `${price}_voice`
  return `WITH c AS (SELECT COUNT(*) AS k FROM category_voices WHERE category = ?1 AND ${voice} IS NOT NULL)
    SELECT (SELECT k FROM c) AS k,
      (SELECT COALESCE(SUM(${price}_n), 0) FROM category_counts WHERE category = ?1) AS rows,
      (SELECT AVG(v) FROM (
        SELECT ${voice} AS v FROM category_voices
        WHERE category = ?1 AND ${voice} IS NOT NULL
        ORDER BY ${voice}
        LIMIT 2 - (SELECT k FROM c) % 2 OFFSET ((SELECT k FROM c) - 1) / 2
      )) AS median`
}

/** The statements that store one submission; run them in one `db.batch` (a transaction), in order. */
export function submissionStatements(
  db: D1Database,
  s: Submission,
  receivedOn: string,
  submitter: string,
): D1PreparedStatement[] {
  const entry = s.entry_usd_month ?? null
  const unit = s.unit_price_usd ?? null
  return [
    db
      .prepare(INSERT_SUBMISSION_SQL)
      .bind(
        receivedOn,
        s.category,
        s.pricing_model,
        entry,
        unit,
        s.product ?? null,
        s.usage_unit ?? null,
        s.typical_discount_pct ?? null,
        s.acv_band ?? null,
        s.note ?? null,
        s.email ?? null,
        submitter,
      ),
    db
      .prepare(COUNT_SUBMISSION_SQL)
      .bind(s.category, s.pricing_model, entry === null ? 0 : 1, unit === null ? 0 : 1),
    db.prepare(NOTE_SUBMITTER_SQL).bind(s.category, submitter),
    db.prepare(COUNT_SUBMITTER_SQL).bind(s.category),
    db.prepare(COUNT_VOICE_SQL).bind(s.category, submitter, entry, unit),
  ]
}

/** Stores one validated submission and its counts atomically. */
export async function recordSubmission(
  db: D1Database,
  s: Submission,
  submitter: string,
  receivedOn = today(),
): Promise<void> {
  await db.batch(submissionStatements(db, s, receivedOn, submitter))
}

/** Stores many submissions, `perBatch` at a time (each batch atomic): the benchmark's seeding path. */
export async function recordSubmissions(
  db: D1Database,
  list: readonly Submission[],
  receivedOn = today(),
  perBatch = 500,
): Promise<void> {
  for (let i = 0; i < list.length; i += perBatch) {
    await db.batch(
      list
        .slice(i, i + perBatch)
        .flatMap((s, j) => submissionStatements(db, s, receivedOn, `synthetic-${(i + j) % 997}`)),
    )
  }
}

interface CountRow {
  category: string
  pricing_model: string
  n: number
  entry_n: number
  unit_n: number
}

interface CategoryCounts {
  /** Distinct submitters (salted hashes of client addresses). */
  submitters: number
  n: number
  entry_n: number
  unit_n: number
  models: Map<string, number>
}

/** Median by `category:price`, with the row count it was taken at. Isolate-local; see the file comment. */
const medianMemo = new Map<string, { rows: number; median: number | null; at: number }>()
const LARGE_COUNT = 1000
const MEDIAN_TTL_MS = 60_000

/** The Contributions object of schema/CONTRACT.md §2.7: counts, models and the medians the disclosure rule allows. */
export async function readContributions(db: D1Database): Promise<Contributions> {
  const [countRows, distinctRows] = await db.batch([
    db.prepare(READ_COUNTS_SQL),
    db.prepare(READ_DISTINCT_SQL),
  ])
  const results = (countRows?.results ?? []) as CountRow[]
  const distinct = new Map(
    ((distinctRows?.results ?? []) as { category: string; submitters: number }[]).map((r) => [
      r.category,
      r.submitters,
    ]),
  )
  const counts = new Map<string, CategoryCounts>()
  for (const row of results) {
    const c = counts.get(row.category) ?? {
      submitters: distinct.get(row.category) ?? 0,
      n: 0,
      entry_n: 0,
      unit_n: 0,
      models: new Map<string, number>(),
    }
    c.n += row.n
    c.entry_n += row.entry_n
    c.unit_n += row.unit_n
    c.models.set(row.pricing_model, (c.models.get(row.pricing_model) ?? 0) + row.n)
    counts.set(row.category, c)
  }
  const medians = await readMedians(db, counts)
  const categories = [
    ...SUBMISSION_CATEGORIES,
    ...[...counts.keys()].filter((c) => !SUBMISSION_CATEGORIES.includes(c as never)),
  ]
  const by_category: Record<string, CategoryAggregate> = {}
  let submissions = 0
  for (const category of categories) {
    const c = counts.get(category)
    submissions += c?.n ?? 0
    by_category[category] = {
      n: c?.n ?? 0,
      entry_p50: medians.get(`${category}:entry`) ?? null,
      unit_p50: medians.get(`${category}:unit`) ?? null,
      // Below the threshold a model count could single out one submitter's pricing model.
      models: disclosable(c) ? modelCounts(c?.models) : {},
    }
  }
  return { available: true, submissions, truncated: false, by_category, disclosure_rule: DISCLOSURE_RULE }
}

/** Total accepted submissions (for /v1/stats): a sum over at most categories × models rows. */
export async function countSubmissions(db: D1Database): Promise<number> {
  const row = await db.prepare('SELECT COALESCE(SUM(n), 0) AS n FROM category_counts').first<{ n: number }>()
  return row?.n ?? 0
}

/**
 * The medians that may be published: the category has DISCLOSURE_THRESHOLD submissions from as many
 * networks AND the price itself has at least that many voices (stricter than the category count
 * alone: 5 submissions of which one gives a monthly price must not publish that one price as the
 * median). Fewer rows than the threshold means fewer voices too, so no query is needed for those.
 */
async function readMedians(
  db: D1Database,
  counts: Map<string, CategoryCounts>,
): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>()
  const missing: { key: string; category: string; price: PriceColumn }[] = []
  for (const [category, c] of counts) {
    if (!disclosable(c)) continue
    for (const price of ['entry', 'unit'] as const) {
      const rows = price === 'entry' ? c.entry_n : c.unit_n
      if (rows < DISCLOSURE_THRESHOLD) continue
      const key = `${category}:${price}`
      const memo = medianMemo.get(key)
      const fresh =
        memo && (memo.rows === rows || (rows >= LARGE_COUNT && Date.now() - memo.at < MEDIAN_TTL_MS))
      if (memo && fresh) out.set(key, memo.median)
      else missing.push({ key, category, price })
    }
  }
  if (!missing.length) return out
  const answers = await db.batch<{ k: number; rows: number; median: number | null }>(
    missing.map((m) => db.prepare(medianSql(m.price)).bind(m.category)),
  )
  missing.forEach((m, i) => {
    const row = answers[i]?.results[0]
    if (!row) return
    // Float noise from averaging (0.1 + 0.2) is not information; 12 significant digits keep every real price.
    const exact = row.median === null ? null : Number(row.median.toPrecision(12))
    // Fewer voices than the threshold: one network's mean could be all there is to publish.
    const median = row.k >= DISCLOSURE_THRESHOLD ? exact : null
    medianMemo.set(m.key, { rows: row.rows, median, at: Date.now() })
    out.set(m.key, median)
  })
  return out
}

/** Enough rows AND enough distinct submitters: one client's many rows are one voice. */
function disclosable(c: CategoryCounts | undefined): c is CategoryCounts {
  return !!c && c.n >= DISCLOSURE_THRESHOLD && c.submitters >= DISCLOSURE_THRESHOLD
}

/**
 * The aggregates as published: a snapshot taken at most every `intervalMs`, so a reader polling
 * around one submission sees it only together with everything else that arrived in the interval.
 * `n` comes from the same snapshot: a live count would date each arrival.
 */
export async function readPublishedContributions(
  db: D1Database,
  intervalMs: number,
  now = Date.now(),
): Promise<Contributions> {
  const row = await db
    .prepare('SELECT taken_at, body FROM aggregate_snapshot WHERE id = 1')
    .first<{ taken_at: number; body: string }>()
  if (row && now - row.taken_at < intervalMs) return JSON.parse(row.body) as Contributions
  const fresh = { ...(await readContributions(db)), as_of: new Date(now).toISOString() }
  await db
    .prepare(
      `INSERT INTO aggregate_snapshot (id, taken_at, body) VALUES (1, ?1, ?2)
       ON CONFLICT (id) DO UPDATE SET taken_at = excluded.taken_at, body = excluded.body
       WHERE excluded.taken_at > aggregate_snapshot.taken_at`,
    )
    .bind(now, JSON.stringify(fresh))
    .run()
  return fresh
}

/** Pricing model → count, in vocabulary order, models with no submissions left out. */
function modelCounts(models: Map<string, number> | undefined): Record<string, number> {
  const out: Record<string, number> = {}
  if (!models) return out
  const known = PRICING_MODELS.filter((m) => models.has(m))
  const other = [...models.keys()].filter((m) => !PRICING_MODELS.includes(m as never))
  for (const m of [...known, ...other]) out[m] = models.get(m) ?? 0
  return out
}

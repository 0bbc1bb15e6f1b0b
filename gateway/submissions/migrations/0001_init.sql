-- The submissions store: crowd pricing rows (never read back one by one), the per-category counts
-- kept in step with them, the submit rate limiter and the usage counters.

-- One accepted submission. Insert-only: no endpoint updates or deletes a row, which is what lets the
-- aggregates trust the counts below as the version of a category. received_on is a day, not a
-- timestamp, so a row cannot be matched to a request log by time.
CREATE TABLE submissions (
  id INTEGER PRIMARY KEY,
  received_on TEXT NOT NULL,
  category TEXT NOT NULL,
  pricing_model TEXT NOT NULL,
  entry_usd_month REAL,
  unit_price_usd REAL,
  product TEXT,
  usage_unit TEXT,
  typical_discount_pct REAL,
  acv_band TEXT,
  note TEXT,
  email TEXT
);

-- Medians walk these in order and stop at the middle (LIMIT/OFFSET), so rows without the price
-- are left out of the index altogether.
CREATE INDEX submissions_entry ON submissions (category, entry_usd_month) WHERE entry_usd_month IS NOT NULL;
CREATE INDEX submissions_unit ON submissions (category, unit_price_usd) WHERE unit_price_usd IS NOT NULL;

-- Counts per category and pricing model, upserted (n = n + 1) in the same D1 batch as the insert,
-- so they always equal what a COUNT(*) over submissions would say, without the scan.
-- entry_n / unit_n count the rows carrying each price: the median's position needs them.
CREATE TABLE category_counts (
  category TEXT NOT NULL,
  pricing_model TEXT NOT NULL,
  n INTEGER NOT NULL DEFAULT 0,
  entry_n INTEGER NOT NULL DEFAULT 0,
  unit_n INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (category, pricing_model)
) WITHOUT ROWID;

-- Fixed one-minute windows of submit attempts. client_hash is SHA-256 of the window and the client
-- address, never the address itself, and rows of past windows are deleted as new ones start.
CREATE TABLE submit_windows (
  client_hash TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  n INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (client_hash, window_start)
) WITHOUT ROWID;
CREATE INDEX submit_windows_start ON submit_windows (window_start);

-- Usage counters written by the gateway after each response (POST /internal/hits).
CREATE TABLE hits (
  endpoint TEXT NOT NULL,
  outcome TEXT NOT NULL,
  client TEXT NOT NULL,
  n INTEGER NOT NULL DEFAULT 0,
  first_on TEXT NOT NULL,
  PRIMARY KEY (endpoint, outcome, client)
) WITHOUT ROWID;

-- Who submitted, as far as the disclosure rule needs to know: a salted hash of the client address
-- (SHA-256 of SUBMITTER_SALT and the address), never the address. Medians and pricing-model counts
-- need DISCLOSURE_THRESHOLD distinct submitters in a category, so one client padding a quiet
-- category with rows cannot make the next honest row's price the published median.
ALTER TABLE submissions ADD COLUMN submitter TEXT;

-- One row per (category, submitter): the distinct count below is kept in step with it.
CREATE TABLE category_submitters (
  category TEXT NOT NULL,
  submitter TEXT NOT NULL,
  PRIMARY KEY (category, submitter)
) WITHOUT ROWID;

CREATE TABLE category_distinct (
  category TEXT PRIMARY KEY,
  submitters INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- The published aggregates, taken at most once per AGGREGATE_SNAPSHOT_SECONDS, so polling cannot
-- isolate a single new row by reading the aggregates just before and just after it.
CREATE TABLE aggregate_snapshot (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  taken_at INTEGER NOT NULL,
  body TEXT NOT NULL
);

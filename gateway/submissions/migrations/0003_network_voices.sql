-- One voice per submitter network in each category: the mean of the prices that network gave there.
-- Medians are taken over voices, not rows, so rows from one network can move a median by at most the
-- one place its voice takes: reading a category's prices by padding it with rows needs a network per
-- place. Kept in step with each insert by an upsert in the same D1 batch (sums and counts, then the
-- mean), so the median is an index walk to the middle of (category, voice).
CREATE TABLE category_voices (
  category TEXT NOT NULL,
  submitter TEXT NOT NULL,
  entry_sum REAL NOT NULL DEFAULT 0,
  entry_n INTEGER NOT NULL DEFAULT 0,
  entry_voice REAL,
  unit_sum REAL NOT NULL DEFAULT 0,
  unit_n INTEGER NOT NULL DEFAULT 0,
  unit_voice REAL,
  PRIMARY KEY (category, submitter)
) WITHOUT ROWID;
CREATE INDEX category_voices_entry ON category_voices (category, entry_voice) WHERE entry_voice IS NOT NULL;
CREATE INDEX category_voices_unit ON category_voices (category, unit_voice) WHERE unit_voice IS NOT NULL;

-- The rows stored before this migration; a row from before submitters were recorded is a voice of its own.
INSERT INTO category_voices (category, submitter, entry_sum, entry_n, entry_voice, unit_sum, unit_n, unit_voice)
  SELECT category, COALESCE(submitter, 'row-' || id),
    COALESCE(SUM(entry_usd_month), 0), COUNT(entry_usd_month), AVG(entry_usd_month),
    COALESCE(SUM(unit_price_usd), 0), COUNT(unit_price_usd), AVG(unit_price_usd)
  FROM submissions GROUP BY category, COALESCE(submitter, 'row-' || id);

-- Medians no longer walk the rows.
DROP INDEX submissions_entry;
DROP INDEX submissions_unit;

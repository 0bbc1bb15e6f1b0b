-- Technologies agents named (`technologies=`) that the trap layer does not cover, counted per name,
-- so editors see which to add next (GET /v1/stats technologies_not_covered). Names only: no client,
-- no request, no time beyond the day first seen.
CREATE TABLE uncovered_technologies (
  name TEXT PRIMARY KEY,
  n INTEGER NOT NULL DEFAULT 0,
  first_on TEXT NOT NULL
) WITHOUT ROWID;

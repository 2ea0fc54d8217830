-- The rounds read the raw checks stored since their last read, in the order they were stored
-- (`seq`), not the whole day again: a check that reaches the database late (held through an
-- outage, written by a slow instance) carries a newer `seq` than every row read before it, so every
-- instance reads it once, whatever its time. (A sequence's numbers are taken when a row is
-- inserted, not when it commits: the rounds read again the numbers of their previous read, see
-- the status crate's `raw_window`.)
ALTER TABLE status_checks ADD COLUMN seq BIGSERIAL;
CREATE INDEX status_checks_by_seq ON status_checks (seq);

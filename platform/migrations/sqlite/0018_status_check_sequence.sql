-- The rounds read the raw checks stored since their last read, in the order they were stored
-- (`seq`), not the whole day again: a check that reaches the database late (held through an
-- outage, written by a slow instance) carries a newer `seq` than every row read before it, so every
-- instance reads it once, whatever its time. AUTOINCREMENT never hands a number out twice (a plain
-- rowid would reuse the largest after it is pruned), so the table is made again with the column.
CREATE TABLE status_checks_seq (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    component    TEXT    NOT NULL,
    instance_id  TEXT    NOT NULL,
    checked_at   BIGINT  NOT NULL,
    healthy      BIGINT  NOT NULL,
    latency_us   BIGINT  NOT NULL,
    error        TEXT,
    UNIQUE (instance_id, component, checked_at)
);
INSERT INTO status_checks_seq (component, instance_id, checked_at, healthy, latency_us, error)
    SELECT component, instance_id, checked_at, healthy, latency_us, error FROM status_checks
    ORDER BY checked_at;
DROP TABLE status_checks;
ALTER TABLE status_checks_seq RENAME TO status_checks;
CREATE INDEX status_checks_by_time ON status_checks (checked_at);

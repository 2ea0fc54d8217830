-- One row that readiness probes rewrite: `/db-health` and the status checks prove that the
-- database still takes a committed write (a full disk, a read-only file system or a held write
-- lock refuse it) as well as a read. `beat_at` is the last probe's time, unix milliseconds.
CREATE TABLE write_probe (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    beat_at BIGINT  NOT NULL
);
INSERT INTO write_probe (id, beat_at) VALUES (1, 0);

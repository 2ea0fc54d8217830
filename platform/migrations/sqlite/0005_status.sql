-- Status history. Every instance checks its components (api, db, queue) on a schedule and
-- is one viewpoint: rows carry its `instance_id`. Times are unix milliseconds, latencies microseconds,
-- `healthy` is 0/1 (BIGINT, which the Any driver reads the same on both engines).
-- Raw checks are kept 48 hours; the key makes a re-sent check (after an outage) a no-op.
CREATE TABLE status_checks (
    component    TEXT    NOT NULL,
    instance_id  TEXT    NOT NULL,
    checked_at   BIGINT  NOT NULL,
    healthy      BIGINT  NOT NULL,
    latency_us   BIGINT  NOT NULL,
    error        TEXT,
    PRIMARY KEY (instance_id, component, checked_at)
);
CREATE INDEX status_checks_by_time ON status_checks (checked_at);

-- Hourly and daily aggregates of the raw checks, per component and instance, kept 90 days.
-- `resolution` is 'hour' or 'day'; `bucket_start` the period's first millisecond (UTC).
-- Percentiles are exact (computed from the raw rows of the period).
CREATE TABLE status_rollups (
    resolution      TEXT    NOT NULL,
    bucket_start    BIGINT  NOT NULL,
    component       TEXT    NOT NULL,
    instance_id     TEXT    NOT NULL,
    checks          BIGINT  NOT NULL,
    failures        BIGINT  NOT NULL,
    latency_p50_us  BIGINT  NOT NULL,
    latency_p95_us  BIGINT  NOT NULL,
    latency_max_us  BIGINT  NOT NULL,
    PRIMARY KEY (resolution, bucket_start, component, instance_id)
);

-- Incidents seen from one viewpoint: opened by two consecutive failed checks, closed by a healthy
-- one (`ended_at` NULL while open). Kept 90 days after they end.
CREATE TABLE status_incidents (
    component    TEXT    NOT NULL,
    instance_id  TEXT    NOT NULL,
    started_at   BIGINT  NOT NULL,
    ended_at     BIGINT,
    first_error  TEXT    NOT NULL,
    PRIMARY KEY (component, instance_id, started_at)
);
CREATE INDEX status_incidents_by_end ON status_incidents (ended_at);

-- One row per notice, kept by the writes of its updates (the trigger below): what the rounds, the
-- open-notice cap and the clock look notices up by, so none of them groups every kept update to
-- find the open ones. `open` is 1 until an update resolves or completes the notice; `started` is 1
-- once a window has an update in progress or completed; `status` is the latest update's, and
-- `component_status` the latest declared one; `last_seq` the latest update's `seq` (updates count
-- from 1, so it is also how many were posted). Pruning a notice's updates deletes its row and
-- their corrections (each a lookup by key), so no prune reads the corrections whole.
CREATE TABLE status_notices (
    notice_id        TEXT    PRIMARY KEY,
    kind             TEXT    NOT NULL,
    title            TEXT    NOT NULL,
    impact           TEXT    NOT NULL,
    components       TEXT    NOT NULL,
    check_incident   TEXT,
    starts_at        BIGINT,
    ends_at          BIGINT,
    status           TEXT    NOT NULL,
    created_at       BIGINT  NOT NULL,
    updated_at       BIGINT  NOT NULL,
    resolved_at      BIGINT,
    component_status TEXT,
    last_seq         BIGINT  NOT NULL,
    started          BIGINT  NOT NULL,
    open             BIGINT  NOT NULL
);
-- The open ones (capped) by their end; the newest first for the notice pages; the recently updated
-- for the answers and pruning; the windows by their end for the uptime figures.
CREATE INDEX status_notices_open ON status_notices (open, ends_at);
CREATE INDEX status_notices_newest ON status_notices (created_at DESC, notice_id DESC);
CREATE INDEX status_notices_by_update ON status_notices (updated_at);
CREATE INDEX status_notices_by_end ON status_notices (ends_at);

INSERT INTO status_notices (notice_id, kind, title, impact, components, check_incident, starts_at,
        ends_at, status, created_at, updated_at, resolved_at, component_status, last_seq, started,
        open)
    SELECT f.notice_id, f.kind, f.title, f.impact, f.components, f.check_incident, f.starts_at,
        f.ends_at,
        (SELECT x.status FROM status_notice_updates x WHERE x.notice_id = f.notice_id
            ORDER BY x.seq DESC LIMIT 1),
        f.created_at,
        (SELECT MAX(x.created_at) FROM status_notice_updates x WHERE x.notice_id = f.notice_id),
        (SELECT MIN(x.created_at) FROM status_notice_updates x WHERE x.notice_id = f.notice_id
            AND x.status IN ('resolved', 'completed')),
        (SELECT x.component_status FROM status_notice_updates x WHERE x.notice_id = f.notice_id
            AND x.component_status IS NOT NULL ORDER BY x.seq DESC LIMIT 1),
        (SELECT MAX(x.seq) FROM status_notice_updates x WHERE x.notice_id = f.notice_id),
        CASE WHEN EXISTS (SELECT 1 FROM status_notice_updates x WHERE x.notice_id = f.notice_id
            AND x.status IN ('in_progress', 'completed')) THEN 1 ELSE 0 END,
        CASE WHEN EXISTS (SELECT 1 FROM status_notice_updates x WHERE x.notice_id = f.notice_id
            AND x.status IN ('resolved', 'completed')) THEN 0 ELSE 1 END
    FROM status_notice_updates f
    WHERE f.seq = (SELECT MIN(x.seq) FROM status_notice_updates x WHERE x.notice_id = f.notice_id);

CREATE FUNCTION keep_notice_of_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO status_notices (notice_id, kind, title, impact, components, check_incident,
            starts_at, ends_at, status, created_at, updated_at, resolved_at, component_status,
            last_seq, started, open)
        VALUES (NEW.notice_id, NEW.kind, NEW.title, NEW.impact, NEW.components,
            NEW.check_incident, NEW.starts_at, NEW.ends_at, NEW.status, NEW.created_at,
            NEW.created_at,
            CASE WHEN NEW.status IN ('resolved', 'completed') THEN NEW.created_at END,
            NEW.component_status, NEW.seq,
            CASE WHEN NEW.status IN ('in_progress', 'completed') THEN 1 ELSE 0 END,
            CASE WHEN NEW.status IN ('resolved', 'completed') THEN 0 ELSE 1 END)
        ON CONFLICT (notice_id) DO UPDATE SET
            status = CASE WHEN EXCLUDED.last_seq > status_notices.last_seq THEN EXCLUDED.status
                ELSE status_notices.status END,
            updated_at = GREATEST(status_notices.updated_at, EXCLUDED.updated_at),
            resolved_at = COALESCE(status_notices.resolved_at, EXCLUDED.resolved_at),
            component_status = COALESCE(EXCLUDED.component_status,
                status_notices.component_status),
            last_seq = GREATEST(status_notices.last_seq, EXCLUDED.last_seq),
            started = GREATEST(status_notices.started, EXCLUDED.started),
            open = LEAST(status_notices.open, EXCLUDED.open);
    RETURN NULL;
END
$$;
CREATE TRIGGER an_update_keeps_its_notice AFTER INSERT ON status_notice_updates
    FOR EACH ROW EXECUTE FUNCTION keep_notice_of_update();
CREATE FUNCTION delete_pruned_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM status_notices WHERE notice_id = OLD.notice_id;
    DELETE FROM status_update_revisions WHERE notice_id = OLD.notice_id AND seq = OLD.seq;
    RETURN NULL;
END
$$;
CREATE TRIGGER pruning_a_notice_deletes_its_row AFTER DELETE ON status_notice_updates
    FOR EACH ROW EXECUTE FUNCTION delete_pruned_notice();

-- The component statuses' log reads the newest settings in the order it shows them; in that order
-- the index ends the read at its LIMIT (on the time alone, SQLite sorted the whole table).
CREATE INDEX status_component_declarations_log
    ON status_component_declarations (created_at DESC, component, seq DESC);
DROP INDEX status_component_declarations_by_time;

-- The history reads the hours' rollups of every viewpoint together (instance '+', written with the
-- agreed ones, '*') instead of each viewpoint's: as many rows however many viewpoints checked or
-- are gone. The hours rolled up before are combined here once (the latencies weighted by checks,
-- as the history combined them).
CREATE INDEX status_rollups_by_viewpoint ON status_rollups (instance_id, resolution, bucket_start);
INSERT INTO status_rollups (resolution, bucket_start, component, instance_id, checks, failures,
        latency_p50_us, latency_p95_us, latency_max_us)
    SELECT 'hour', bucket_start, component, '+', SUM(checks), SUM(failures),
        SUM(latency_p50_us * checks) / SUM(checks), SUM(latency_p95_us * checks) / SUM(checks),
        MAX(latency_max_us)
    FROM status_rollups
    WHERE resolution = 'hour' AND instance_id <> '*' AND checks > 0
    GROUP BY bucket_start, component;

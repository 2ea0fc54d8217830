-- The periodic jobs read and prune the status history by time: component changes by when they
-- were stored (the webhooks' enqueue pass and its pruning), rollups by the start of their period
-- (pruning, across both resolutions). Without these, each read or prune scans the whole table.
CREATE INDEX status_component_events_by_time ON status_component_events (created_at);
CREATE INDEX status_rollups_by_start ON status_rollups (bucket_start);

-- The operator log reads the newest updates in the order it shows them (newest first, then by
-- notice, then the notice's newest update first); in that order the index ends the read at its
-- LIMIT, where one on the time alone left SQLite sorting the whole table. It serves every read
-- by time the old index served.
CREATE INDEX status_notice_updates_log
    ON status_notice_updates (created_at DESC, notice_id, seq DESC);
DROP INDEX status_notice_updates_by_time;

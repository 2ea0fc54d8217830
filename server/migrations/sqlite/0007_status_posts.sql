-- What status operators write: incidents (with an update timeline) and scheduled maintenance.
-- Times are unix milliseconds. `kind` is 'incident' or 'maintenance'; `components` the affected
-- component ids joined by commas; `impact` none/minor/major/critical (maintenance: 'maintenance');
-- `status` the latest update's status. `check_incident` names an incident the checks opened
-- (`{component}-{started ms}`) that this one was attached to. A maintenance window is
-- [`starts_at`, `ends_at`); `resolved_at` is set when an incident is resolved or a window is
-- completed early.
CREATE TABLE status_posts (
    id              TEXT    PRIMARY KEY,
    kind            TEXT    NOT NULL,
    title           TEXT    NOT NULL,
    impact          TEXT    NOT NULL,
    components      TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    check_incident  TEXT,
    starts_at       BIGINT,
    ends_at         BIGINT,
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL,
    resolved_at     BIGINT,
    created_by      TEXT    NOT NULL
);
CREATE INDEX status_posts_by_update ON status_posts (updated_at);

-- The timeline of a post: `seq` counts from 1; `body` is the operator's Markdown (rendered to
-- safe HTML when the answers are made).
CREATE TABLE status_post_updates (
    post_id     TEXT    NOT NULL REFERENCES status_posts (id) ON DELETE CASCADE,
    seq         BIGINT  NOT NULL,
    status      TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    author      TEXT    NOT NULL,
    PRIMARY KEY (post_id, seq)
);

-- Who did what to the status page, and when (`operator` is the identity provider's user id).
CREATE TABLE status_operator_log (
    id        TEXT    PRIMARY KEY,
    at        BIGINT  NOT NULL,
    operator  TEXT    NOT NULL,
    action    TEXT    NOT NULL,
    target    TEXT    NOT NULL
);
CREATE INDEX status_operator_log_by_time ON status_operator_log (at);

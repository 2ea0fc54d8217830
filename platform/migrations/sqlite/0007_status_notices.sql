-- What status operators write: incidents and scheduled maintenance windows, as a timeline of
-- updates. One row per operator action (opening, each update, resolving), so every action is one
-- autocommit INSERT and the table is also the log of who did what, when (`author` is the identity
-- provider's user id). The notice's own fields are written with its first update and copied into
-- every later one: `kind` 'incident' or 'maintenance'; `components` component ids joined by
-- commas; `impact` none/minor/major/critical (a window: 'maintenance'); `check_incident` an
-- incident the checks opened (`{component}-{started ms}`) that this one was attached to; a window
-- is [`starts_at`, `ends_at`). `status` is the update's; `body` the operator's Markdown. Times are
-- unix milliseconds; `seq` counts from 1.
CREATE TABLE status_notice_updates (
    notice_id       TEXT    NOT NULL,
    seq             BIGINT  NOT NULL,
    kind            TEXT    NOT NULL,
    title           TEXT    NOT NULL,
    impact          TEXT    NOT NULL,
    components      TEXT    NOT NULL,
    check_incident  TEXT,
    starts_at       BIGINT,
    ends_at         BIGINT,
    status          TEXT    NOT NULL,
    body            TEXT    NOT NULL,
    created_at      BIGINT  NOT NULL,
    author          TEXT    NOT NULL,
    PRIMARY KEY (notice_id, seq)
);
CREATE INDEX status_notice_updates_by_time ON status_notice_updates (created_at);

-- Outgoing webhooks of the status page (docs/status-operators.md, "Webhooks"). Operators add and
-- delete them; a deleted one keeps its row (`deleted_at`, `deleted_by`) as the log of who did what,
-- and its deliveries stop. `format` is 'json', 'slack' or 'discord'; `secret` signs every delivery
-- (HMAC-SHA256) and is shown once, when the webhook is added. Times are unix milliseconds.
CREATE TABLE status_webhooks (
    id          TEXT    PRIMARY KEY,
    name        TEXT    NOT NULL,
    url         TEXT    NOT NULL,
    format      TEXT    NOT NULL,
    secret      TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    created_by  TEXT    NOT NULL,
    deleted_at  BIGINT,
    deleted_by  TEXT
);
-- The components' state changes the checks found ('down' when an incident of the component opens,
-- 'up' when it ends), numbered per component: an instance adds a change only as the next number
-- after a different state, so two instances seeing the same change store it once. `incident` is
-- the checks' incident; `at` the time the change happened (its start or end); `held` 1 when the
-- component was inside a maintenance window then (the change is not sent).
CREATE TABLE status_component_events (
    component   TEXT    NOT NULL,
    seq         BIGINT  NOT NULL,
    state       TEXT    NOT NULL,
    incident    TEXT    NOT NULL,
    at          BIGINT  NOT NULL,
    held        BIGINT  NOT NULL,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (component, seq)
);
-- The queue and the delivery log: one row per (event, webhook), whichever instance added it
-- first. `id` is the delivery id a receiver de-duplicates on; `body` what is sent, every attempt.
-- `state` is 'pending', 'delivered', 'failed' or 'held'; an instance sending a row holds it until
-- `locked_until`, and one killed meanwhile leaves it to be sent again once that passes.
CREATE TABLE status_webhook_deliveries (
    id           TEXT    PRIMARY KEY,
    webhook_id   TEXT    NOT NULL REFERENCES status_webhooks (id) ON DELETE CASCADE,
    event_key    TEXT    NOT NULL,
    event        TEXT    NOT NULL,
    body         TEXT    NOT NULL,
    state        TEXT    NOT NULL,
    attempts     BIGINT  NOT NULL,
    next_at      BIGINT  NOT NULL,
    locked_until BIGINT,
    last_status  BIGINT,
    last_error   TEXT,
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    UNIQUE (event_key, webhook_id)
);
CREATE INDEX status_webhook_deliveries_due ON status_webhook_deliveries (state, next_at);
CREATE INDEX status_webhook_deliveries_by_time ON status_webhook_deliveries (created_at);

-- Each receiver backs off on its own: after a failed attempt its webhook is paused (consecutive
-- failures count up the wait), so a dead receiver costs one attempt per pause however many
-- deliveries wait for it, and the others go on. Each webhook's queue is read through its own index
-- (its oldest pending delivery, the claim's check that none is ahead of it).
ALTER TABLE status_webhooks ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE status_webhooks ADD COLUMN paused_until BIGINT;
CREATE INDEX status_webhook_deliveries_queue
    ON status_webhook_deliveries (webhook_id, state, next_at, id);

-- Deleting an account leaves nothing that names the person: the status records an operator wrote
-- (notice updates, webhooks) name them by their identity provider user id, so when their `users` row
-- goes, in the same statement, those records name "former operator" instead. The indexes keep that
-- a lookup, however long the status history.
CREATE INDEX status_notice_updates_by_author ON status_notice_updates (author);
CREATE INDEX status_webhooks_by_creator ON status_webhooks (created_by);
CREATE TRIGGER deleting_a_user_unnames_their_status_records AFTER DELETE ON users
BEGIN
    UPDATE status_notice_updates SET author = 'former operator' WHERE author = OLD.identity_id;
    UPDATE status_webhooks SET created_by = 'former operator' WHERE created_by = OLD.identity_id;
END;

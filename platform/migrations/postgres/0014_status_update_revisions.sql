-- Operators correcting what they posted: each edit or delete of an update of an incident or
-- maintenance window is one row here, never a change to `status_notice_updates`, so every correction
-- is one autocommit INSERT and the table is the log of who changed what, when, and what the text
-- was before. `rev` counts from 1 per update; `body` is the new Markdown, NULL when the update was
-- deleted (a deleted update takes no later revision); `old_body` the text it replaced;
-- `author` the identity provider's user id; times are unix milliseconds. An update shows the body
-- of its latest revision, or its own without one.
CREATE TABLE status_update_revisions (
    notice_id   TEXT    NOT NULL,
    seq         BIGINT  NOT NULL,
    rev         BIGINT  NOT NULL,
    body        TEXT,
    old_body    TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    author      TEXT    NOT NULL,
    PRIMARY KEY (notice_id, seq, rev)
);
CREATE INDEX status_update_revisions_by_time ON status_update_revisions (created_at);
-- Deleting an account unnames the corrections its operator made, in the deletion's statement, as
-- 0013 does for their notices and webhooks.
CREATE INDEX status_update_revisions_by_author ON status_update_revisions (author);
CREATE FUNCTION unname_corrections_of_deleted_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE status_update_revisions SET author = 'former operator' WHERE author = OLD.identity_id;
    RETURN NULL;
END;
$$;
CREATE TRIGGER deleting_a_user_unnames_their_corrections AFTER DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION unname_corrections_of_deleted_user();

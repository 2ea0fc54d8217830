-- Sessions, listed and signed out from the account page.
-- `label`: a short name of the browser and system ("Firefox on Linux"), derived once from the
-- User-Agent when the session is first recorded; the header itself is not stored.
-- `revoked_sessions`: the keys of sessions signed out from another session or ended by the
-- account's deletion. A request naming one answers 401 `session_revoked`, and recording it again
-- does nothing, so a client re-sending the id cannot bring the session back. A row names no user
-- (the key is a SHA-256 that only the browser holding the session id can produce) and stays only
-- until the session would have expired (`expires_at`), when pruning deletes it.
-- Two triggers make each step one statement: inserting a revoked key ends its session, and
-- deleting a user revokes every session of theirs before the cascade deletes them.
ALTER TABLE sessions ADD COLUMN label TEXT;
CREATE TABLE revoked_sessions (
    session_key TEXT   PRIMARY KEY,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX revoked_sessions_by_expiry ON revoked_sessions (expires_at);
CREATE TRIGGER revoking_a_session_ends_it AFTER INSERT ON revoked_sessions
BEGIN
    DELETE FROM sessions WHERE session_key = NEW.session_key;
END;
CREATE TRIGGER deleting_a_user_revokes_their_sessions BEFORE DELETE ON users
BEGIN
    INSERT OR IGNORE INTO revoked_sessions (session_key, expires_at)
        SELECT session_key, expires_at FROM sessions WHERE user_id = OLD.id;
END;

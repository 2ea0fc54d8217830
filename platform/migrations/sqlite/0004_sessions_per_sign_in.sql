-- Sessions, redefined: one row per signed-in browser or device, not per short-lived session token
-- (which the identity SDK replaces every few minutes, so counting tokens climbed with every reload).
-- `session_key` is the SHA-256 (hex) of the id the app creates at sign-in and sends as
-- `X-Session-Id` (or, for a client that sends none, of its session token). A session is live until
-- `expires_at`; each use moves it forward; logout deletes the row; expired rows are pruned on write.
-- Rows of the old per-token table are short-lived by nature and are not carried over.
-- Times are unix milliseconds, as in `users`.
DROP TABLE sessions;
CREATE TABLE sessions (
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_key  TEXT    NOT NULL,
    created_at   BIGINT  NOT NULL,
    last_seen_at BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL,
    PRIMARY KEY (user_id, session_key)
);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

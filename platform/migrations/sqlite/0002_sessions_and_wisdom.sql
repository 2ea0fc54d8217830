-- Sessions: one row per distinct session token the server has verified, so `activeSessions` can
-- count a user's unexpired ones. Only the token's SHA-256 (hex) is stored: a database leak must not
-- hand out live sessions. Times are unix milliseconds, as in `users`.
CREATE TABLE sessions (
    token_hash  TEXT    PRIMARY KEY,
    user_id     INTEGER  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at  BIGINT  NOT NULL,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX sessions_by_user_and_expiry ON sessions (user_id, expires_at);

-- Wisdom: the quotes `POST /api/wisdom` picks from. Both engines are seeded at start from one file,
-- server/seed/wisdom.json (real, correctly attributed quotes; see db/wisdom.rs).
CREATE TABLE wisdom (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    quote   TEXT NOT NULL UNIQUE,
    orator  TEXT NOT NULL
);

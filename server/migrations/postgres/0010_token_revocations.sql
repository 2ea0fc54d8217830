-- Signing a session out, or deleting the account, stops that session's tokens: revocation is
-- bound to the tokens themselves, not to the session id the client chooses to send.
-- `sessions.binding`: what ties a session to its tokens, SHA-256 (hex) of the user and the
-- provider's sign-in id (the token's `sid` claim, shared by every token refreshed from that
-- sign-in) or, for a token that names none, of the token itself; `previous_binding` is the one
-- before it (a token refreshed a moment ago is still valid). Rows written before this migration
-- take their session key, which is the token's hash for a session recorded without an id.
-- `revoked_tokens`: bindings signed out. A token with one is refused (401 `session_revoked`) on
-- every route until `expires_at`. `user_key` is SHA-256 of the provider's user id: at most 64 rows
-- are kept per user, older ones folded into the user's not-before time.
-- `token_cutoffs`: per user, tokens issued (`iat`, unix ms) before `not_before` are refused, except
-- those of `exempt_binding` (the session that signed the others out); kept until `expires_at`, the
-- longest a token issued before it can live.
-- `revoked_sessions` (keyed on the client's session id) goes with its triggers: its rows of
-- sessions recorded without an id were keyed on the token's hash and are carried over.
ALTER TABLE sessions ADD COLUMN binding TEXT;
ALTER TABLE sessions ADD COLUMN previous_binding TEXT;
UPDATE sessions SET binding = session_key;
CREATE INDEX sessions_by_binding ON sessions (binding);
CREATE INDEX sessions_by_previous_binding ON sessions (previous_binding);
CREATE TABLE revoked_tokens (
    binding    TEXT   PRIMARY KEY,
    user_key   TEXT   NOT NULL,
    revoked_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX revoked_tokens_by_user ON revoked_tokens (user_key, revoked_at);
CREATE INDEX revoked_tokens_by_expiry ON revoked_tokens (expires_at);
CREATE TABLE token_cutoffs (
    user_key       TEXT   PRIMARY KEY,
    not_before     BIGINT NOT NULL,
    exempt_binding TEXT,
    expires_at     BIGINT NOT NULL
);
CREATE INDEX token_cutoffs_by_expiry ON token_cutoffs (expires_at);
INSERT INTO revoked_tokens (binding, user_key, revoked_at, expires_at)
    SELECT session_key, '', 0, expires_at FROM revoked_sessions;
DROP TRIGGER deleting_a_user_revokes_their_sessions ON users;
DROP FUNCTION revoke_sessions_of_deleted_user();
DROP TRIGGER revoking_a_session_ends_it ON revoked_sessions;
DROP FUNCTION end_revoked_session();
DROP TABLE revoked_sessions;

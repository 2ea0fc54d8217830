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
-- longest a token issued before it can live. `user_id` and `deletes_user` are set only by the
-- statement that writes the row, for its trigger, which clears them.
-- Triggers make each sign-out one statement: revoking a binding ends every session holding it; a
-- not-before time written with a `user_id` revokes the bindings of that user's sessions other than
-- the exempt one (which ends them) and, with `deletes_user`, deletes the user (the cascade deletes
-- the sessions).
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
    expires_at     BIGINT NOT NULL,
    user_id        BIGINT,
    deletes_user   BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX token_cutoffs_by_expiry ON token_cutoffs (expires_at);
INSERT INTO revoked_tokens (binding, user_key, revoked_at, expires_at)
    SELECT session_key, '', 0, expires_at FROM revoked_sessions;
DROP TRIGGER deleting_a_user_revokes_their_sessions ON users;
DROP FUNCTION revoke_sessions_of_deleted_user();
DROP TRIGGER revoking_a_session_ends_it ON revoked_sessions;
DROP FUNCTION end_revoked_session();
DROP TABLE revoked_sessions;
CREATE FUNCTION end_sessions_of_revoked_binding() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM sessions WHERE binding = NEW.binding OR previous_binding = NEW.binding;
    RETURN NULL;
END
$$;
CREATE TRIGGER revoking_a_binding_ends_its_sessions AFTER INSERT ON revoked_tokens
    FOR EACH ROW EXECUTE FUNCTION end_sessions_of_revoked_binding();
CREATE FUNCTION sign_out_the_others() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO revoked_tokens (binding, user_key, revoked_at, expires_at)
        SELECT b, NEW.user_key, NEW.not_before, GREATEST(e, NEW.not_before + 2592000000) FROM (
            SELECT binding AS b, expires_at AS e, binding AS s FROM sessions
                WHERE user_id = NEW.user_id
            UNION ALL
            SELECT previous_binding, expires_at, binding FROM sessions
                WHERE user_id = NEW.user_id
        ) AS bound WHERE b IS NOT NULL AND (NEW.exempt_binding IS NULL OR s <> NEW.exempt_binding)
        ON CONFLICT (binding) DO NOTHING;
    DELETE FROM users WHERE id = NEW.user_id AND NEW.deletes_user = 1;
    UPDATE token_cutoffs SET user_id = NULL, deletes_user = 0 WHERE user_key = NEW.user_key;
    RETURN NULL;
END
$$;
CREATE TRIGGER a_new_cutoff_signs_out_the_others AFTER INSERT ON token_cutoffs
    FOR EACH ROW WHEN (NEW.user_id IS NOT NULL) EXECUTE FUNCTION sign_out_the_others();
CREATE TRIGGER a_raised_cutoff_signs_out_the_others AFTER UPDATE ON token_cutoffs
    FOR EACH ROW WHEN (NEW.user_id IS NOT NULL) EXECUTE FUNCTION sign_out_the_others();

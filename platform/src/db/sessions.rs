//! Queries on `sessions`: one row per signed-in browser or device, kept alive by use, ended by
//! logout or by another session's sign-out (revocation, which also revokes the session's tokens:
//! `revocations.rs`), capped per user and pruned once expired.

use sqlx::FromRow;

use super::{
    prune::PerEngine,
    revocations::{PRUNE_REVOKED_TOKENS, PRUNE_TOKEN_CUTOFFS, REVOKED_KEPT_MS},
    Database,
};

/// One of a user's sessions as the account page lists it. Times are unix milliseconds.
#[derive(Debug, Clone, FromRow)]
pub struct SessionRow {
    /// SHA-256 hex of the user and the app's session id (or of the session token).
    pub session_key: String,
    /// Browser and system, derived once when the session was first recorded; null for sessions
    /// recorded before labels existed.
    pub label: Option<String>,
    pub created_at: i64,
    pub last_seen_at: i64,
    pub expires_at: i64,
    /// The binding of the last token the session was used with (`identity::binding_of`).
    pub binding: Option<String>,
}

/// What `revoke_session` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revocation {
    /// The session's bindings are revoked and it ended.
    Done,
    /// The user has no such live session.
    NoSuchSession,
    /// The session is the caller's own sign-in (under another session id): nothing changed.
    Yours,
}

/// The most sessions one user keeps; a new one beyond this pushes out the least recently used.
/// A person rarely has more than a handful of browsers; a client inventing session ids cannot grow
/// the table past this many rows per account.
pub const MAX_SESSIONS_PER_USER: i64 = 20;

/// Records a use of session `$2` of user `$1` (`touch_labelled_session`).
pub const TOUCH_SESSION: &str = "INSERT INTO sessions (user_id, session_key, created_at, \
         last_seen_at, expires_at, label, binding) \
     SELECT id, $2, $3, $3, $4, $5, $6 FROM users WHERE identity_id = $1 \
         AND NOT EXISTS (SELECT 1 FROM revoked_tokens r WHERE r.binding = $6) \
     ON CONFLICT (user_id, session_key) DO UPDATE \
     SET last_seen_at = $3, expires_at = $4, \
         previous_binding = CASE WHEN sessions.binding = $6 \
             THEN sessions.previous_binding ELSE sessions.binding END, \
         binding = $6";

/// Drops user `$1`'s sessions beyond the `$2` most recently used.
pub const CAP_SESSIONS: &str = "DELETE FROM sessions \
     WHERE user_id = (SELECT id FROM users WHERE identity_id = $1) \
     AND session_key NOT IN (SELECT s.session_key FROM sessions s \
         WHERE s.user_id = (SELECT id FROM users WHERE identity_id = $1) \
         ORDER BY s.last_seen_at DESC, s.created_at DESC LIMIT $2)";

/// Logout: ends session `$1` of user `$2`.
pub const END_SESSION: &str = "DELETE FROM sessions WHERE session_key = $1 \
     AND user_id = (SELECT id FROM users WHERE identity_id = $2)";

/// A batch of the sessions expired at the cutoff (`prune.rs`).
pub const PRUNE_SESSIONS: PerEngine = crate::prune_batch!("sessions", "expires_at <= $1");

/// User `$1`'s unexpired sessions at `$2`, the most recently used first, at most `$3`.
pub const LIST_SESSIONS: &str = "SELECT s.session_key, s.label, s.created_at, s.last_seen_at, \
         s.expires_at, s.binding \
     FROM sessions s JOIN users u ON u.id = s.user_id \
     WHERE u.identity_id = $1 AND s.expires_at > $2 \
     ORDER BY s.last_seen_at DESC, s.created_at DESC LIMIT $3";

/// The binding of user `$1`'s live (at `$3`) session `$2`.
pub const SESSION_BINDING: &str =
    "SELECT s.binding FROM sessions s JOIN users u ON u.id = s.user_id \
     WHERE u.identity_id = $1 AND s.session_key = $2 AND s.expires_at > $3";

/// Revokes both bindings of user `$1`'s live (at `$4`) session `$2` under user key `$3`, each kept
/// until at least `$5`, never `$6` (the caller's).
pub const REVOKE_SESSION: &str = "INSERT INTO revoked_tokens (binding, user_key, revoked_at, \
         expires_at) \
     SELECT b, $3, $4, CASE WHEN e > $5 THEN e ELSE $5 END FROM ( \
         SELECT s.binding AS b, s.expires_at AS e FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE u.identity_id = $1 AND s.session_key = $2 AND s.expires_at > $4 \
         UNION ALL SELECT s.previous_binding, s.expires_at \
             FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE u.identity_id = $1 AND s.session_key = $2 AND s.expires_at > $4 \
     ) AS chosen WHERE b IS NOT NULL AND b <> $6 \
     ON CONFLICT (binding) DO NOTHING";

/// How many of user `$1`'s live (at `$3`) sessions are neither session `$2` nor of binding `$4`.
pub const COUNT_OTHER_SESSIONS: &str = "SELECT COUNT(*) FROM sessions s \
     JOIN users u ON u.id = s.user_id \
     WHERE u.identity_id = $1 AND s.session_key <> $2 AND s.expires_at > $3 \
         AND (s.binding IS NULL OR s.binding <> $4)";

/// How many of user `$1`'s sessions are live at `$2`.
pub const COUNT_ACTIVE_SESSIONS: &str = "SELECT COUNT(*) FROM sessions s \
     JOIN users u ON u.id = s.user_id WHERE u.identity_id = $1 AND s.expires_at > $2";

impl Database {
    /// Records a use of the user's session `session_key` (a SHA-256 hex): creates it, or moves its
    /// last use and expiry forward. Then drops the user's sessions beyond `MAX_SESSIONS_PER_USER`,
    /// least recently used first. Two statements, each its own transaction: neither needs the other
    /// to be atomic, and a deferred SQLite transaction that reads before it writes fails at once
    /// (SQLITE_BUSY, no waiting) when another connection wrote in between.
    #[tracing::instrument(skip(self, session_key))]
    pub async fn touch_session(
        &self,
        identity_id: &str,
        session_key: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> Result<(), sqlx::Error> {
        let binding = session_key;
        self.touch_labelled_session(
            identity_id,
            (session_key, binding),
            None,
            expires_at_ms,
            now_ms,
        )
        .await
    }

    /// [`Database::touch_session`], with the binding of the token used (`identity::binding_of`;
    /// the one it replaces is kept as the previous) and the label a new session is recorded with
    /// (an existing session keeps the one it was created with). A revoked binding is not recorded
    /// again (the request was refused before).
    #[tracing::instrument(skip(self, session))]
    pub async fn touch_labelled_session(
        &self,
        identity_id: &str,
        session: (&str, &str),
        label: Option<&str>,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> Result<(), sqlx::Error> {
        let (session_key, binding) = session;
        // (SQLite needs the SELECT's WHERE to tell the upsert's ON CONFLICT from a join's ON.)
        self.query_execute(
            TOUCH_SESSION,
            (
                identity_id,
                session_key,
                now_ms,
                expires_at_ms,
                label,
                binding,
            ),
        )
        .await?;
        self.query_execute(CAP_SESSIONS, (identity_id, MAX_SESSIONS_PER_USER))
            .await?;
        Ok(())
    }

    /// Ends the user's session `session_key` (logout); true when there was one.
    #[tracing::instrument(skip(self, session_key))]
    pub async fn end_session(
        &self,
        identity_id: &str,
        session_key: &str,
    ) -> Result<bool, sqlx::Error> {
        let done = self
            .query_execute(END_SESSION, (session_key, identity_id))
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Deletes every session that expired at or before `now_ms`, of every user, and every
    /// revoked binding and not-before time that no longer refuses a valid token, in batches
    /// (`prune.rs`); how many sessions went.
    #[tracing::instrument(skip(self))]
    pub async fn prune_expired_sessions(&self, now_ms: i64) -> Result<u64, sqlx::Error> {
        let sessions = self.delete_in_batches(&PRUNE_SESSIONS, now_ms, 0).await?;
        self.delete_in_batches(&PRUNE_REVOKED_TOKENS, now_ms, 0)
            .await?;
        self.delete_in_batches(&PRUNE_TOKEN_CUTOFFS, now_ms, 0)
            .await?;
        Ok(sessions.rows)
    }

    /// The user's unexpired sessions at `now_ms`, the most recently used first (at most
    /// `MAX_SESSIONS_PER_USER`, the cap `touch_session` keeps).
    #[tracing::instrument(skip(self))]
    pub async fn list_sessions(
        &self,
        identity_id: &str,
        now_ms: i64,
    ) -> Result<Vec<SessionRow>, sqlx::Error> {
        self.query_all(LIST_SESSIONS, (identity_id, now_ms, MAX_SESSIONS_PER_USER))
            .await
    }

    /// Signs out the user's live session `session_key`: revokes its bindings (its tokens, or its
    /// sign-in's; never `keep`, the caller's), each kept until the session would have expired and
    /// at least [`REVOKED_KEPT_MS`], which ends it and every other session of the user holding one
    /// of them (the `revoked_tokens` trigger). `user` is the identity id and its key
    /// (`identity::user_key`). One statement, committed before it returns. When the user has no
    /// such live session (another user's session is never touched), or it is the caller's own
    /// sign-in under another id (its binding is `keep`), nothing changes.
    #[tracing::instrument(skip_all)]
    pub async fn revoke_session(
        &self,
        user: (&str, &str),
        session_key: &str,
        keep: &str,
        now_ms: i64,
    ) -> Result<Revocation, sqlx::Error> {
        let (identity_id, user_key) = user;
        let binding: Option<Option<String>> = sqlx::query_scalar(SESSION_BINDING)
            .bind(identity_id)
            .bind(session_key)
            .bind(now_ms)
            .fetch_optional(self.pool())
            .await?;
        match binding {
            None => return Ok(Revocation::NoSuchSession),
            Some(Some(binding)) if binding == keep => return Ok(Revocation::Yours),
            Some(_) => {}
        }
        // (SQLite needs the SELECT's WHERE to tell the upsert's ON CONFLICT from a join's ON.)
        let done = self
            .query_execute(
                REVOKE_SESSION,
                (
                    identity_id,
                    session_key,
                    user_key,
                    now_ms,
                    now_ms.saturating_add(REVOKED_KEPT_MS),
                    keep,
                ),
            )
            .await?;
        Ok(if done.rows_affected() > 0 {
            Revocation::Done
        } else {
            // Ended meanwhile by another sign-out.
            Revocation::NoSuchSession
        })
    }

    /// Signs out every session of the user but the caller's (`keep`: its session key and its
    /// token's binding): every token of the user issued before `now_ms` is refused from then on but
    /// the caller's (the user's not-before time), and the other sessions' bindings are revoked (a
    /// sign-in's later tokens are refused too), which ends them. One statement (its trigger does
    /// the rest), committed before it returns. How many live sessions there were to sign out.
    #[tracing::instrument(skip_all)]
    pub async fn revoke_other_sessions(
        &self,
        user: (&str, &str),
        keep: (&str, &str),
        now_ms: i64,
    ) -> Result<u64, sqlx::Error> {
        let (keep_key, keep_binding) = keep;
        let others: i64 = sqlx::query_scalar(COUNT_OTHER_SESSIONS)
            .bind(user.0)
            .bind(keep_key)
            .bind(now_ms)
            .bind(keep_binding)
            .fetch_one(self.pool())
            .await?;
        self.cut_off(user, Some(keep_binding), false, now_ms)
            .await?;
        Ok(u64::try_from(others).unwrap_or(0))
    }

    /// How many of the user's sessions have not expired at `now_ms`.
    #[tracing::instrument(skip(self))]
    pub async fn count_active_sessions(
        &self,
        identity_id: &str,
        now_ms: i64,
    ) -> Result<i64, sqlx::Error> {
        sqlx::query_scalar::<_, i64>(COUNT_ACTIVE_SESSIONS)
            .bind(identity_id)
            .bind(now_ms)
            .fetch_one(self.pool())
            .await
    }
}

#[cfg(test)]
mod tests {
    use crate::db::Database;

    use super::MAX_SESSIONS_PER_USER;

    use crate::db::testing::{test_database_of as database, test_touch as touch};

    async fn rows(db: &Database) -> i64 {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM sessions")
            .fetch_one(db.pool())
            .await
            .expect("count")
    }

    #[tokio::test]
    async fn a_session_used_again_is_one_row_whose_expiry_moves_forward() {
        let (_dir, db) = database(&["u"]).await;
        touch(&db, "u", "k", 10_000, 1_000).await;
        touch(&db, "u", "k", 20_000, 2_000).await;
        assert_eq!(rows(&db).await, 1);
        assert_eq!(
            db.count_active_sessions("u", 15_000).await.expect("count"),
            1
        );
        assert_eq!(
            db.count_active_sessions("u", 20_000).await.expect("count"),
            0
        );
    }

    #[tokio::test]
    async fn a_user_keeps_at_most_the_cap_and_the_least_recently_used_go_first() {
        let (_dir, db) = database(&["u"]).await;
        for i in 0..(MAX_SESSIONS_PER_USER + 5) {
            touch(&db, "u", &format!("k{i}"), 1_000_000, i).await;
        }
        assert_eq!(rows(&db).await, MAX_SESSIONS_PER_USER);
        let oldest: Option<String> = sqlx::query_scalar::<_, String>(
            "SELECT session_key FROM sessions WHERE session_key = 'k0'",
        )
        .fetch_optional(db.pool())
        .await
        .expect("read");
        assert_eq!(oldest, None, "the least recently used went first");
    }

    #[tokio::test]
    async fn pruning_deletes_only_expired_rows_of_every_user() {
        let (_dir, db) = database(&["a", "b"]).await;
        for user in ["a", "b"] {
            touch(&db, user, "old", 5_000, 0).await;
            touch(&db, user, "live", 50_000, 0).await;
        }
        assert_eq!(db.prune_expired_sessions(10_000).await.expect("prune"), 2);
        assert_eq!(rows(&db).await, 2);
    }

    #[tokio::test]
    async fn ending_a_session_removes_only_that_users_row() {
        let (_dir, db) = database(&["a", "b"]).await;
        for user in ["a", "b"] {
            touch(&db, user, "same", 50_000, 0).await;
        }
        assert!(db.end_session("a", "same").await.expect("end"));
        assert!(!db.end_session("a", "same").await.expect("end again"));
        assert_eq!(db.count_active_sessions("b", 0).await.expect("count"), 1);
    }
}

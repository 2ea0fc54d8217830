//! Queries on `sessions`: one row per signed-in browser or device, kept alive by use, ended by
//! logout or by another session's sign-out (revocation), capped per user and pruned once expired.

use sqlx::FromRow;

use super::Database;

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
}

/// Whether `session_key` is revoked at `now_ms`: the query both readers run.
const IS_REVOKED: &str =
    "SELECT COUNT(*) FROM revoked_sessions WHERE session_key = $1 AND expires_at > $2";

/// The most sessions one user keeps; a new one beyond this pushes out the least recently used.
/// A person rarely has more than a handful of browsers; a client inventing session ids cannot grow
/// the table past this many rows per account.
pub const MAX_SESSIONS_PER_USER: i64 = 20;

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
        self.touch_labelled_session(identity_id, session_key, None, expires_at_ms, now_ms)
            .await
    }

    /// [`Database::touch_session`], with the label a new session is recorded with (an existing
    /// session keeps the one it was created with). A revoked session is not recorded again.
    #[tracing::instrument(skip(self, session_key))]
    pub async fn touch_labelled_session(
        &self,
        identity_id: &str,
        session_key: &str,
        label: Option<&str>,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> Result<(), sqlx::Error> {
        // (SQLite needs the SELECT's WHERE to tell the upsert's ON CONFLICT from a join's ON.)
        sqlx::query(
            "INSERT INTO sessions (user_id, session_key, created_at, last_seen_at, expires_at, \
                 label) \
             SELECT id, $2, $3, $3, $4, $5 FROM users WHERE identity_id = $1 \
                 AND NOT EXISTS (SELECT 1 FROM revoked_sessions r WHERE r.session_key = $2) \
             ON CONFLICT (user_id, session_key) DO UPDATE \
             SET last_seen_at = $3, expires_at = $4",
        )
        .bind(identity_id)
        .bind(session_key)
        .bind(now_ms)
        .bind(expires_at_ms)
        .bind(label)
        .execute(self.pool())
        .await?;
        sqlx::query(
            "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE identity_id = $1) \
             AND session_key NOT IN (SELECT s.session_key FROM sessions s \
                 WHERE s.user_id = (SELECT id FROM users WHERE identity_id = $1) \
                 ORDER BY s.last_seen_at DESC, s.created_at DESC LIMIT $2)",
        )
        .bind(identity_id)
        .bind(MAX_SESSIONS_PER_USER)
        .execute(self.pool())
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
        let done = sqlx::query(
            "DELETE FROM sessions WHERE session_key = $1 \
             AND user_id = (SELECT id FROM users WHERE identity_id = $2)",
        )
        .bind(session_key)
        .bind(identity_id)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Deletes every session that expired at or before `now_ms`, of every user, and every
    /// revocation whose session would have expired by then; how many sessions went.
    #[tracing::instrument(skip(self))]
    pub async fn prune_expired_sessions(&self, now_ms: i64) -> Result<u64, sqlx::Error> {
        let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now_ms)
            .execute(self.pool())
            .await?;
        sqlx::query("DELETE FROM revoked_sessions WHERE expires_at <= $1")
            .bind(now_ms)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected())
    }

    /// The user's unexpired sessions at `now_ms`, the most recently used first (at most
    /// `MAX_SESSIONS_PER_USER`, the cap `touch_session` keeps).
    #[tracing::instrument(skip(self))]
    pub async fn list_sessions(
        &self,
        identity_id: &str,
        now_ms: i64,
    ) -> Result<Vec<SessionRow>, sqlx::Error> {
        sqlx::query_as::<_, SessionRow>(
            "SELECT s.session_key, s.label, s.created_at, s.last_seen_at, s.expires_at \
             FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE u.identity_id = $1 AND s.expires_at > $2 \
             ORDER BY s.last_seen_at DESC, s.created_at DESC LIMIT $3",
        )
        .bind(identity_id)
        .bind(now_ms)
        .bind(MAX_SESSIONS_PER_USER)
        .fetch_all(self.pool())
        .await
    }

    /// Signs out the user's unexpired sessions whose keys `chosen` picks: each is recorded as
    /// revoked until it would have expired, which ends it (the `revoked_sessions` trigger), in one
    /// statement committed before it returns. How many were signed out; 0 when none of them is the
    /// user's (another user's session is never touched).
    async fn revoke_where(
        &self,
        identity_id: &str,
        chosen: &str,
        key: &str,
        now_ms: i64,
    ) -> Result<u64, sqlx::Error> {
        let done = sqlx::query(&format!(
            "INSERT INTO revoked_sessions (session_key, expires_at) \
             SELECT s.session_key, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE u.identity_id = $1 AND s.expires_at > $3 AND {chosen} \
             ON CONFLICT (session_key) DO NOTHING"
        ))
        .bind(identity_id)
        .bind(key)
        .bind(now_ms)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected())
    }

    /// Signs out the user's session `session_key`; false when the user has no such live session.
    #[tracing::instrument(skip(self, session_key))]
    pub async fn revoke_session(
        &self,
        identity_id: &str,
        session_key: &str,
        now_ms: i64,
    ) -> Result<bool, sqlx::Error> {
        let revoked = self
            .revoke_where(identity_id, "s.session_key = $2", session_key, now_ms)
            .await?;
        Ok(revoked > 0)
    }

    /// Signs out every live session of the user but `keep` (the caller's own); how many.
    #[tracing::instrument(skip(self, keep))]
    pub async fn revoke_other_sessions(
        &self,
        identity_id: &str,
        keep: &str,
        now_ms: i64,
    ) -> Result<u64, sqlx::Error> {
        self.revoke_where(identity_id, "s.session_key <> $2", keep, now_ms)
            .await
    }

    /// Whether the session `session_key` was signed out from elsewhere (and would not have expired
    /// yet at `now_ms`). Every signed-in request asks, on every instance.
    #[tracing::instrument(skip(self, session_key))]
    pub async fn is_session_revoked(
        &self,
        session_key: &str,
        now_ms: i64,
    ) -> Result<bool, sqlx::Error> {
        if let Some(reader) = self.sqlite_reader() {
            let read = reader.with_connection(|connection| {
                connection.prepare_cached(IS_REVOKED)?.query_row(
                    rusqlite::named_params! {"$1": session_key, "$2": now_ms},
                    |row| row.get::<_, i64>(0),
                )
            });
            match read {
                Ok(found) => return Ok(found > 0),
                Err(error) => {
                    tracing::debug!(%error, "SQLite reader failed; reading through the pool")
                }
            }
        }
        let found: i64 = sqlx::query_scalar(IS_REVOKED)
            .bind(session_key)
            .bind(now_ms)
            .fetch_one(self.pool())
            .await?;
        Ok(found > 0)
    }

    /// How many of the user's sessions have not expired at `now_ms`.
    #[tracing::instrument(skip(self))]
    pub async fn count_active_sessions(
        &self,
        identity_id: &str,
        now_ms: i64,
    ) -> Result<i64, sqlx::Error> {
        sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE u.identity_id = $1 AND s.expires_at > $2",
        )
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

    use crate::db::{test_database as database, test_touch as touch};

    async fn rows(db: &Database) -> i64 {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM sessions")
            .fetch_one(db.pool())
            .await
            .expect("count")
    }

    #[tokio::test]
    async fn a_session_used_again_is_one_row_whose_expiry_moves_forward() {
        let (_dir, db) = database().await;
        db.find_or_create_user("u", None, 0).await.expect("user");
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
        let (_dir, db) = database().await;
        db.find_or_create_user("u", None, 0).await.expect("user");
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
        let (_dir, db) = database().await;
        for user in ["a", "b"] {
            db.find_or_create_user(user, None, 0).await.expect("user");
            touch(&db, user, "old", 5_000, 0).await;
            touch(&db, user, "live", 50_000, 0).await;
        }
        assert_eq!(db.prune_expired_sessions(10_000).await.expect("prune"), 2);
        assert_eq!(rows(&db).await, 2);
    }

    #[tokio::test]
    async fn a_revoked_session_stays_revoked_until_it_would_have_expired() {
        let (_dir, db) = database().await;
        for user in ["a", "b"] {
            db.find_or_create_user(user, None, 0).await.expect("user");
        }
        db.touch_labelled_session("a", "phone", Some("Safari on iPhone"), 50_000, 0)
            .await
            .expect("touch");
        touch(&db, "a", "laptop", 60_000, 0).await;
        assert!(!db
            .revoke_session("b", "phone", 1_000)
            .await
            .expect("other user"));
        assert!(db
            .revoke_session("a", "phone", 1_000)
            .await
            .expect("revoke"));
        assert!(!db.revoke_session("a", "phone", 1_000).await.expect("again"));
        assert!(db.is_session_revoked("phone", 1_000).await.expect("read"));
        // Used again (the same id re-sent): not recorded, still revoked.
        touch(&db, "a", "phone", 90_000, 2_000).await;
        let listed = db.list_sessions("a", 2_000).await.expect("list");
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].session_key, "laptop");
        // Kept until the session would have expired, then pruned.
        assert_eq!(db.prune_expired_sessions(49_999).await.expect("prune"), 0);
        assert!(db.is_session_revoked("phone", 49_999).await.expect("read"));
        db.prune_expired_sessions(50_000).await.expect("prune");
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM revoked_sessions")
            .fetch_one(db.pool())
            .await
            .expect("count");
        assert_eq!(left, 0);
        assert!(!db.is_session_revoked("phone", 50_000).await.expect("read"));
    }

    #[tokio::test]
    async fn a_label_is_the_first_one_and_revoking_the_others_keeps_the_callers() {
        let (_dir, db) = database().await;
        db.find_or_create_user("a", None, 0).await.expect("user");
        for (key, label) in [
            ("one", "Firefox on Linux"),
            ("two", "Chrome"),
            ("three", "curl"),
        ] {
            db.touch_labelled_session("a", key, Some(label), 50_000, 0)
                .await
                .expect("touch");
        }
        db.touch_labelled_session("a", "one", Some("Edge on Windows"), 50_000, 10)
            .await
            .expect("touch");
        assert_eq!(
            db.revoke_other_sessions("a", "one", 20).await.expect("n"),
            2
        );
        let listed = db.list_sessions("a", 20).await.expect("list");
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].label.as_deref(), Some("Firefox on Linux"));
        assert_eq!(listed[0].last_seen_at, 10);
    }

    #[tokio::test]
    async fn ending_a_session_removes_only_that_users_row() {
        let (_dir, db) = database().await;
        for user in ["a", "b"] {
            db.find_or_create_user(user, None, 0).await.expect("user");
            touch(&db, user, "same", 50_000, 0).await;
        }
        assert!(db.end_session("a", "same").await.expect("end"));
        assert!(!db.end_session("a", "same").await.expect("end again"));
        assert_eq!(db.count_active_sessions("b", 0).await.expect("count"), 1);
    }
}

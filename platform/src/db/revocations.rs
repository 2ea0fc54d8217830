//! Signed-out tokens: `revoked_tokens` (bindings of sessions signed out, `identity::binding_of`)
//! and `token_cutoffs` (per user, a not-before time for tokens' `iat`, with the one binding that
//! survives it). Every authenticated request asks [`Database::token_refused`]; the account page's
//! sign-outs and the account's deletion write them (`sessions.rs`, `account.rs`).
//!
//! Bounds: one cutoff row per user; at most [`MAX_REVOKED_PER_USER`] revoked bindings per user,
//! beyond which the oldest are folded into the user's cutoff (nothing is forgotten early: a folded
//! binding's tokens were all issued before its revocation, so the cutoff refuses them). Every row
//! goes once no token it refuses can still be valid (`prune_expired_sessions`).

use super::{prune::PerEngine, Database};

/// Whether a token is refused at `$4` (unix ms): its binding `$1` revoked, or issued (`$3`, unix
/// ms) before the not-before time of its user `$2` without being the exempt binding.
pub const IS_REFUSED: &str = "SELECT \
     (SELECT COUNT(*) FROM revoked_tokens WHERE binding = $1 AND expires_at > $4) \
     + (SELECT COUNT(*) FROM token_cutoffs WHERE user_key = $2 AND not_before > $3 \
        AND expires_at > $4 AND (exempt_binding IS NULL OR exempt_binding <> $1))";

/// A batch of the revoked bindings that refuse no valid token at the cutoff (`prune.rs`).
pub const PRUNE_REVOKED_TOKENS: PerEngine =
    crate::prune_batch!("revoked_tokens", "expires_at <= $1");

/// A batch of the not-before times that refuse no valid token at the cutoff.
pub const PRUNE_TOKEN_CUTOFFS: PerEngine = crate::prune_batch!("token_cutoffs", "expires_at <= $1");

/// The most revoked bindings kept per user (20 sessions of two bindings each fit, with room).
pub const MAX_REVOKED_PER_USER: i64 = 64;

/// How long a user's not-before time is kept: the longest a session token may live, 400 days (the
/// verifier refuses any `exp` further ahead: `identity::verify::MAX_LIFETIME_SECONDS`), and its
/// 5 s leeway, so every token issued before it has expired by then. (A test in `identity` checks
/// the two agree.)
pub const CUTOFF_KEPT_MS: i64 = (400 * 24 * 3600 + 5) * 1000;

/// How long a revoked binding is kept at least: the refresh token's lifetime (30 days, the
/// emulator's and the hosted provider's default), so a sign-in's binding outlives every token its
/// refresh token can still mint.
pub const REVOKED_KEPT_MS: i64 = 30 * 24 * 60 * 60 * 1000;

impl Database {
    /// Whether a token of binding `binding`, of the user `user_key`, issued at `issued_at_ms`, is
    /// refused at `now_ms`: signed out from another session, by "sign out all other sessions" or
    /// by the account's deletion. Every authenticated request asks, on every instance.
    #[tracing::instrument(skip_all)]
    pub async fn token_refused(
        &self,
        binding: &str,
        user_key: &str,
        issued_at_ms: i64,
        now_ms: i64,
    ) -> Result<bool, sqlx::Error> {
        if let Some(reader) = self.sqlite_reader() {
            let read = reader.with_connection(|connection| {
                connection.prepare_cached(IS_REFUSED)?.query_row(
                    rusqlite::named_params! {
                        "$1": binding, "$2": user_key, "$3": issued_at_ms, "$4": now_ms,
                    },
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
        let found: i64 = sqlx::query_scalar(IS_REFUSED)
            .bind(binding)
            .bind(user_key)
            .bind(issued_at_ms)
            .bind(now_ms)
            .fetch_one(self.pool())
            .await?;
        Ok(found > 0)
    }

    /// Keeps at most [`MAX_REVOKED_PER_USER`] revoked bindings of `user_key`: the oldest beyond
    /// that are folded into the user's not-before time (raised to just after the newest of them,
    /// `keep` exempt: every other token of the user issued before then is refused, so sessions
    /// signed in before it are signed out too), then deleted. Two statements, in that order, so a failure between them
    /// leaves only a row too many, never a token let through.
    #[tracing::instrument(skip_all)]
    pub async fn bound_revocations(
        &self,
        user_key: &str,
        keep: &str,
        now_ms: i64,
    ) -> Result<(), sqlx::Error> {
        let count: i64 = sqlx::query_scalar(COUNT_REVOKED)
            .bind(user_key)
            .fetch_one(self.pool())
            .await?;
        if count <= MAX_REVOKED_PER_USER {
            return Ok(());
        }
        let folded_until: i64 = sqlx::query_scalar(FOLDED_UNTIL)
            .bind(user_key)
            .bind(count - MAX_REVOKED_PER_USER - 1)
            .fetch_one(self.pool())
            .await?;
        self.query_execute(
            FOLD_INTO_CUTOFF,
            (
                user_key,
                folded_until.saturating_add(1),
                keep,
                now_ms.saturating_add(CUTOFF_KEPT_MS),
            ),
        )
        .await?;
        self.query_execute(DELETE_FOLDED, (user_key, folded_until))
            .await?;
        Ok(())
    }
}

/// Writes the not-before time of user `$1`: raised to `$2` (never lowered), `$3` then exempt
/// (null: none), kept until at least `$4`; `$source` gives the row (`VALUES (...)` or a `SELECT`
/// with a `WHERE`), its last two columns the `users` row whose other sessions the trigger signs
/// out (null: none) and whether it deletes that user (the migration's triggers).
macro_rules! write_cutoff {
    ($source:literal) => {
        concat!(
            "INSERT INTO token_cutoffs (user_key, not_before, exempt_binding, expires_at, \
                 user_id, deletes_user) ",
            $source,
            " ON CONFLICT (user_key) DO UPDATE SET \
             exempt_binding = excluded.exempt_binding, \
             not_before = CASE WHEN token_cutoffs.not_before < excluded.not_before \
                 THEN excluded.not_before ELSE token_cutoffs.not_before END, \
             expires_at = CASE WHEN token_cutoffs.expires_at < excluded.expires_at \
                 THEN excluded.expires_at ELSE token_cutoffs.expires_at END, \
             user_id = excluded.user_id, deletes_user = excluded.deletes_user"
        )
    };
}

/// How many revoked bindings user key `$1` has.
pub const COUNT_REVOKED: &str = "SELECT COUNT(*) FROM revoked_tokens WHERE user_key = $1";

/// When the `$2`-th oldest (from 0) revoked binding of user key `$1` was revoked.
pub const FOLDED_UNTIL: &str = "SELECT revoked_at FROM revoked_tokens WHERE user_key = $1 \
     ORDER BY revoked_at ASC, binding ASC LIMIT 1 OFFSET $2";

/// Raises user key `$1`'s not-before time over the bindings folded into it (`write_cutoff!`).
pub const FOLD_INTO_CUTOFF: &str = write_cutoff!("VALUES ($1, $2, $3, $4, NULL, 0)");

/// Deletes user key `$1`'s revoked bindings revoked at or before `$2` (folded into the cutoff).
pub const DELETE_FOLDED: &str =
    "DELETE FROM revoked_tokens WHERE user_key = $1 AND revoked_at <= $2";

/// Signs out every session of user `$5` (identity id) but binding `$3` (`write_cutoff!`).
pub const CUT_OFF_OTHERS: &str =
    write_cutoff!("VALUES ($1, $2, $3, $4, (SELECT id FROM users WHERE identity_id = $5), 0)");

/// Deletes user `$5` (identity id) and signs out all their sessions (`write_cutoff!`).
pub const CUT_OFF_ACCOUNT: &str =
    write_cutoff!("SELECT $1, $2, $3, $4, id, 1 FROM users WHERE identity_id = $5");

/// Logout: revokes the caller's own binding `$1` of user key `$2` at `$3`, kept until `$4`; its
/// trigger ends every session holding it (the caller's, and its sign-in under any other session id).
pub const REVOKE_OWN_BINDING: &str = "INSERT INTO revoked_tokens (binding, user_key, revoked_at, \
     expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (binding) DO NOTHING";

impl Database {
    /// Signs out every session of the user `identity_id` but the one of binding `keep`: raises the
    /// user's not-before time to `now_ms` with `keep` exempt, and (the trigger) revokes the other
    /// sessions' bindings, which ends them; or, with `delete`, nothing exempt, and deletes the user
    /// (the cascade deleting the sessions). One statement, committed before it returns. Whether it
    /// wrote anything: a deletion writes only when there is such a user.
    pub(super) async fn cut_off(
        &self,
        (identity_id, user_key): (&str, &str),
        keep: Option<&str>,
        delete: bool,
        now_ms: i64,
    ) -> Result<bool, sqlx::Error> {
        let query = if delete {
            sqlx::query(CUT_OFF_ACCOUNT)
        } else {
            sqlx::query(CUT_OFF_OTHERS)
        };
        let done = query
            .bind(user_key)
            .bind(now_ms)
            .bind(keep)
            .bind(now_ms.saturating_add(CUTOFF_KEPT_MS))
            .bind(identity_id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Logout: revokes the caller's own `binding` (of the user `user_key`) at `now_ms`, kept
    /// [`REVOKED_KEPT_MS`] (a sign-in's binding outlives every token its refresh token can mint),
    /// which ends every session holding it. One statement, committed before it returns. True when
    /// it was not revoked already.
    pub async fn revoke_own_binding(
        &self,
        binding: &str,
        user_key: &str,
        now_ms: i64,
    ) -> Result<bool, sqlx::Error> {
        let done = self
            .query_execute(
                REVOKE_OWN_BINDING,
                (
                    binding,
                    user_key,
                    now_ms,
                    now_ms.saturating_add(REVOKED_KEPT_MS),
                ),
            )
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_REVOKED_PER_USER, REVOKED_KEPT_MS};
    use crate::db::sessions::Revocation;
    use crate::db::testing::{test_database_of as database, test_touch as touch};
    use crate::identity::user_key;

    #[tokio::test]
    async fn a_revoked_sessions_binding_stays_refused_for_as_long_as_a_token_can_use_it() {
        let (_dir, db) = database(&["a", "b"]).await;
        let (a, b) = (("a", &*user_key("a")), ("b", &*user_key("b")));
        db.touch_labelled_session("a", ("phone", "phone"), Some("Safari on iPhone"), 50_000, 0)
            .await
            .expect("touch");
        touch(&db, "a", "laptop", 60_000, 0).await;
        // The phone's session revoked at 1 s by `user` from the session `keep`.
        let revoke = |user, keep| {
            let db = &db;
            async move {
                db.revoke_session(user, "phone", keep, 1_000)
                    .await
                    .expect("revoke")
            }
        };
        // Whether a's token of `binding`, issued at 0, is refused at `at`.
        let refused = |binding: &'static str, at: i64| {
            let db = &db;
            async move { db.token_refused(binding, a.1, 0, at).await.expect("read") }
        };
        let by_another_user = revoke(b, "laptop").await;
        assert_eq!(by_another_user, Revocation::NoSuchSession);
        assert!(!refused("phone", 1_000).await);
        let from_itself = revoke(a, "phone").await;
        assert_eq!(from_itself, Revocation::Yours);
        assert!(!refused("phone", 1_000).await);
        assert_eq!(revoke(a, "laptop").await, Revocation::Done);
        let again = revoke(a, "laptop").await;
        assert_eq!(again, Revocation::NoSuchSession);
        assert!(refused("phone", 1_000).await);
        assert!(!refused("laptop", 1_000).await);
        // Recorded again (the same binding under the same id): nothing is written.
        touch(&db, "a", "phone", 90_000, 2_000).await;
        let listed = db.list_sessions("a", 2_000).await.expect("list");
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].session_key, "laptop");
        // Kept for as long as the sign-in's refresh token could mint tokens, then pruned.
        let until = 1_000 + REVOKED_KEPT_MS;
        db.prune_expired_sessions(until - 1).await.expect("prune");
        assert!(refused("phone", until - 1).await);
        db.prune_expired_sessions(until).await.expect("prune");
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM revoked_tokens")
            .fetch_one(db.pool())
            .await
            .expect("count");
        assert_eq!(left, 0);
    }

    #[tokio::test]
    async fn a_label_is_the_first_one_and_revoking_the_others_keeps_the_callers() {
        let (_dir, db) = database(&["a"]).await;
        let key = user_key("a");
        for (session, label) in [
            ("one", "Firefox on Linux"),
            ("two", "Chrome"),
            ("three", "curl"),
        ] {
            db.touch_labelled_session("a", (session, session), Some(label), 50_000, 0)
                .await
                .expect("touch");
        }
        db.touch_labelled_session("a", ("one", "one"), Some("Edge on Windows"), 50_000, 10)
            .await
            .expect("touch");
        assert_eq!(
            db.revoke_other_sessions(("a", &key), ("one", "one"), 20_000)
                .await
                .expect("n"),
            2
        );
        let listed = db.list_sessions("a", 20_000).await.expect("list");
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].label.as_deref(), Some("Firefox on Linux"));
        assert_eq!(listed[0].last_seen_at, 10);
        let refused = |binding: &'static str, iat: i64| {
            let (db, key) = (&db, &key);
            async move {
                db.token_refused(binding, key, iat, 20_000)
                    .await
                    .expect("read")
            }
        };
        assert!(refused("two", 20_000).await, "revoked, whenever issued");
        assert!(refused("unseen", 19_000).await, "issued before");
        assert!(!refused("one", 0).await, "the caller's");
        assert!(!refused("unseen", 20_000).await, "issued after");
    }

    #[tokio::test]
    async fn revoked_bindings_are_bounded_per_user_and_folded_into_the_not_before_time() {
        let (_dir, db) = database(&["a"]).await;
        let key = user_key("a");
        touch(&db, "a", "laptop", i64::MAX / 2, 0).await;
        for n in 0..MAX_REVOKED_PER_USER + 6 {
            let at = 1_000 * (n + 1);
            let session = format!("s{n}");
            touch(&db, "a", &session, i64::MAX / 2, at).await;
            db.revoke_session(("a", &key), &session, "laptop", at)
                .await
                .expect("revoke");
            db.bound_revocations(&key, "laptop", at)
                .await
                .expect("bound");
        }
        let kept: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM revoked_tokens")
            .fetch_one(db.pool())
            .await
            .expect("count");
        assert_eq!(kept, MAX_REVOKED_PER_USER);
        let now = 1_000 * (MAX_REVOKED_PER_USER + 7);
        for n in 0..MAX_REVOKED_PER_USER + 6 {
            // Every folded token was issued before its revocation.
            let binding = format!("s{n}");
            let issued = 1_000 * (n + 1) - 1;
            assert!(db
                .token_refused(&binding, &key, issued, now)
                .await
                .expect("read"));
        }
        assert!(!db
            .token_refused("laptop", &key, 0, now)
            .await
            .expect("read"));
    }
}

//! Signed-out tokens: `revoked_tokens` (bindings of sessions signed out, `identity::binding_of`)
//! and `token_cutoffs` (per user, a not-before time for tokens' `iat`, with the one binding that
//! survives it). Every authenticated request asks [`Database::token_refused`]; the account page's
//! sign-outs and the account's deletion write them (`sessions.rs`, `account.rs`).
//!
//! Bounds: one cutoff row per user; at most [`MAX_REVOKED_PER_USER`] revoked bindings per user,
//! beyond which the oldest are folded into the user's cutoff (nothing is forgotten early: a folded
//! binding's tokens were all issued before its revocation, so the cutoff refuses them). Every row
//! goes once no token it refuses can still be valid (`prune_expired_sessions`).

use sqlx::{Any, Transaction};

use super::Database;

/// Whether a token is refused at `$4` (unix ms): its binding `$1` revoked, or issued (`$3`, unix
/// ms) before the not-before time of its user `$2` without being the exempt binding.
const IS_REFUSED: &str = "SELECT \
     (SELECT COUNT(*) FROM revoked_tokens WHERE binding = $1 AND expires_at > $4) \
     + (SELECT COUNT(*) FROM token_cutoffs WHERE user_key = $2 AND not_before > $3 \
        AND expires_at > $4 AND (exempt_binding IS NULL OR exempt_binding <> $1))";

/// The most revoked bindings kept per user (20 sessions of two bindings each fit, with room).
pub const MAX_REVOKED_PER_USER: i64 = 64;

/// How long a user's not-before time is kept: the longest a session token may live (the
/// verifier refuses any `exp` further ahead), so every token issued before it has expired by then.
pub const CUTOFF_KEPT_MS: i64 = crate::identity::verify::MAX_LIFETIME_SECONDS as i64 * 1000
    + crate::identity::verify::LEEWAY_SECONDS as i64 * 1000;

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
    /// `keep` exempt), then deleted. Two statements, in that order, so a failure between them
    /// leaves only a row too many, never a token let through.
    #[tracing::instrument(skip_all)]
    pub async fn bound_revocations(
        &self,
        user_key: &str,
        keep: &str,
        now_ms: i64,
    ) -> Result<(), sqlx::Error> {
        let count: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM revoked_tokens WHERE user_key = $1")
                .bind(user_key)
                .fetch_one(self.pool())
                .await?;
        if count <= MAX_REVOKED_PER_USER {
            return Ok(());
        }
        let folded_until: i64 = sqlx::query_scalar(
            "SELECT revoked_at FROM revoked_tokens WHERE user_key = $1 \
             ORDER BY revoked_at ASC, binding ASC LIMIT 1 OFFSET $2",
        )
        .bind(user_key)
        .bind(count - MAX_REVOKED_PER_USER - 1)
        .fetch_one(self.pool())
        .await?;
        sqlx::query(RAISE_CUTOFF)
            .bind(user_key)
            .bind(folded_until.saturating_add(1))
            .bind(keep)
            .bind(now_ms.saturating_add(CUTOFF_KEPT_MS))
            .execute(self.pool())
            .await?;
        sqlx::query("DELETE FROM revoked_tokens WHERE user_key = $1 AND revoked_at <= $2")
            .bind(user_key)
            .bind(folded_until)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}

/// Raises the not-before time of user `$1` to `$2` (never lowers it), `$3` then exempt (null: none),
/// kept until at least `$4`.
const RAISE_CUTOFF: &str = "INSERT INTO token_cutoffs (user_key, not_before, exempt_binding, \
         expires_at) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (user_key) DO UPDATE SET \
     exempt_binding = CASE WHEN token_cutoffs.not_before < excluded.not_before \
         THEN excluded.exempt_binding ELSE token_cutoffs.exempt_binding END, \
     not_before = CASE WHEN token_cutoffs.not_before < excluded.not_before \
         THEN excluded.not_before ELSE token_cutoffs.not_before END, \
     expires_at = CASE WHEN token_cutoffs.expires_at < excluded.expires_at \
         THEN excluded.expires_at ELSE token_cutoffs.expires_at END";

/// In `tx`: raises the user's not-before time to `now_ms`, `exempt` surviving it.
pub(super) async fn raise_cutoff(
    tx: &mut Transaction<'_, Any>,
    user_key: &str,
    exempt: Option<&str>,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(RAISE_CUTOFF)
        .bind(user_key)
        .bind(now_ms)
        .bind(exempt)
        .bind(now_ms.saturating_add(CUTOFF_KEPT_MS))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// In `tx`: revokes both bindings of the user's sessions that `chosen` picks (a condition on
/// `s`, with `$1` the user's identity id and `$2` a key it may use), but never `keep`; each kept
/// until the session would have expired, and at least [`REVOKED_KEPT_MS`].
pub(super) async fn revoke_bindings(
    tx: &mut Transaction<'_, Any>,
    identity_id: &str,
    key: &str,
    chosen: &str,
    (user_key, keep): (&str, &str),
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    let at_least = now_ms.saturating_add(REVOKED_KEPT_MS);
    for column in ["binding", "previous_binding"] {
        // (SQLite needs the SELECT's WHERE to tell the upsert's ON CONFLICT from a join's ON.)
        sqlx::query(&format!(
            "INSERT INTO revoked_tokens (binding, user_key, revoked_at, expires_at) \
             SELECT s.{column}, $3, $4, \
                 CASE WHEN s.expires_at > $5 THEN s.expires_at ELSE $5 END \
             FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE u.identity_id = $1 AND {chosen} AND s.{column} IS NOT NULL \
                 AND s.{column} <> $6 \
             ON CONFLICT (binding) DO NOTHING"
        ))
        .bind(identity_id)
        .bind(key)
        .bind(user_key)
        .bind(now_ms)
        .bind(at_least)
        .bind(keep)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// In `tx`: deletes the user's sessions that hold a revoked binding (a session recorded again
/// under another id with the same token or sign-in goes with the one signed out).
pub(super) async fn end_revoked_sessions(
    tx: &mut Transaction<'_, Any>,
    identity_id: &str,
    user_key: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE identity_id = $1) \
         AND (binding IN (SELECT binding FROM revoked_tokens WHERE user_key = $2) \
             OR previous_binding IN (SELECT binding FROM revoked_tokens WHERE user_key = $2))",
    )
    .bind(identity_id)
    .bind(user_key)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

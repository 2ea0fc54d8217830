//! Queries on `users`: find-or-create on first sight, profile saves in one statement (sessions: `sessions.rs`).

use rusqlite::OptionalExtension;
use sqlx::FromRow;

use super::Database;
use crate::domain::DisplayName;

/// One row of `users`. Times are unix milliseconds.
#[derive(Debug, Clone, FromRow)]
pub struct UserRow {
    pub identity_id: String,
    pub email: Option<String>,
    pub name: Option<String>,
    pub login_provider: Option<String>,
    pub provider_profile: Option<String>,
    pub created_at: i64,
    pub updated_at: Option<i64>,
}

/// What an update changes; `None` leaves a column as it is.
#[derive(Debug, Clone, Default)]
pub struct ProfileChange {
    /// Validated (trimmed, not empty, not too long) before it gets here.
    pub name: Option<DisplayName>,
    pub login_provider: Option<String>,
    /// The provider profile, serialized JSON.
    pub provider_profile: Option<String>,
    /// The person's own edit (the dashboard), as opposed to the sign-in's sync of the provider's data:
    /// only such an edit that changes the name stamps `updated_at`.
    pub by_person: bool,
}

/// A user with the number of their unexpired sessions, read in one query (the hot path).
#[derive(Debug, Clone, FromRow)]
pub struct UserWithSessions {
    #[sqlx(flatten)]
    pub user: UserRow,
    pub active_sessions: i64,
}

/// User `$1` (identity id).
pub const FIND_USER: &str = "SELECT identity_id, email, name, login_provider, provider_profile, \
     created_at, updated_at FROM users WHERE identity_id = $1";

/// Creates user `$1` with email `$2` at `$3` unless there is one.
pub const CREATE_USER: &str = "INSERT INTO users (identity_id, email, created_at) \
     VALUES ($1, $2, $3) ON CONFLICT (identity_id) DO NOTHING";

/// Creates or updates user `$1` (`save_profile`) and reads it back with its live sessions at `$3`.
pub const SAVE_PROFILE: &str = "INSERT INTO users (identity_id, email, created_at, name, \
         login_provider, provider_profile, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) \
     ON CONFLICT (identity_id) DO UPDATE SET name = COALESCE($4, users.name), \
         login_provider = COALESCE($5, users.login_provider), \
         provider_profile = COALESCE($6, users.provider_profile), \
         updated_at = CASE WHEN $7 IS NOT NULL \
             AND (users.name IS NULL OR users.name <> $4) THEN $7 ELSE users.updated_at END \
     RETURNING identity_id, email, name, login_provider, provider_profile, created_at, \
         updated_at, (SELECT COUNT(*) FROM sessions s \
             WHERE s.user_id = users.id AND s.expires_at > $3) AS active_sessions";

/// The hot path's one read: the user and their unexpired-session count. The column order is the
/// one [`read_user_with_sessions`] reads.
pub const USER_WITH_SESSIONS: &str = "SELECT identity_id, email, name, login_provider, \
     provider_profile, created_at, updated_at, (SELECT COUNT(*) FROM sessions s \
     WHERE s.user_id = users.id AND s.expires_at > $2) AS active_sessions \
     FROM users WHERE identity_id = $1";

/// The same read as the pool's `find_user_with_sessions`, on one of the SQLite reader's connections.
pub(super) fn read_user_with_sessions(
    connection: &rusqlite::Connection,
    identity_id: &str,
    now_ms: i64,
) -> rusqlite::Result<Option<UserWithSessions>> {
    let mut statement = connection.prepare_cached(USER_WITH_SESSIONS)?;
    statement
        // By name: SQLite numbers `$N` parameters in order of first appearance, and `$2` comes
        // first in this statement.
        .query_row(
            rusqlite::named_params! {"$1": identity_id, "$2": now_ms},
            |row| {
                Ok(UserWithSessions {
                    user: UserRow {
                        identity_id: row.get(0)?,
                        email: row.get(1)?,
                        name: row.get(2)?,
                        login_provider: row.get(3)?,
                        provider_profile: row.get(4)?,
                        created_at: row.get(5)?,
                        updated_at: row.get(6)?,
                    },
                    active_sessions: row.get(7)?,
                })
            },
        )
        .optional()
}

impl Database {
    #[tracing::instrument(skip(self))]
    pub async fn find_user(&self, identity_id: &str) -> Result<Option<UserRow>, sqlx::Error> {
        self.query_optional(FIND_USER, (identity_id,)).await
    }

    /// The user and their unexpired-session count at `now_ms`, in one round trip.
    #[tracing::instrument(skip(self))]
    pub async fn find_user_with_sessions(
        &self,
        identity_id: &str,
        now_ms: i64,
    ) -> Result<Option<UserWithSessions>, sqlx::Error> {
        if let Some(reader) = self.sqlite_reader() {
            match reader.with_connection(|c| read_user_with_sessions(c, identity_id, now_ms)) {
                Ok(found) => return Ok(found),
                Err(error) => {
                    tracing::debug!(%error, "SQLite reader failed; reading through the pool")
                }
            }
        }
        self.query_optional(USER_WITH_SESSIONS, (identity_id, now_ms))
            .await
    }

    /// The user with this identity id, created now if this is the first time it is seen.
    /// Two first requests racing each other both succeed: the loser's insert does nothing.
    #[tracing::instrument(skip(self))]
    pub async fn find_or_create_user(
        &self,
        identity_id: &str,
        email: Option<&str>,
        now_ms: i64,
    ) -> Result<UserRow, sqlx::Error> {
        if let Some(user) = self.find_user(identity_id).await? {
            return Ok(user);
        }
        self.query_execute(CREATE_USER, (identity_id, email, now_ms))
            .await?;
        self.find_user(identity_id)
            .await?
            .ok_or(sqlx::Error::RowNotFound)
    }

    /// Saves `change` in one statement, committed before the row is returned
    /// ([`Database::commit_returning`]): creates the user if this is the first time it is seen, applies
    /// the change, and returns the row as stored with the number of unexpired sessions (at `now_ms`).
    /// Stamps `updated_at` only when the person changed their name (`by_person` and a name different
    /// from the stored one), so a sign-in's profile sync leaves it as it was and a new account reads
    /// 'Never updated'.
    #[tracing::instrument(skip(self, change))]
    pub async fn save_profile(
        &self,
        identity_id: &str,
        email: Option<&str>,
        change: &ProfileChange,
        now_ms: i64,
    ) -> Result<UserWithSessions, sqlx::Error> {
        let stamp = (change.by_person && change.name.is_some()).then_some(now_ms);
        let statement = sqlx::query_as::<_, UserWithSessions>(SAVE_PROFILE)
            .bind(identity_id)
            .bind(email)
            .bind(now_ms)
            .bind(change.name.as_ref().map(DisplayName::as_str))
            .bind(change.login_provider.as_deref())
            .bind(change.provider_profile.as_deref())
            .bind(stamp);
        self.commit_returning(statement).await
    }
}

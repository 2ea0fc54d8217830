//! Queries on `emulator_users`: the local identity emulator's accounts, one per provider and e-mail.

use sqlx::FromRow;

use mg_platform::db::Database;

/// One emulator account. `created_at` is unix milliseconds.
#[derive(Debug, Clone, FromRow, PartialEq, Eq)]
pub struct EmulatorUserRow {
    pub provider: String,
    pub email: String,
    pub user_id: String,
    pub name: String,
    pub username: String,
    pub created_at: i64,
}

const COLUMNS: &str = "provider, email, user_id, name, username, created_at";

/// The emulator's accounts in one database; borrowed from it for a call.
#[derive(Debug, Clone, Copy)]
pub struct EmulatorUsers<'a>(pub &'a Database);

impl EmulatorUsers<'_> {
    /// The account signed in with `provider` and `email`, if it was seen before.
    #[tracing::instrument(skip(self))]
    pub async fn find_emulator_user(
        &self,
        provider: &str,
        email: &str,
    ) -> Result<Option<EmulatorUserRow>, sqlx::Error> {
        sqlx::query_as::<_, EmulatorUserRow>(&format!(
            "SELECT {COLUMNS} FROM emulator_users WHERE provider = $1 AND email = $2"
        ))
        .bind(provider)
        .bind(email)
        .fetch_optional(self.0.pool())
        .await
    }

    /// The account with this user id (the tokens' `sub`).
    #[tracing::instrument(skip(self))]
    pub async fn find_emulator_user_by_id(
        &self,
        user_id: &str,
    ) -> Result<Option<EmulatorUserRow>, sqlx::Error> {
        sqlx::query_as::<_, EmulatorUserRow>(&format!(
            "SELECT {COLUMNS} FROM emulator_users WHERE user_id = $1"
        ))
        .bind(user_id)
        .fetch_optional(self.0.pool())
        .await
    }

    /// Stores `user` unless its provider and e-mail are already known; returns the stored account
    /// and whether it was created now. Two racing first sign-ins end with one account.
    #[tracing::instrument(skip(self, user), fields(provider = %user.provider))]
    pub async fn find_or_create_emulator_user(
        &self,
        user: &EmulatorUserRow,
    ) -> Result<(EmulatorUserRow, bool), sqlx::Error> {
        if let Some(found) = self.find_emulator_user(&user.provider, &user.email).await? {
            return Ok((found, false));
        }
        let inserted = sqlx::query(&format!(
            "INSERT INTO emulator_users ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (provider, email) DO NOTHING"
        ))
        .bind(&user.provider)
        .bind(&user.email)
        .bind(&user.user_id)
        .bind(&user.name)
        .bind(&user.username)
        .bind(user.created_at)
        .execute(self.0.pool())
        .await?
        .rows_affected();
        let stored = self
            .find_emulator_user(&user.provider, &user.email)
            .await?
            .ok_or(sqlx::Error::RowNotFound)?;
        Ok((stored, inserted == 1))
    }
}

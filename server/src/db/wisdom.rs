//! Queries on `wisdom`: one random quote.

use sqlx::FromRow;

use super::Database;

#[derive(Debug, Clone, FromRow, serde::Serialize)]
pub struct Wisdom {
    pub quote: String,
    pub orator: String,
}

impl Database {
    /// A random quote, or `None` if the table is empty.
    #[tracing::instrument(skip(self))]
    pub async fn random_wisdom(&self) -> Result<Option<Wisdom>, sqlx::Error> {
        sqlx::query_as::<_, Wisdom>("SELECT quote, orator FROM wisdom ORDER BY RANDOM() LIMIT 1")
            .fetch_optional(self.pool())
            .await
    }
}

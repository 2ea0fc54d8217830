//! Queries on `wisdom`: one random quote, and the seed both engines are filled from.

use sqlx::FromRow;

use super::Database;

/// The quotes `POST /api/wisdom` picks from: one file for SQLite and PostgreSQL alike, read at build time.
const SEED_QUOTES: &str = include_str!("../../seed/wisdom.json");

/// One quote and who said it.
#[derive(Debug, Clone, PartialEq, Eq, FromRow, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
pub struct Wisdom {
    // In alphabetical order, the order `POST /api/wisdom` has always sent them in.
    pub orator: String,
    pub quote: String,
}

/// The seed file's quotes.
pub fn seed_quotes() -> Result<Vec<Wisdom>, serde_json::Error> {
    serde_json::from_str(SEED_QUOTES)
}

impl Database {
    /// Adds the seed file's quotes that the table lacks (none after the first start, where one count
    /// is all it costs). Several instances may start at once: a quote already there is left alone.
    pub(super) async fn seed_wisdom(&self) -> anyhow::Result<()> {
        let quotes = seed_quotes()?;
        let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM wisdom")
            .fetch_one(self.pool())
            .await?;
        if usize::try_from(stored).unwrap_or(0) >= quotes.len() {
            return Ok(());
        }
        let mut tx = self.pool().begin().await?;
        for Wisdom { quote, orator } in quotes {
            sqlx::query(
                "INSERT INTO wisdom (quote, orator) VALUES ($1, $2) ON CONFLICT (quote) DO NOTHING",
            )
            .bind(quote)
            .bind(orator)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// A random quote, or `None` if the table is empty.
    #[tracing::instrument(skip(self))]
    pub async fn random_wisdom(&self) -> Result<Option<Wisdom>, sqlx::Error> {
        sqlx::query_as::<_, Wisdom>("SELECT quote, orator FROM wisdom ORDER BY RANDOM() LIMIT 1")
            .fetch_optional(self.pool())
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_file_holds_distinct_attributed_quotes() {
        let quotes = seed_quotes().expect("platform/seed/wisdom.json parses");
        assert!(quotes.len() >= 40, "{} quotes", quotes.len());
        let distinct: std::collections::HashSet<_> = quotes.iter().map(|w| &w.quote).collect();
        assert_eq!(distinct.len(), quotes.len(), "a quote is listed twice");
        for w in &quotes {
            assert!(
                !w.quote.trim().is_empty() && !w.orator.trim().is_empty(),
                "{w:?}"
            );
        }
    }
}

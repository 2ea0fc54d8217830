//! The component statuses operators set on a component by itself, without an incident,
//! `status_component_declarations`: one row per setting (a cleared one has no status), so every
//! setting is one autocommit `INSERT ... RETURNING` acknowledged after its commit and the table is
//! the log of who set what, when. A component's latest row is in force.

use sqlx::FromRow;

use mg_domain::component_status::ComponentStatus;
use mg_platform::time::DAY_MS;

use super::StatusStore;

/// Settings replaced by a later one are kept this long, for the operator log.
pub const DECLARATION_RETENTION_MS: i64 = 90 * DAY_MS;

/// One setting of a component's status.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct DeclarationRow {
    pub component: String,
    pub seq: i64,
    /// Statuspage's word; `None`: cleared (the checks' measure shows).
    pub status: Option<String>,
    pub created_at: i64,
    pub author: String,
}

impl DeclarationRow {
    /// The status it sets (a word this server does not know reads as none).
    pub fn declared(&self) -> Option<ComponentStatus> {
        self.status.as_deref().and_then(ComponentStatus::parse)
    }
}

/// The columns [`DeclarationRow`] reads.
macro_rules! columns {
    () => {
        "component, seq, status, created_at, author"
    };
}

/// `$1`'s next setting: status `$2` (NULL: cleared), at `$3`, by `$4` (`declare_component`).
pub const DECLARE_COMPONENT: &str = concat!(
    "INSERT INTO status_component_declarations (",
    columns!(),
    ") SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4 \
     FROM status_component_declarations WHERE component = $1 \
     ON CONFLICT (component, seq) DO NOTHING RETURNING seq"
);

/// The setting in force of each of the components `$1`, `$2`, `$3` (the checked ones,
/// `mg_domain::status::COMPONENTS`), each found by its key.
pub const DECLARATIONS_IN_FORCE: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM status_component_declarations d WHERE d.component IN ($1, $2, $3) \
       AND d.seq = (SELECT MAX(x.seq) FROM status_component_declarations x \
                    WHERE x.component = d.component) \
     ORDER BY d.component"
);

/// The latest `$1` settings, newest first.
pub const DECLARATION_LOG: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM status_component_declarations ORDER BY created_at DESC, component, seq DESC LIMIT $1"
);

/// Deletes the settings older than `$1` that a later one replaced.
pub const PRUNE_DECLARATIONS: &str =
    "DELETE FROM status_component_declarations WHERE created_at < $1 \
       AND seq < (SELECT MAX(x.seq) FROM status_component_declarations x \
                  WHERE x.component = status_component_declarations.component)";

impl StatusStore<'_> {
    /// Sets `component`'s own status (`None` clears it) as its next row; the row's `seq`, or
    /// `None` (nothing stored) when another setting took the same place meanwhile.
    #[tracing::instrument(skip(self))]
    pub async fn declare_component(
        &self,
        component: &str,
        status: Option<ComponentStatus>,
        at: i64,
        author: &str,
    ) -> Result<Option<i64>, sqlx::Error> {
        let statement = sqlx::query_as::<_, (i64,)>(DECLARE_COMPONENT)
            .bind(component)
            .bind(status.map(ComponentStatus::as_str))
            .bind(at)
            .bind(author);
        self.committed_seq(statement).await
    }

    /// The setting in force of every checked component that has one (cleared ones included).
    pub async fn component_declarations(&self) -> Result<Vec<DeclarationRow>, sqlx::Error> {
        let [(a, _), (b, _), (c, _)] = mg_domain::status::COMPONENTS;
        self.query_all(DECLARATIONS_IN_FORCE, (a, b, c)).await
    }

    /// The latest `limit` settings, newest first.
    pub async fn declaration_log(&self, limit: i64) -> Result<Vec<DeclarationRow>, sqlx::Error> {
        self.query_all(DECLARATION_LOG, (limit,)).await
    }

    /// Deletes the settings older than [`DECLARATION_RETENTION_MS`] that a later one replaced
    /// (the one in force stays however old); rows deleted.
    pub async fn prune_declarations(&self, now_ms: i64) -> Result<u64, sqlx::Error> {
        Ok(self
            .query_execute(PRUNE_DECLARATIONS, (now_ms - DECLARATION_RETENTION_MS,))
            .await?
            .rows_affected())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mg_platform::db::testing::test_database;

    use crate::store::StatusQueries;

    #[tokio::test]
    async fn the_latest_setting_is_in_force_and_old_replaced_ones_are_pruned() {
        let (_dir, db) = test_database().await;
        let store = db.status();
        let set = |status, at| {
            let db = db.clone();
            async move {
                db.status()
                    .declare_component("db", status, at, "ops")
                    .await
                    .expect("stored")
            }
        };
        assert_eq!(
            set(Some(ComponentStatus::MajorOutage), 1_000).await,
            Some(1)
        );
        assert_eq!(set(None, 2_000).await, Some(2));
        assert_eq!(
            set(Some(ComponentStatus::DegradedPerformance), 3_000).await,
            Some(3)
        );
        let now = store.component_declarations().await.expect("read");
        assert_eq!(now.len(), 1);
        assert_eq!(
            now[0].declared(),
            Some(ComponentStatus::DegradedPerformance)
        );
        assert_eq!(store.declaration_log(10).await.expect("log").len(), 3);
        let later = 3_000 + DECLARATION_RETENTION_MS + 1;
        assert_eq!(store.prune_declarations(later).await.expect("prune"), 2);
        assert_eq!(store.component_declarations().await.expect("read"), now);
    }
}

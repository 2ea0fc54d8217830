//! The status service's tables and every statement on them, over SQLite and PostgreSQL: checks,
//! rollups and incidents (`checks`), operators' notices (`notices`; those the answers carry and the notice pages in
//! `current_notices`), their corrections
//! (`revisions`), the component statuses operators set on their own (`declarations`), webhooks
//! and component events (`webhooks`), and the delivery queue (`deliveries`). Reached from a `Database` through
//! [`StatusQueries::status`], so the floor's pool is shared and the floor knows none of these tables.

pub mod checks;
pub mod current_notices;
pub mod declarations;
pub mod deliveries;
pub mod notices;
pub mod revisions;
mod update_row;
pub mod webhooks;
pub mod window_clock;

use std::ops::Deref;

use mg_platform::db::{Database, OptionalRow};
use sqlx::{
    any::{Any, AnyArguments},
    query::QueryAs,
};

/// The status tables of one database; borrowed from it for a call or a few.
#[derive(Debug, Clone, Copy)]
pub struct StatusStore<'a>(&'a Database);

impl Deref for StatusStore<'_> {
    type Target = Database;

    fn deref(&self) -> &Database {
        self.0
    }
}

/// How a `Database` reaches its status tables: `db.status().insert_notice(...)`.
pub trait StatusQueries {
    fn status(&self) -> StatusStore<'_>;
}

impl StatusQueries for Database {
    fn status(&self) -> StatusStore<'_> {
        StatusStore(self)
    }
}

impl StatusStore<'_> {
    /// The `seq` a conditional insert returns through [`Database::commit_returning`], or `None`
    /// where its condition refused it (nothing stored).
    async fn committed_seq<'q>(
        &self,
        statement: QueryAs<'q, Any, (i64,), AnyArguments<'q>>,
    ) -> Result<Option<i64>, sqlx::Error> {
        Ok(self
            .commit_returning(statement)
            .await
            .optional()?
            .map(|(seq,)| seq))
    }
}

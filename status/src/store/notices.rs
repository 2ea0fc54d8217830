//! The status operators' table, `status_notice_updates`: incidents and maintenance windows as a
//! timeline of updates, one row per operator action (so it is also the log of who did what, when).
//! Every write is one autocommit `INSERT ... RETURNING` stepped to its end
//! ([`Database::commit_returning`]): acknowledged only after its commit, and a failed commit
//! stores nothing. The notice's own fields (kind, title, components, window...) are written with
//! its first update and copied into each later one by the same statement.

use mg_domain::{
    component_status::ComponentStatus,
    notices::{Impact, NoticeKind, NoticeStatus},
};
use mg_platform::time::DAY_MS;

use super::{
    revisions::{corrected, latest, latest_among, Latest},
    StatusStore,
};
use crate::operator_limits::MAX_UPDATES;
use mg_platform::db::prune::PRUNE_BATCH;
use mg_platform::db::OptionalRow;

/// Resolved incidents and windows over stay in the answers this long after their last update.
pub const NOTICE_RETENTION_MS: i64 = 90 * DAY_MS;
/// Notices read into the answers at most (the newest).
pub const NOTICES_READ_LIMIT: i64 = 100;
/// How many notices are open at `$at`: unresolved incidents, and windows neither completed nor
/// over (the cap's count; `insert_notice` binds the new notice's time there). It reads the open
/// ones only (`status_notices.open`, kept by the updates' trigger), which the cap bounds.
macro_rules! open_count {
    ($at:literal) => {
        concat!(
            "SELECT COUNT(*) FROM status_notices WHERE open = 1 AND COALESCE(ends_at, ",
            $at,
            " + 1) > ",
            $at
        )
    };
}

/// Notices open at `$1`.
pub const COUNT_OPEN_NOTICES: &str = open_count!("$1");

pub use super::update_row::UpdateRow;

/// A notice as its updates give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoticeRow {
    pub id: String,
    pub kind: NoticeKind,
    pub title: String,
    pub impact: Impact,
    pub components: String,
    /// The latest update's status.
    pub status: NoticeStatus,
    pub check_incident: Option<String>,
    pub starts_at: Option<i64>,
    pub ends_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    /// When an update resolved or completed it.
    pub resolved_at: Option<i64>,
    /// The latest declared component status of its updates.
    pub component_status: Option<ComponentStatus>,
}

impl NoticeRow {
    /// The notice `updates` (of one notice, any order) describe; `None` without any.
    pub fn from_updates(updates: &[UpdateRow]) -> Option<Self> {
        let first = updates.iter().min_by_key(|u| u.seq)?;
        let last = updates.iter().max_by_key(|u| u.seq)?;
        let resolved_at = updates
            .iter()
            .filter(|u| u.status.is_final())
            .map(|u| u.created_at)
            .min();
        Some(Self {
            id: first.notice_id.clone(),
            kind: first.kind,
            title: first.title.clone(),
            impact: first.impact,
            components: first.components.clone(),
            status: last.status,
            check_incident: first.check_incident.clone(),
            starts_at: first.starts_at,
            ends_at: first.ends_at,
            created_at: first.created_at,
            updated_at: last.created_at,
            resolved_at,
            component_status: updates
                .iter()
                .filter(|u| u.declared().is_some())
                .max_by_key(|u| u.seq)
                .and_then(UpdateRow::declared),
        })
    }
}

/// A later update of the notice `id` of `kind`, by `author` at `at`.
#[derive(Debug, Clone, Copy)]
pub struct NewUpdate<'a> {
    pub id: &'a str,
    pub kind: NoticeKind,
    pub status: NoticeStatus,
    pub body: &'a str,
    pub at: i64,
    pub author: &'a str,
    pub component_status: Option<ComponentStatus>,
}

/// The columns [`UpdateRow`] reads.
macro_rules! columns {
    () => {
        "notice_id, seq, kind, title, impact, components, check_incident, starts_at, ends_at, \
         status, body, created_at, author, component_status"
    };
}
pub(crate) use columns;

/// A notice's first update, unless `$13` notices are open at its time (`insert_notice`).
pub const INSERT_NOTICE: &str = concat!(
    "INSERT INTO status_notice_updates (",
    columns!(),
    ") SELECT $1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $14 WHERE (",
    open_count!("$11"),
    ") < $13 RETURNING seq"
);

/// An update of notice `$1` of kind `$2`, copying its fields (`append_notice_update`).
pub const APPEND_NOTICE_UPDATE: &str = concat!(
    "INSERT INTO status_notice_updates (",
    columns!(),
    ") SELECT notice_id, MAX(seq) + 1, kind, title, impact, components, check_incident, \
            starts_at, ends_at, $3, $4, $5, $6, $8 \
     FROM status_notice_updates WHERE notice_id = $1 AND kind = $2 \
     GROUP BY notice_id, kind, title, impact, components, check_incident, starts_at, ends_at \
     HAVING (COUNT(*) < $7 OR $3 IN ('resolved', 'completed')) \
       AND SUM(CASE WHEN status IN ('resolved', 'completed') THEN 1 ELSE 0 END) = 0 \
     ON CONFLICT (notice_id, seq) DO NOTHING RETURNING seq"
);

/// Notice `$1`'s updates, newest first.
pub const FIND_NOTICE: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM status_notice_updates WHERE notice_id = $1 ORDER BY seq DESC"
);

/// The notices open or updated since `$1`, at most `$2` (the newest), by their rows in
/// `status_notices` (`notices_since`, and the corrections it reads).
macro_rules! since_ids {
    () => {
        "SELECT notice_id FROM status_notices \
         WHERE updated_at >= $1 OR ends_at >= $1 OR (open = 1 AND kind = 'incident') \
         ORDER BY created_at DESC, notice_id DESC LIMIT $2"
    };
}

/// The latest revision of each corrected update of the notices `notices_since` reads (`$1`, `$2`
/// as there).
pub const LATEST_SINCE: &str = latest_among!(since_ids!());

/// The updates of the notices `since_ids` names.
pub const NOTICES_SINCE: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM status_notice_updates WHERE notice_id IN (",
    since_ids!(),
    ") ORDER BY notice_id, seq DESC"
);

/// The latest `$1` operator actions, newest first.
pub const OPERATOR_LOG: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM status_notice_updates ORDER BY created_at DESC, notice_id, seq DESC LIMIT $1"
);

/// Deletes `$2` of the notices over whose last update is older than `$1` (`prune_notices`); the
/// trigger of the updates' deletion deletes their rows of `status_notices`.
pub const PRUNE_NOTICES: &str = "DELETE FROM status_notice_updates WHERE notice_id IN ( \
       SELECT notice_id FROM status_notices \
       WHERE updated_at < $1 AND (open = 0 OR COALESCE(ends_at, $1) < $1) \
       LIMIT $2)";

/// Notices one pruning statement deletes at most: each has at most `MAX_UPDATES` updates, the one
/// that ends it and the clock's two, so a statement deletes fewer than [`PRUNE_BATCH`] rows.
pub const NOTICES_PER_PRUNE: i64 = PRUNE_BATCH / (MAX_UPDATES + 3);

/// Updates grouped per notice (newest update first), each with the notice they give.
fn group(updates: Vec<UpdateRow>) -> Vec<(NoticeRow, Vec<UpdateRow>)> {
    let mut groups: Vec<Vec<UpdateRow>> = Vec::new();
    for update in updates {
        match groups.last_mut() {
            Some(group) if group[0].notice_id == update.notice_id => group.push(update),
            _ => groups.push(vec![update]),
        }
    }
    let mut notices: Vec<(NoticeRow, Vec<UpdateRow>)> = groups
        .into_iter()
        .filter_map(|mut updates| {
            updates.sort_by_key(|u| std::cmp::Reverse(u.seq));
            Some((NoticeRow::from_updates(&updates)?, updates))
        })
        .collect();
    notices.sort_by_key(|(notice, _)| std::cmp::Reverse(notice.created_at));
    notices
}

impl StatusStore<'_> {
    /// Stores a notice's first update (`seq` 1), which names it, unless `max_open` notices are
    /// open at its time already (counted inside the statement, so concurrent writers cannot
    /// pass the cap together); whether it was stored.
    #[tracing::instrument(skip_all, fields(id = %first.notice_id))]
    pub async fn insert_notice(
        &self,
        first: &UpdateRow,
        max_open: i64,
    ) -> Result<bool, sqlx::Error> {
        let statement = sqlx::query_as::<_, (i64,)>(INSERT_NOTICE)
            .bind(&first.notice_id)
            .bind(first.kind.as_str())
            .bind(&first.title)
            .bind(first.impact.as_str())
            .bind(&first.components)
            .bind(&first.check_incident)
            .bind(first.starts_at)
            .bind(first.ends_at)
            .bind(first.status.as_str())
            .bind(&first.body)
            .bind(first.created_at)
            .bind(&first.author)
            .bind(max_open)
            .bind(&first.component_status);
        Ok(self
            .commit_returning_capped("status_open_notices", statement)
            .await
            .optional()?
            .is_some())
    }

    /// Adds an update to the notice `id` of `kind`, copying its fields, in one statement; the
    /// update's `seq`, or `None` (nothing stored) when there is no such notice, it is resolved or
    /// completed, it has `max_updates` already (unless this update resolves or completes it:
    /// ending a notice is always allowed, once), or another update took the same place meanwhile.
    #[tracing::instrument(skip_all, fields(id = update.id))]
    pub async fn append_notice_update(
        &self,
        update: &NewUpdate<'_>,
        max_updates: i64,
    ) -> Result<Option<i64>, sqlx::Error> {
        let NewUpdate {
            id,
            kind,
            status,
            body,
            at,
            author,
            component_status,
        } = *update;
        let statement = sqlx::query_as::<_, (i64,)>(APPEND_NOTICE_UPDATE)
            .bind(id)
            .bind(kind.as_str())
            .bind(status.as_str())
            .bind(body)
            .bind(at)
            .bind(author)
            .bind(max_updates)
            .bind(component_status.map(ComponentStatus::as_str));
        self.committed_seq(statement).await
    }

    /// The notice with this id and its updates (newest first), as corrected (`revisions`).
    pub async fn find_notice(
        &self,
        id: &str,
    ) -> Result<Option<(NoticeRow, Vec<UpdateRow>)>, sqlx::Error> {
        let updates = self.query_all::<UpdateRow>(FIND_NOTICE, (id,)).await?;
        let latest = self.latest_revisions_of(id).await?;
        Ok(group(corrected(updates, &latest)).into_iter().next())
    }

    /// Notices still open (an unresolved incident, a window not over) or updated since `since`,
    /// newest first, at most [`NOTICES_READ_LIMIT`], with their updates (newest first) as
    /// corrected (`revisions`).
    pub async fn notices_since(
        &self,
        since: i64,
    ) -> Result<Vec<(NoticeRow, Vec<UpdateRow>)>, sqlx::Error> {
        let updates = self
            .query_all::<UpdateRow>(NOTICES_SINCE, (since, NOTICES_READ_LIMIT))
            .await?;
        let latest = self
            .latest_revisions_since(since, NOTICES_READ_LIMIT)
            .await?;
        Ok(group(corrected(updates, &latest)))
    }

    /// The latest revision of every corrected update of the notices [`Self::notices_since`]
    /// reads with these arguments.
    pub async fn latest_revisions_since(
        &self,
        since: i64,
        limit: i64,
    ) -> Result<Latest, sqlx::Error> {
        let rows: Vec<(String, i64, Option<String>, i64)> =
            self.query_all(LATEST_SINCE, (since, limit)).await?;
        Ok(latest(rows))
    }

    /// Notices open at `now_ms`: unresolved incidents and windows neither completed nor over.
    pub async fn count_open_notices(&self, now_ms: i64) -> Result<i64, sqlx::Error> {
        sqlx::query_scalar(COUNT_OPEN_NOTICES)
            .bind(now_ms)
            .fetch_one(self.pool())
            .await
    }

    /// The latest `limit` operator actions, newest first.
    pub async fn operator_log(&self, limit: i64) -> Result<Vec<UpdateRow>, sqlx::Error> {
        self.query_all(OPERATOR_LOG, (limit,)).await
    }

    /// Deletes the notices over (resolved, completed, or a window past its end) whose last update
    /// is older than [`NOTICE_RETENTION_MS`], [`NOTICES_PER_PRUNE`] a statement, with their
    /// corrections; returns rows deleted.
    pub async fn prune_notices(&self, now_ms: i64) -> Result<u64, sqlx::Error> {
        let mut deleted = 0;
        loop {
            let rows = self
                .query_execute(
                    PRUNE_NOTICES,
                    (now_ms - NOTICE_RETENTION_MS, NOTICES_PER_PRUNE),
                )
                .await?
                .rows_affected();
            if rows == 0 {
                return Ok(deleted);
            }
            deleted += rows;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mg_platform::db::testing::test_database;

    use crate::store::StatusQueries;

    fn first(id: &str) -> UpdateRow {
        UpdateRow::first_for_tests(id)
    }

    fn update<'a>(id: &'a str, kind: &str, status: &str, at: i64) -> NewUpdate<'a> {
        NewUpdate {
            id,
            kind: NoticeKind::parse(kind).expect("a kind"),
            status: NoticeStatus::parse(status).expect("a status"),
            body: "x",
            at,
            author: "ops",
            component_status: None,
        }
    }

    #[tokio::test]
    async fn a_notice_over_the_open_cap_is_not_stored() {
        let (_dir, db) = test_database().await;
        let store = db.status();
        assert!(store.insert_notice(&first("n1"), 2).await.expect("first"));
        assert!(store.insert_notice(&first("n2"), 2).await.expect("second"));
        assert!(!store.insert_notice(&first("n3"), 2).await.expect("third"));
        assert_eq!(store.count_open_notices(5_000).await.expect("count"), 2);
        assert!(store.find_notice("n3").await.expect("read").is_none());
    }

    #[tokio::test]
    async fn updates_are_numbered_bounded_and_end_with_the_final_one() {
        let (_dir, db) = test_database().await;
        let store = db.status();
        assert!(store.insert_notice(&first("n1"), 30).await.expect("stored"));
        // Appends an update to notice `id` of `kind`, at most `max` updates a notice.
        let append = |id: &'static str, kind: &'static str, status: &'static str, at, max| {
            let update = update(id, kind, status, at);
            async move {
                store
                    .append_notice_update(&update, max)
                    .await
                    .expect("query")
            }
        };
        let add = |status, at| append("n1", "incident", status, at, 3);
        assert_eq!(add("identified", 2_000).await, Some(2));
        assert_eq!(
            append("n1", "maintenance", "completed", 2_500, 3).await,
            None,
            "not a window"
        );
        assert_eq!(add("monitoring", 2_600).await, Some(3));
        assert_eq!(add("monitoring", 2_700).await, None, "three is the most");
        assert_eq!(
            add("resolved", 3_000).await,
            Some(4),
            "resolving is always allowed"
        );
        assert_eq!(add("monitoring", 4_000).await, None, "resolved is final");
        let (notice, updates) = store.find_notice("n1").await.expect("read").expect("found");
        assert_eq!(notice.resolved_at, Some(3_000));
        assert_eq!(notice.status, NoticeStatus::Resolved);
        assert_eq!(
            updates.iter().map(|u| u.seq).collect::<Vec<_>>(),
            [4, 3, 2, 1]
        );
        assert!(updates.iter().all(|u| u.title == "Slow"));

        assert!(store.insert_notice(&first("n2"), 30).await.expect("stored"));
        let add = |status, at| append("n2", "incident", status, at, 2);
        assert_eq!(add("identified", 2_000).await, Some(2));
        assert_eq!(add("monitoring", 3_000).await, None, "at most two updates");
        assert_eq!(store.count_open_notices(5_000).await.expect("count"), 1);
        assert_eq!(store.notices_since(0).await.expect("read").len(), 2);
        assert_eq!(store.operator_log(10).await.expect("log").len(), 6);
        let later = 3_000 + NOTICE_RETENTION_MS + 1;
        assert_eq!(
            store.prune_notices(later).await.expect("prune"),
            4,
            "the resolved one goes"
        );
        assert_eq!(
            store.notices_since(later).await.expect("read").len(),
            1,
            "the open one stays"
        );
    }
}

//! Operators correcting their updates, `status_update_revisions`: an edit or a delete of an update
//! of an incident or window is one row (never a change to the update's own row), so every
//! correction is one autocommit `INSERT ... RETURNING` acknowledged after its commit, and the table
//! is the log of who changed what, when, and the text it replaced. An update shows its latest
//! revision's text; a revision without text deletes it from the timeline.

use std::collections::HashMap;

use sqlx::FromRow;

use mg_domain::notices::NoticeKind;

use super::{update_row::UpdateRow, StatusStore};

/// A correction of the update `seq` of the notice `id` of `kind`, by `author` at `at`: its new
/// text, or `None` to delete it.
#[derive(Debug, Clone, Copy)]
pub struct NewRevision<'a> {
    pub id: &'a str,
    pub kind: NoticeKind,
    pub seq: i64,
    pub body: Option<&'a str>,
    pub at: i64,
    pub author: &'a str,
}

/// One correction, as the operator log lists it.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct RevisionRow {
    pub notice_id: String,
    pub seq: i64,
    #[sqlx(try_from = "String")]
    pub kind: NoticeKind,
    /// The new text; `None`: deleted.
    pub body: Option<String>,
    pub old_body: String,
    pub created_at: i64,
    pub author: String,
}

/// The latest revision of each corrected update: (notice id, seq) -> its text, `None` if deleted.
pub type Latest = HashMap<(String, i64), Option<String>>;

/// `updates` as they show: each corrected one with its latest text, the deleted ones left out.
pub fn corrected(mut updates: Vec<UpdateRow>, latest: &Latest) -> Vec<UpdateRow> {
    updates.retain_mut(
        |update| match latest.get(&(update.notice_id.clone(), update.seq)) {
            None => true,
            Some(None) => false,
            Some(Some(body)) => {
                update.body.clone_from(body);
                true
            }
        },
    );
    updates
}

/// The latest revision of each corrected update of the notices the subquery `$ids` names.
macro_rules! latest_among {
    ($ids:expr) => {
        concat!(
            "SELECT r.notice_id, r.seq, r.body FROM status_update_revisions r \
             WHERE r.notice_id IN (",
            $ids,
            ") AND r.rev = (SELECT MAX(x.rev) FROM status_update_revisions x \
                            WHERE x.notice_id = r.notice_id AND x.seq = r.seq)"
        )
    };
}
pub(crate) use latest_among;

/// The latest revision of each corrected update of the notice `$1`.
pub const LATEST_OF_NOTICE: &str = latest_among!("$1");

/// The latest revision of each corrected update of the notices `notices_since` reads (`$1`, `$2`
/// as there).
pub const LATEST_SINCE: &str = latest_among!(super::notices::since_ids!());

/// A correction of the update `$3` of the notice `$1` of kind `$2`: text `$4` (NULL: deleted), by
/// `$6` at `$5`, unless the update is deleted already (`revise_update`).
pub const REVISE_UPDATE: &str = "INSERT INTO status_update_revisions \
       (notice_id, seq, rev, body, old_body, created_at, author) \
     SELECT u.notice_id, u.seq, \
            COALESCE((SELECT MAX(x.rev) FROM status_update_revisions x \
                      WHERE x.notice_id = u.notice_id AND x.seq = u.seq), 0) + 1, \
            $4, \
            COALESCE((SELECT x.body FROM status_update_revisions x \
                      WHERE x.notice_id = u.notice_id AND x.seq = u.seq \
                      ORDER BY x.rev DESC LIMIT 1), u.body), \
            $5, $6 \
     FROM status_notice_updates u \
     WHERE u.notice_id = $1 AND u.kind = $2 AND u.seq = $3 \
       AND NOT EXISTS (SELECT 1 FROM status_update_revisions x \
                       WHERE x.notice_id = u.notice_id AND x.seq = u.seq \
                         AND x.body IS NULL) \
     ON CONFLICT (notice_id, seq, rev) DO NOTHING RETURNING old_body";

/// The latest `$1` corrections, newest first.
pub const REVISION_LOG: &str =
    "SELECT r.notice_id, r.seq, u.kind, r.body, r.old_body, r.created_at, r.author \
     FROM status_update_revisions r JOIN status_notice_updates u \
       ON u.notice_id = r.notice_id AND u.seq = r.seq \
     ORDER BY r.created_at DESC, r.notice_id, r.seq DESC, r.rev DESC LIMIT $1";

impl StatusStore<'_> {
    /// Stores a correction of an update in one statement; the text it replaced, or `None`
    /// (nothing stored) when there is no such update, it is deleted already, or another
    /// correction took the same place meanwhile.
    #[tracing::instrument(skip_all, fields(id = revision.id, seq = revision.seq))]
    pub async fn revise_update(
        &self,
        revision: &NewRevision<'_>,
    ) -> Result<Option<String>, sqlx::Error> {
        let statement = sqlx::query_as::<_, (String,)>(REVISE_UPDATE)
            .bind(revision.id)
            .bind(revision.kind.as_str())
            .bind(revision.seq)
            .bind(revision.body)
            .bind(revision.at)
            .bind(revision.author);
        match self.commit_returning(statement).await {
            Ok((old,)) => Ok(Some(old)),
            Err(sqlx::Error::RowNotFound) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// The latest revision of every corrected update of the notice `id`.
    pub async fn latest_revisions_of(&self, id: &str) -> Result<Latest, sqlx::Error> {
        let rows = sqlx::query_as(LATEST_OF_NOTICE)
            .bind(id)
            .fetch_all(self.pool())
            .await?;
        Ok(latest(rows))
    }

    /// The latest revision of every corrected update of the notices [`Self::notices_since`]
    /// reads with these arguments.
    pub async fn latest_revisions_since(
        &self,
        since: i64,
        limit: i64,
    ) -> Result<Latest, sqlx::Error> {
        let rows = sqlx::query_as(LATEST_SINCE)
            .bind(since)
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
        Ok(latest(rows))
    }

    /// The latest `limit` corrections, newest first.
    pub async fn revision_log(&self, limit: i64) -> Result<Vec<RevisionRow>, sqlx::Error> {
        sqlx::query_as::<_, RevisionRow>(REVISION_LOG)
            .bind(limit)
            .fetch_all(self.pool())
            .await
    }
}

/// Rows of (notice id, seq, text) as [`Latest`].
pub(crate) fn latest(rows: Vec<(String, i64, Option<String>)>) -> Latest {
    rows.into_iter()
        .map(|(notice, seq, body)| ((notice, seq), body))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mg_domain::notices::NoticeStatus;
    use mg_platform::db::test_database;

    use crate::store::{notices::NewUpdate, StatusQueries};

    #[tokio::test]
    async fn a_correction_keeps_the_old_text_and_a_deleted_update_takes_no_more() {
        let (_dir, db) = test_database().await;
        let store = db.status();
        let first = UpdateRow {
            body: "Lokoing.".into(),
            ..UpdateRow::first_for_tests("n1")
        };
        assert!(store.insert_notice(&first, 30).await.expect("stored"));
        let second = NewUpdate {
            id: "n1",
            kind: NoticeKind::Incident,
            status: NoticeStatus::Identified,
            body: "Found.",
            at: 2_000,
            author: "ops",
            component_status: None,
        };
        assert_eq!(
            store.append_notice_update(&second, 25).await.expect("q"),
            Some(2)
        );
        let revise = |seq: i64, kind: NoticeKind, body: Option<&'static str>| NewRevision {
            id: "n1",
            kind,
            seq,
            body,
            at: 3_000,
            author: "oncall",
        };
        let edit = revise(1, NoticeKind::Incident, Some("Looking."));
        assert_eq!(
            store.revise_update(&edit).await.expect("q").as_deref(),
            Some("Lokoing.")
        );
        let again = revise(1, NoticeKind::Incident, Some("Looking into it."));
        assert_eq!(
            store.revise_update(&again).await.expect("q").as_deref(),
            Some("Looking."),
            "the text it replaced is the last correction's"
        );
        let wrong_kind = revise(1, NoticeKind::Maintenance, Some("x"));
        assert_eq!(store.revise_update(&wrong_kind).await.expect("q"), None);
        let delete = revise(2, NoticeKind::Incident, None);
        assert_eq!(
            store.revise_update(&delete).await.expect("q").as_deref(),
            Some("Found.")
        );
        assert_eq!(store.revise_update(&delete).await.expect("q"), None);
        let edit_deleted = revise(2, NoticeKind::Incident, Some("Back"));
        assert_eq!(store.revise_update(&edit_deleted).await.expect("q"), None);

        let (notice, updates) = store.find_notice("n1").await.expect("read").expect("found");
        assert_eq!(updates.len(), 1, "the deleted update is gone");
        assert_eq!(updates[0].body, "Looking into it.");
        assert_eq!(notice.status, NoticeStatus::Investigating);
        let log = store.revision_log(10).await.expect("log");
        assert_eq!(log.len(), 3);
        assert_eq!((log[0].seq, log[0].body.as_deref()), (2, None));
        assert_eq!(log[2].old_body, "Lokoing.");
    }
}

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

/// The latest revision of each corrected update: (notice id, seq) -> its text (`None` if
/// deleted) and when it was made.
pub type Latest = HashMap<(String, i64), (Option<String>, i64)>;

/// [`Latest`] from rows of (notice id, seq, text or none, when).
pub(crate) fn latest(rows: Vec<(String, i64, Option<String>, i64)>) -> Latest {
    rows.into_iter()
        .map(|(notice, seq, body, at)| ((notice, seq), (body, at)))
        .collect()
}

/// `updates` as they show: each corrected one with its latest text and the time of that
/// correction, the deleted ones left out.
pub fn corrected(mut updates: Vec<UpdateRow>, latest: &Latest) -> Vec<UpdateRow> {
    updates.retain_mut(
        |update| match latest.get(&(update.notice_id.clone(), update.seq)) {
            None => true,
            Some((None, _)) => false,
            Some((Some(body), at)) => {
                update.body.clone_from(body);
                update.edited_at = Some(*at);
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
            "SELECT r.notice_id, r.seq, r.body, r.created_at FROM status_update_revisions r \
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

/// The latest `$1` corrections, newest first.
pub const REVISION_LOG: &str =
    "SELECT r.notice_id, r.seq, u.kind, r.body, r.old_body, r.created_at, r.author \
     FROM status_update_revisions r JOIN status_notice_updates u \
       ON u.notice_id = r.notice_id AND u.seq = r.seq \
     ORDER BY r.created_at DESC, r.notice_id, r.seq DESC, r.rev DESC LIMIT $1";

/// Stores a correction of update `$3` of notice `$1` of kind `$2` (`revise_update`): its new text
/// `$4` (NULL: deleted) and the text it replaced, unless the update is deleted already or has
/// `$7` corrections (a delete is always taken, once, so a wrong update can always be taken
/// down). The cap is inside the statement, as the updates' own is.
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
       AND ($4 IS NULL OR (SELECT COUNT(*) FROM status_update_revisions x \
                           WHERE x.notice_id = u.notice_id AND x.seq = u.seq) < $7) \
     ON CONFLICT (notice_id, seq, rev) DO NOTHING RETURNING old_body";

/// How many corrections the update `$2` of the notice `$1` has (why `revise_update` refused).
pub const COUNT_REVISIONS: &str =
    "SELECT COUNT(*) FROM status_update_revisions WHERE notice_id = $1 AND seq = $2";

/// What became of a correction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revised {
    /// Stored; the text it replaced.
    Stored(String),
    /// Not stored: the update has its most corrections already.
    Capped,
    /// Not stored: no such update, it is deleted, or another correction took its place meanwhile.
    Gone,
}

impl StatusStore<'_> {
    /// Stores a correction of an update in one statement, unless the update has `max_revisions`
    /// corrections already (a delete is always taken); what became of it.
    #[tracing::instrument(skip_all, fields(id = revision.id, seq = revision.seq))]
    pub async fn revise_update(
        &self,
        revision: &NewRevision<'_>,
        max_revisions: i64,
    ) -> Result<Revised, sqlx::Error> {
        let statement = sqlx::query_as::<_, (String,)>(REVISE_UPDATE)
            .bind(revision.id)
            .bind(revision.kind.as_str())
            .bind(revision.seq)
            .bind(revision.body)
            .bind(revision.at)
            .bind(revision.author)
            .bind(max_revisions);
        match self.commit_returning(statement).await {
            Ok((old,)) => Ok(Revised::Stored(old)),
            Err(sqlx::Error::RowNotFound) => {
                // Why nothing was stored, for the refusal's words (read after, on refusal only).
                let (count,): (i64,) = self
                    .query_one(COUNT_REVISIONS, (revision.id, revision.seq))
                    .await?;
                Ok(if revision.body.is_some() && count >= max_revisions {
                    Revised::Capped
                } else {
                    Revised::Gone
                })
            }
            Err(error) => Err(error),
        }
    }

    /// The latest revision of every corrected update of the notice `id`.
    pub async fn latest_revisions_of(&self, id: &str) -> Result<Latest, sqlx::Error> {
        let rows: Vec<(String, i64, Option<String>, i64)> =
            self.query_all(LATEST_OF_NOTICE, (id,)).await?;
        Ok(latest(rows))
    }

    /// The latest `limit` corrections, newest first.
    pub async fn revision_log(&self, limit: i64) -> Result<Vec<RevisionRow>, sqlx::Error> {
        self.query_all(REVISION_LOG, (limit,)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mg_domain::notices::NoticeStatus;
    use mg_platform::db::testing::test_database;

    use crate::store::{notices::NewUpdate, StatusQueries};

    /// The second update of the notice "n1", as both tests post it.
    const SECOND: NewUpdate<'static> = NewUpdate {
        id: "n1",
        kind: NoticeKind::Incident,
        status: NoticeStatus::Identified,
        body: "Found.",
        at: 2_000,
        author: "ops",
        component_status: None,
    };

    /// The notice "n1": `first`, then [`SECOND`].
    async fn with_two_updates(store: &StatusStore<'_>, first: UpdateRow) {
        assert!(store.insert_notice(&first, 30).await.expect("stored"));
        assert_eq!(
            store.append_notice_update(&SECOND, 25).await.expect("q"),
            Some(2)
        );
    }

    #[tokio::test]
    async fn a_correction_keeps_the_old_text_and_a_deleted_update_takes_no_more() {
        let (_dir, db) = test_database().await;
        let store = db.status();
        let first = UpdateRow {
            body: "Lokoing.".into(),
            ..UpdateRow::first_for_tests("n1")
        };
        with_two_updates(&store, first).await;
        let revise = |seq: i64, kind: NoticeKind, body: Option<&'static str>| NewRevision {
            id: "n1",
            kind,
            seq,
            body,
            at: 3_000,
            author: "oncall",
        };
        let stored = |old: &str| Revised::Stored(old.to_owned());
        let edit = revise(1, NoticeKind::Incident, Some("Looking."));
        assert_eq!(
            store.revise_update(&edit, 10).await.expect("q"),
            stored("Lokoing.")
        );
        let again = revise(1, NoticeKind::Incident, Some("Looking into it."));
        assert_eq!(
            store.revise_update(&again, 10).await.expect("q"),
            stored("Looking."),
            "the text it replaced is the last correction's"
        );
        let wrong_kind = revise(1, NoticeKind::Maintenance, Some("x"));
        assert_eq!(
            store.revise_update(&wrong_kind, 10).await.expect("q"),
            Revised::Gone
        );
        let delete = revise(2, NoticeKind::Incident, None);
        assert_eq!(
            store.revise_update(&delete, 10).await.expect("q"),
            stored("Found.")
        );
        assert_eq!(
            store.revise_update(&delete, 10).await.expect("q"),
            Revised::Gone
        );
        let edit_deleted = revise(2, NoticeKind::Incident, Some("Back"));
        assert_eq!(
            store.revise_update(&edit_deleted, 10).await.expect("q"),
            Revised::Gone
        );

        let (notice, updates) = store.find_notice("n1").await.expect("read").expect("found");
        assert_eq!(updates.len(), 1, "the deleted update is gone");
        assert_eq!(updates[0].body, "Looking into it.");
        assert_eq!(updates[0].edited_at, Some(3_000), "when it was corrected");
        assert_eq!(notice.status, NoticeStatus::Investigating);
        let log = store.revision_log(10).await.expect("log");
        assert_eq!(log.len(), 3);
        assert_eq!((log[0].seq, log[0].body.as_deref()), (2, None));
        assert_eq!(log[2].old_body, "Lokoing.");
    }

    #[tokio::test]
    async fn an_update_takes_at_most_its_cap_of_edits_inside_the_statement_then_still_a_delete() {
        let (_dir, db) = test_database().await;
        let store = db.status();
        with_two_updates(&store, UpdateRow::first_for_tests("n1")).await;
        let texts: Vec<String> = (0..4).map(|i| format!("Found {i}.")).collect();
        fn revise<'a>(id: &'a str, seq: i64, body: Option<&'a str>) -> NewRevision<'a> {
            NewRevision {
                id,
                kind: NoticeKind::Incident,
                seq,
                body,
                at: 3_000,
                author: "ops",
            }
        }
        for text in &texts[..3] {
            let revised = store
                .revise_update(&revise("n1", 2, Some(text)), 3)
                .await
                .expect("q");
            assert!(matches!(revised, Revised::Stored(_)), "{revised:?}");
        }
        assert_eq!(
            store
                .revise_update(&revise("n1", 2, Some(&texts[3])), 3)
                .await
                .expect("q"),
            Revised::Capped
        );
        let count = || async {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM status_update_revisions")
                .fetch_one(db.pool())
                .await
                .expect("count")
        };
        assert_eq!(count().await, 3, "the refused edit stored nothing");
        assert_eq!(
            store
                .revise_update(&revise("n1", 2, None), 3)
                .await
                .expect("q"),
            Revised::Stored("Found 2.".to_owned()),
            "a delete is taken past the cap"
        );
        assert_eq!(count().await, 4);

        // The publish reads the corrections of the notices it shows, not every one kept: an
        // incident resolved before `since` is not read.
        let old = UpdateRow {
            created_at: 500,
            ..UpdateRow::first_for_tests("old")
        };
        assert!(store.insert_notice(&old, 30).await.expect("stored"));
        let resolved = NewUpdate {
            id: "old",
            status: NoticeStatus::Resolved,
            at: 600,
            ..SECOND
        };
        assert!(store
            .append_notice_update(&resolved, 25)
            .await
            .expect("q")
            .is_some());
        let revised = store
            .revise_update(&revise("old", 1, Some("Was slow.")), 3)
            .await
            .expect("q");
        assert!(matches!(revised, Revised::Stored(_)));
        let latest = store
            .latest_revisions_since(1_500, 100)
            .await
            .expect("read");
        assert_eq!(latest.get(&("n1".to_owned(), 2)), Some(&(None, 3_000)));
        assert!(!latest.contains_key(&("old".to_owned(), 1)), "{latest:?}");
        let all = store.latest_revisions_since(0, 100).await.expect("read");
        assert!(all.contains_key(&("old".to_owned(), 1)));
    }
}

//! Maintenance windows start and end by the clock: the round that first finds a window started
//! (or over) adds the update an operator would have posted, `in_progress` at its start and
//! `completed` at its end, by the author `clock`. Stored like every update, it has the same effects:
//! the window's status, its timeline in the answers and the feed, and one webhook delivery per
//! webhook (deliveries derive from the committed row, `webhooks::changes`).
//!
//! Once across instances: each statement adds the row only when the window has no such update yet,
//! and takes the next `seq` of the window; two instances racing compute the same `seq`, so the
//! second one's row conflicts on the primary key and is not stored (`ON CONFLICT DO NOTHING`).

use super::StatusStore;

/// Who the clock's updates are by, in the operator log and the webhooks' bodies.
pub const CLOCK_AUTHOR: &str = "clock";

/// The clock's update, of status `$status` and text `$body` dated at column `$at` of the window's
/// row in `status_notices` (`n`), to every open maintenance window due (`$due`, with `$1` the
/// round's time) without one, by [`CLOCK_AUTHOR`] (a test checks the two agree). The windows are
/// found among the open notices (`status_notices.open`), which the cap bounds.
macro_rules! clock_update {
    ($status:literal, $body:literal, $at:literal, $due:literal) => {
        concat!(
            "INSERT INTO status_notice_updates (notice_id, seq, kind, title, impact, \
               components, check_incident, starts_at, ends_at, status, body, created_at, \
               author, component_status) \
             SELECT u.notice_id, n.last_seq + 1, u.kind, u.title, u.impact, u.components, \
               u.check_incident, u.starts_at, u.ends_at, '",
            $status,
            "', '",
            $body,
            "', CASE WHEN n.updated_at > ",
            $at,
            " THEN n.updated_at ELSE ",
            $at,
            " END, 'clock', NULL \
             FROM status_notices n JOIN status_notice_updates u \
               ON u.notice_id = n.notice_id AND u.seq = n.last_seq \
             WHERE n.open = 1 AND n.kind = 'maintenance' AND ",
            $due,
            " ON CONFLICT (notice_id, seq) DO NOTHING"
        )
    };
}

/// Starts the windows whose start has come.
pub const START_WINDOWS: &str = clock_update!(
    "in_progress",
    "The maintenance window started.",
    "n.starts_at",
    "n.started = 0 AND n.starts_at <= $1 AND n.ends_at > $1"
);

/// Ends the windows whose end has come.
pub const END_WINDOWS: &str = clock_update!(
    "completed",
    "The maintenance window ended.",
    "n.ends_at",
    "n.ends_at <= $1"
);

impl StatusStore<'_> {
    /// Adds the clock's update to every window that started or ended by `now_ms` without one;
    /// how many were added. Each update is dated at the window's start or end (or at its latest
    /// update, when that is later), so the timeline reads in order.
    #[tracing::instrument(skip_all)]
    pub async fn advance_windows(&self, now_ms: i64) -> Result<u64, sqlx::Error> {
        let mut added = 0;
        for statement in [sqlx::query(START_WINDOWS), sqlx::query(END_WINDOWS)] {
            added += statement
                .bind(now_ms)
                .execute(self.pool())
                .await?
                .rows_affected();
        }
        Ok(added)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_clocks_updates_are_by_its_author() {
        for statement in [super::START_WINDOWS, super::END_WINDOWS] {
            assert!(statement.contains(&format!("'{}'", super::CLOCK_AUTHOR)));
        }
    }

    use mg_domain::notices::{Impact, NoticeKind, NoticeStatus};
    use mg_platform::db::testing::test_database;

    use crate::store::{notices::UpdateRow, StatusQueries};

    #[tokio::test]
    async fn a_window_starts_and_ends_once_by_the_clock() {
        let (_dir, db) = test_database().await;
        let store = db.status();
        let window = UpdateRow {
            notice_id: "m1".into(),
            seq: 1,
            kind: NoticeKind::Maintenance,
            title: "Upgrade".into(),
            impact: Impact::Maintenance,
            components: "db".into(),
            check_incident: None,
            starts_at: Some(10_000),
            ends_at: Some(20_000),
            status: NoticeStatus::Scheduled,
            body: "Planned.".into(),
            created_at: 1_000,
            author: "ops".into(),
            component_status: None,
            edited_at: None,
        };
        assert!(store.insert_notice(&window, 30).await.expect("stored"));
        assert_eq!(store.advance_windows(9_999).await.expect("early"), 0);
        assert_eq!(store.advance_windows(10_000).await.expect("start"), 1);
        assert_eq!(store.advance_windows(15_000).await.expect("again"), 0);
        assert_eq!(store.advance_windows(20_000).await.expect("end"), 1);
        assert_eq!(store.advance_windows(25_000).await.expect("again"), 0);
        let (notice, updates) = store.find_notice("m1").await.expect("read").expect("found");
        let timeline: Vec<(i64, NoticeStatus, i64, &str)> = updates
            .iter()
            .map(|u| (u.seq, u.status, u.created_at, u.author.as_str()))
            .collect();
        assert_eq!(
            timeline,
            [
                (3, NoticeStatus::Completed, 20_000, "clock"),
                (2, NoticeStatus::InProgress, 10_000, "clock"),
                (1, NoticeStatus::Scheduled, 1_000, "ops"),
            ]
        );
        assert_eq!(notice.resolved_at, Some(20_000));
    }
}

//! The notices the answers carry, read through their rows in `status_notices` (kept by the
//! updates' trigger, migration 0017), so what a round reads is bounded by the open notices (capped)
//! and a few recent ones, not by every notice kept: each with its newest update
//! ([`UPDATES_IN_ANSWERS`]) and the newest few updates of all ([`NEWEST_UPDATES`]); a notice's
//! whole timeline is on the notice pages, read a page at a
//! time ([`NOTICES_PER_PAGE`]) when asked.

use sqlx::FromRow;

use mg_domain::{
    component_status::ComponentStatus,
    notices::{Impact, NoticeKind, NoticeStatus},
};

use super::{
    notices::{columns, NoticeRow},
    revisions::{corrected, latest_among},
    update_row::UpdateRow,
    StatusStore,
};
use crate::notices::StoredNotice;

/// Notices over (resolved, completed) the answers carry besides the open ones: the most recently
/// updated.
pub const RECENT_NOTICES: i64 = 10;
/// Updates of each notice the answers carry, the newest: at the operators' limits (30 open
/// notices, 25 updates of 4,000 characters each) every timeline in full would make each answer
/// megabytes.
pub const UPDATES_IN_ANSWERS: i64 = 1;
/// Besides, the newest updates of all notices the answers carry (whichever notices they are of),
/// so that a feed reader or page that polls hears each step of what is happening now: as many as
/// one notice can have, so a reader that polls once per incident misses none of its steps.
pub const NEWEST_UPDATES: i64 = 25;
/// Notices a notice page holds, each with its whole timeline (at most about 100 KB of text).
pub const NOTICES_PER_PAGE: i64 = 2;

/// The columns [`NoticeHead`] reads.
macro_rules! head_columns {
    () => {
        "notice_id, kind, title, impact, components, check_incident, starts_at, ends_at, status, \
         created_at, updated_at, resolved_at, component_status, last_seq"
    };
}

/// The notices the answers carry: the open ones, and the [`RECENT_NOTICES`] (`$2`) over ones
/// updated most recently since `$1`.
macro_rules! current_ids {
    () => {
        "SELECT notice_id FROM status_notices WHERE open = 1 \
         UNION ALL SELECT notice_id FROM ( \
           SELECT notice_id FROM status_notices WHERE open = 0 AND updated_at >= $1 \
           ORDER BY updated_at DESC LIMIT $2) recent"
    };
}

/// The rows of the notices the answers carry.
pub const CURRENT_NOTICES: &str = concat!(
    "SELECT ",
    head_columns!(),
    " FROM status_notices WHERE notice_id IN (",
    current_ids!(),
    ")"
);

/// The newest `$3` updates of each notice the answers carry, and the newest `$4` updates of all
/// notices among them, by notice, newest first.
pub const CURRENT_UPDATES: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM status_notice_updates WHERE notice_id IN (",
    current_ids!(),
    ") AND (seq > (SELECT n.last_seq FROM status_notices n \
                   WHERE n.notice_id = status_notice_updates.notice_id) - $3 \
          OR (notice_id, seq) IN (SELECT l.notice_id, l.seq FROM status_notice_updates l \
                ORDER BY l.created_at DESC, l.notice_id, l.seq DESC LIMIT $4)) \
     ORDER BY notice_id, seq DESC"
);

/// The latest corrections of the updates of the notices the answers carry.
pub const CURRENT_REVISIONS: &str = latest_among!(current_ids!());

/// The maintenance windows that end at `$1` or later (the uptime figures leave their checks out).
pub const WINDOWS_SINCE: &str = concat!(
    "SELECT ",
    head_columns!(),
    " FROM status_notices WHERE ends_at >= $1 AND kind = 'maintenance'"
);

/// The first `$1` notices of the notice pages, newest first.
pub const FIRST_PAGE: &str = concat!(
    "SELECT ",
    head_columns!(),
    " FROM status_notices ORDER BY created_at DESC, notice_id DESC LIMIT $1"
);

/// `$2` notices of the notice pages from the notice `$1` on (it first, then older ones).
pub const PAGE_FROM: &str = concat!(
    "SELECT ",
    head_columns!(),
    " FROM status_notices WHERE (created_at, notice_id) <= \
       (SELECT f.created_at, f.notice_id FROM status_notices f WHERE f.notice_id = $1) \
     ORDER BY created_at DESC, notice_id DESC LIMIT $2"
);

/// What changes with every write of the notices the answers are made of, on any instance, read
/// through indexes in place of the notices themselves: the latest update's time (every update
/// posted moves its notice's `updated_at`), the open notices' count and updates (an update of an
/// open notice moves its `last_seq`, one that ends it its `open`), and the latest correction's time.
/// Equal between two rounds, nothing was written in between (with the instances' clocks in step:
/// an update or correction stamped earlier than the latest of all and of an ended notice would go
/// unseen). Pruning deletes only notices past what the answers carry.
pub const NOTICES_GENERATION: &str = "SELECT \
     (SELECT COALESCE(MAX(updated_at), 0) FROM status_notices), \
     (SELECT COUNT(*) FROM status_notices WHERE open = 1), \
     (SELECT COALESCE(CAST(SUM(last_seq) AS BIGINT), 0) FROM status_notices WHERE open = 1), \
     (SELECT COALESCE(MAX(created_at), 0) FROM status_update_revisions)";

/// The value of [`NOTICES_GENERATION`].
pub type NoticesGeneration = (i64, i64, i64, i64);

/// A notice's row in `status_notices`.
#[derive(Debug, Clone, FromRow)]
struct NoticeHead {
    notice_id: String,
    #[sqlx(try_from = "String")]
    kind: NoticeKind,
    title: String,
    #[sqlx(try_from = "String")]
    impact: Impact,
    components: String,
    check_incident: Option<String>,
    starts_at: Option<i64>,
    ends_at: Option<i64>,
    #[sqlx(try_from = "String")]
    status: NoticeStatus,
    created_at: i64,
    updated_at: i64,
    resolved_at: Option<i64>,
    component_status: Option<String>,
    last_seq: i64,
}

impl From<NoticeHead> for NoticeRow {
    fn from(head: NoticeHead) -> Self {
        Self {
            id: head.notice_id,
            kind: head.kind,
            title: head.title,
            impact: head.impact,
            components: head.components,
            status: head.status,
            check_incident: head.check_incident,
            starts_at: head.starts_at,
            ends_at: head.ends_at,
            created_at: head.created_at,
            updated_at: head.updated_at,
            resolved_at: head.resolved_at,
            component_status: head
                .component_status
                .as_deref()
                .and_then(ComponentStatus::parse),
        }
    }
}

/// The notices of the notice pages from the one asked on, and the id the next page starts at.
#[derive(Debug, Clone, Default)]
pub struct NoticePage {
    pub notices: Vec<StoredNotice>,
    pub next: Option<String>,
}

impl StatusStore<'_> {
    /// The notices the answers carry (the open ones, and the [`RECENT_NOTICES`] over ones updated
    /// most recently since `since`), newest first, each with its [`UPDATES_IN_ANSWERS`] newest
    /// updates and those among the [`NEWEST_UPDATES`] of all (newest first), as corrected
    /// (`revisions`).
    pub async fn current_notices(&self, since: i64) -> Result<Vec<StoredNotice>, sqlx::Error> {
        let heads = self
            .query_all::<NoticeHead>(CURRENT_NOTICES, (since, RECENT_NOTICES))
            .await?;
        let updates = self
            .query_all::<UpdateRow>(
                CURRENT_UPDATES,
                (since, RECENT_NOTICES, UPDATES_IN_ANSWERS, NEWEST_UPDATES),
            )
            .await?;
        let revisions = self
            .query_all(CURRENT_REVISIONS, (since, RECENT_NOTICES))
            .await?;
        let updates = corrected(updates, &super::revisions::latest(revisions));
        let mut notices: Vec<StoredNotice> = Vec::with_capacity(heads.len());
        for head in heads {
            let mine: Vec<UpdateRow> = updates
                .iter()
                .filter(|u| u.notice_id == head.notice_id)
                .cloned()
                .collect();
            if mine.first().map(|u| u.seq) == Some(head.last_seq) {
                notices.push((NoticeRow::from(head), mine));
                continue;
            }
            // A correction deleted its newest update: the notice is what its other updates say
            // (read whole: a rare case, one notice of at most a few dozen rows).
            if let Some((row, all)) = self.find_notice(&head.notice_id).await? {
                let shown = if mine.is_empty() {
                    all.into_iter().take(UPDATES_IN_ANSWERS as usize).collect()
                } else {
                    mine
                };
                notices.push((row, shown));
            }
        }
        notices.sort_by_key(|(notice, _)| std::cmp::Reverse(notice.created_at));
        Ok(notices)
    }

    /// The notices' generation ([`NOTICES_GENERATION`]).
    pub async fn notices_generation(&self) -> Result<NoticesGeneration, sqlx::Error> {
        self.query_one(NOTICES_GENERATION, ()).await
    }

    /// The maintenance windows that end at `since` or later, without their updates (what the
    /// uptime figures leave out).
    pub async fn windows_since(&self, since: i64) -> Result<Vec<NoticeRow>, sqlx::Error> {
        let heads = self
            .query_all::<NoticeHead>(WINDOWS_SINCE, (since,))
            .await?;
        Ok(heads.into_iter().map(NoticeRow::from).collect())
    }

    /// A notice page: [`NOTICES_PER_PAGE`] notices from the notice `from` on (the newest without
    /// it), each with its whole timeline as corrected; empty when `from` names no notice.
    pub async fn notice_page(&self, from: Option<&str>) -> Result<NoticePage, sqlx::Error> {
        let heads = match from {
            None => sqlx::query_as::<_, NoticeHead>(FIRST_PAGE).bind(NOTICES_PER_PAGE + 1),
            Some(id) => sqlx::query_as::<_, NoticeHead>(PAGE_FROM)
                .bind(id)
                .bind(NOTICES_PER_PAGE + 1),
        }
        .fetch_all(self.pool())
        .await?;
        let mut page = NoticePage::default();
        for (at, head) in heads.into_iter().enumerate() {
            if at as i64 == NOTICES_PER_PAGE {
                page.next = Some(head.notice_id);
                break;
            }
            if let Some(found) = self.find_notice(&head.notice_id).await? {
                page.notices.push(found);
            }
        }
        Ok(page)
    }
}

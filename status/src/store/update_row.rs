//! One row of `status_notice_updates` as the store reads it: an operator action, the first update of a
//! notice (which names it) or a later one. Its own file, so both the notices' queries and the
//! corrections' (`revisions.rs`, which the notices' reads apply) read it without importing each other.

use sqlx::FromRow;

use mg_domain::{
    component_status::ComponentStatus,
    notices::{Impact, NoticeKind, NoticeStatus},
};

/// One operator action: a notice's first update (which names it) or a later one.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct UpdateRow {
    pub notice_id: String,
    pub seq: i64,
    #[sqlx(try_from = "String")]
    pub kind: NoticeKind,
    pub title: String,
    #[sqlx(try_from = "String")]
    pub impact: Impact,
    /// Component ids joined by commas.
    pub components: String,
    pub check_incident: Option<String>,
    pub starts_at: Option<i64>,
    pub ends_at: Option<i64>,
    #[sqlx(try_from = "String")]
    pub status: NoticeStatus,
    /// The operator's Markdown.
    pub body: String,
    pub created_at: i64,
    pub author: String,
    /// The status the update declares for the notice's components (NULL: none).
    pub component_status: Option<String>,
    /// When its text was last corrected (`store::revisions`; not a column of the update's row).
    #[sqlx(default)]
    pub edited_at: Option<i64>,
}

impl UpdateRow {
    /// The update's declared component status (a word this server does not know reads as none).
    pub fn declared(&self) -> Option<ComponentStatus> {
        self.component_status
            .as_deref()
            .and_then(ComponentStatus::parse)
    }
}

#[cfg(test)]
impl UpdateRow {
    /// The tests' first update of a minor incident `id` on the database, by `ops` at 1,000 ms.
    pub(crate) fn first_for_tests(id: &str) -> Self {
        Self {
            notice_id: id.into(),
            seq: 1,
            kind: NoticeKind::Incident,
            title: "Slow".into(),
            impact: Impact::Minor,
            components: "db".into(),
            check_incident: None,
            starts_at: None,
            ends_at: None,
            status: NoticeStatus::Investigating,
            body: "Looking.".into(),
            created_at: 1_000,
            author: "ops".into(),
            component_status: None,
            edited_at: None,
        }
    }
}

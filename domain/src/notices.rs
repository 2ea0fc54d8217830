//! What status operators write on the status page: incidents with a timeline of updates, and
//! scheduled maintenance windows. The server validates and stores them and writes them into the
//! status answers; the words each field may hold are defined here once.

use serde::{Deserialize, Serialize};

/// The role in the identity token's `roles` claim that makes a person a status operator.
pub const OPERATOR_ROLE: &str = "status-operator";
/// Longest title of an incident or window, in characters.
pub const MAX_TITLE_CHARS: usize = 120;
/// Longest update text (Markdown), in characters.
pub const MAX_BODY_CHARS: usize = 4000;

crate::vocabulary! {
    /// An incident's impact, as Statuspage spells it.
    #[derive(Default)]
    #[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "NoticeImpact"))]
    pub enum Impact("notice impact") {
        #[default]
        None = "none" => "None",
        Minor = "minor" => "Minor",
        Major = "major" => "Major",
        Critical = "critical" => "Critical",
        /// A maintenance window's impact.
        Maintenance = "maintenance" => "Maintenance",
    }
}

crate::vocabulary! {
    /// Where an incident or a maintenance window stands: the first four are an incident's, the
    /// last three a window's (Statuspage's words).
    #[derive(Default)]
    #[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "NoticeStatus"))]
    pub enum NoticeStatus("notice status") {
        #[default]
        Investigating = "investigating" => "Investigating",
        Identified = "identified" => "Identified",
        Monitoring = "monitoring" => "Monitoring",
        Resolved = "resolved" => "Resolved",
        Scheduled = "scheduled" => "Scheduled",
        InProgress = "in_progress" => "In progress",
        Completed = "completed" => "Completed",
    }
}

impl NoticeStatus {
    pub const INCIDENT: [NoticeStatus; 4] = [
        NoticeStatus::Investigating,
        NoticeStatus::Identified,
        NoticeStatus::Monitoring,
        NoticeStatus::Resolved,
    ];
    pub const MAINTENANCE: [NoticeStatus; 3] = [
        NoticeStatus::Scheduled,
        NoticeStatus::InProgress,
        NoticeStatus::Completed,
    ];

    /// Whether the notice is over at this status.
    pub fn is_final(self) -> bool {
        matches!(self, NoticeStatus::Resolved | NoticeStatus::Completed)
    }

    /// The statuses a notice of `kind` may take.
    pub fn of_kind(kind: NoticeKind) -> &'static [NoticeStatus] {
        match kind {
            NoticeKind::Incident => &Self::INCIDENT,
            NoticeKind::Maintenance => &Self::MAINTENANCE,
        }
    }
}

crate::vocabulary! {
    /// Incident or maintenance.
    #[derive(Default)]
    #[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "NoticeKind"))]
    pub enum NoticeKind("notice kind") {
        #[default]
        Incident = "incident",
        Maintenance = "maintenance",
    }
}

/// One entry of a notice's timeline.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
#[serde(default)]
pub struct NoticeUpdate {
    /// 1 for the first update.
    pub seq: i64,
    pub status: NoticeStatus,
    /// The operator's Markdown rendered to HTML that holds no raw HTML, no script and no link
    /// other than http(s) and mailto.
    pub body_html: String,
    pub created_at: String,
    /// When its text was last corrected (an operator's edit); `None` while it reads as posted.
    pub edited_at: Option<String>,
    /// The status this update declares for the notice's components (an incident's), if any.
    pub component_status: Option<crate::component_status::ComponentStatus>,
}

/// An incident or a maintenance window written by an operator.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
#[serde(default)]
pub struct Notice {
    pub id: String,
    pub kind: NoticeKind,
    pub title: String,
    pub impact: Impact,
    /// The status now: the latest update's, except that a maintenance window's follows its clock
    /// (scheduled before it starts, in progress during it, completed after it or once completed).
    pub status: NoticeStatus,
    /// Affected component ids.
    pub components: Vec<String>,
    /// The checks' incident (`Incident::id`) this one is attached to.
    pub check_incident: Option<String>,
    /// A maintenance window's start and end.
    pub starts_at: Option<String>,
    pub ends_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub resolved_at: Option<String>,
    /// The status an open incident declares for its components: its latest update's that declares
    /// one; null when none does, and once resolved (`crate::component_status`).
    pub component_status: Option<crate::component_status::ComponentStatus>,
    /// Newest first.
    pub updates: Vec<NoticeUpdate>,
}

impl Notice {
    /// Still open: an unresolved incident, or a window not completed.
    pub fn is_open(&self) -> bool {
        !self.status.is_final()
    }
}

/// A digest of `notices` as a page shows them: each one's id, status and last change, and its
/// updates' texts (FNV-1a, 16 hex digits). Equal digests: the same posts on the page.
pub fn digest(notices: &[Notice]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |text: &str| {
        for byte in text.bytes().chain([0]) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for notice in notices {
        add(&notice.id);
        add(notice.status.as_str());
        add(&notice.updated_at);
        for update in &notice.updates {
            add(&update.body_html);
        }
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_parses_back() {
        for status in NoticeStatus::INCIDENT
            .into_iter()
            .chain(NoticeStatus::MAINTENANCE)
        {
            assert_eq!(NoticeStatus::parse(status.as_str()), Some(status));
        }
        for impact in Impact::ALL {
            assert_eq!(Impact::parse(impact.as_str()), Some(*impact));
        }
        assert_eq!(NoticeStatus::parse("done"), None);
        let unknown = NoticeKind::try_from("outage".to_owned()).expect_err("not a kind");
        assert_eq!(unknown.to_string(), "'outage' is not a notice kind");
    }

    #[test]
    fn the_digest_changes_with_what_the_page_shows_of_the_posts() {
        let post = Notice {
            id: "a".into(),
            updates: vec![NoticeUpdate {
                body_html: "<p>Looking</p>".into(),
                ..NoticeUpdate::default()
            }],
            ..Notice::default()
        };
        let same = super::digest(std::slice::from_ref(&post));
        assert_eq!(same, super::digest(&[post.clone()][..]));
        assert_eq!(same.len(), 16);
        let mut corrected = post.clone();
        corrected.updates[0].body_html = "<p>Found it</p>".into();
        let mut resolved = post.clone();
        resolved.status = NoticeStatus::Resolved;
        for other in [corrected, resolved] {
            assert_ne!(super::digest(&[other]), same);
        }
        assert_ne!(super::digest(&[]), same);
    }
}

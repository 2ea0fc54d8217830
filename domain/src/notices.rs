//! What status operators write on the status page: incidents with a timeline of updates, and
//! scheduled maintenance windows. The server validates and stores them and writes them into the
//! status answers; the words each field may hold are defined here once.

use serde::{Deserialize, Serialize};

/// The role in the identity token's `roles` claim that makes a person a status operator.
pub const OPERATOR_ROLE: &str = "status-operator";

/// An incident's impact, as Statuspage spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "NoticeImpact"))]
#[serde(rename_all = "snake_case")]
pub enum Impact {
    #[default]
    None,
    Minor,
    Major,
    Critical,
    /// A maintenance window's impact.
    Maintenance,
}

/// Where an incident or a maintenance window stands: the first four are an incident's, the last
/// three a window's (Statuspage's words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "NoticeStatus"))]
#[serde(rename_all = "snake_case")]
pub enum NoticeStatus {
    #[default]
    Investigating,
    Identified,
    Monitoring,
    Resolved,
    Scheduled,
    InProgress,
    Completed,
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

    /// The word as stored and served (`in_progress`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            NoticeStatus::Investigating => "investigating",
            NoticeStatus::Identified => "identified",
            NoticeStatus::Monitoring => "monitoring",
            NoticeStatus::Resolved => "resolved",
            NoticeStatus::Scheduled => "scheduled",
            NoticeStatus::InProgress => "in_progress",
            NoticeStatus::Completed => "completed",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::INCIDENT
            .into_iter()
            .chain(Self::MAINTENANCE)
            .find(|status| status.as_str() == text)
    }

    /// Whether the notice is over at this status.
    pub fn is_final(self) -> bool {
        matches!(self, NoticeStatus::Resolved | NoticeStatus::Completed)
    }
}

impl Impact {
    pub const ALL: [Impact; 5] = [
        Impact::None,
        Impact::Minor,
        Impact::Major,
        Impact::Critical,
        Impact::Maintenance,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Impact::None => "none",
            Impact::Minor => "minor",
            Impact::Major => "major",
            Impact::Critical => "critical",
            Impact::Maintenance => "maintenance",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|impact| impact.as_str() == text)
    }
}

/// Incident or maintenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "NoticeKind"))]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    #[default]
    Incident,
    Maintenance,
}

impl NoticeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            NoticeKind::Incident => "incident",
            NoticeKind::Maintenance => "maintenance",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [NoticeKind::Incident, NoticeKind::Maintenance]
            .into_iter()
            .find(|kind| kind.as_str() == text)
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
    /// Newest first.
    pub updates: Vec<NoticeUpdate>,
}

impl Notice {
    /// Still open: an unresolved incident, or a window not completed.
    pub fn is_open(&self) -> bool {
        !self.status.is_final()
    }
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
            assert_eq!(Impact::parse(impact.as_str()), Some(impact));
        }
        assert_eq!(NoticeStatus::parse("done"), None);
    }
}

//! The status answers' bodies (`GET /api/status`, `/api/status/history`, `/api/status/page`): the
//! server serialises them, the browser core's status page reads them. Declared once, here, so the
//! two never drift.
//!
//! Every type reads with `#[serde(default)]`: a field the reader does not find (an older or newer
//! server) reads as its default instead of failing the answer. Fields the status page does not
//! show are `skip_deserializing`: the server only writes, the page is the one reader, and each
//! field read costs its `.wasm` (within a 40 KB budget) code to walk it; a field marked so reads as
//! its default, so a reader that starts showing one removes its mark.
//! The TypeScript declarations in the app's HTTP contract come from these types too (the `ts-rs`
//! feature, on in the server's test builds only).

use serde::{Deserialize, Serialize};

use crate::calendar::parse_utc_ms;

/// The components a status page can show, in display order: (id, name).
pub const COMPONENTS: [(&str, &str); 3] = [
    ("api", "API"),
    ("db", "Database"),
    ("queue", "Telekinesis queue"),
];

/// The display name of a component id (an id not in [`COMPONENTS`] is its own name).
pub fn component_name(id: &str) -> String {
    COMPONENTS
        .iter()
        .find(|(known, _)| *known == id)
        .map_or_else(|| id.to_owned(), |(_, name)| (*name).to_owned())
}

/// The state of a component, or of one viewpoint's view of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "ComponentState"))]
#[serde(rename_all = "snake_case")]
pub enum State {
    Operational,
    /// Viewpoints disagree: some see it failing, some do not.
    Degraded,
    Down,
    /// No current check (before the first one, or its viewpoints stopped checking).
    #[default]
    Unknown,
}

impl State {
    /// Whether a component in this state says something about now: `unknown` (no fresh check)
    /// does not, so it counts in no overall state.
    pub fn is_current(self) -> bool {
        self != State::Unknown
    }

    /// The component status the checks' state gives (step 1 of `crate::component_status`'s rule):
    /// operational, partial outage (viewpoints disagree), major outage; `None` without a current
    /// check.
    pub const fn measured_status(self) -> Option<crate::component_status::ComponentStatus> {
        use crate::component_status::ComponentStatus;
        match self {
            State::Operational => Some(ComponentStatus::Operational),
            State::Degraded => Some(ComponentStatus::PartialOutage),
            State::Down => Some(ComponentStatus::MajorOutage),
            State::Unknown => None,
        }
    }
}

/// Percent of each window the component was up as its viewpoints agree (3 decimals); null
/// without checks in the window.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
#[serde(default)]
pub struct Uptime {
    #[serde(rename = "24h")]
    pub day: Option<f64>,
    #[serde(rename = "7d")]
    pub week: Option<f64>,
    #[serde(rename = "30d")]
    pub month: Option<f64>,
    #[serde(rename = "90d")]
    pub quarter: Option<f64>,
}

/// Latency percentiles in milliseconds; null without checks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
#[serde(default)]
pub struct Latency {
    pub p50_ms: Option<f64>,
    pub p95_ms: Option<f64>,
}

/// One viewpoint's latest check of a component.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
#[serde(default)]
pub struct ViewpointState {
    pub instance_id: String,
    pub state: State,
    pub checked_at: String,
    pub latency_ms: f64,
    pub error: Option<String>,
    /// False when this viewpoint has not checked for three intervals.
    pub fresh: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "ComponentStatus"))]
#[serde(default)]
pub struct ComponentSummary {
    pub id: String,
    pub name: String,
    #[serde(skip_deserializing)]
    pub state: State,
    pub uptime: Uptime,
    /// Over the last 24 hours, every viewpoint's checks.
    pub latency_24h: Latency,
    pub last_checked_at: Option<String>,
    #[serde(skip_deserializing)]
    pub viewpoints: Vec<ViewpointState>,
    /// What the page states: the checks' `state` combined with the operators' declarations and the
    /// windows in progress (`crate::component_status`); null before any current check or
    /// declaration.
    pub status: Option<crate::component_status::ComponentStatus>,
    /// Why the status is not the measured one: "declared" (an open incident's declaration is worse
    /// than the checks), "maintenance" (a window in progress), or null.
    pub status_source: Option<String>,
    /// `status` and why, in the words every card shows (`ComponentStatus::words`,
    /// `component_status::source_note`: "Major outage", "Declared by the operators"), for the
    /// pages that do not load the status page's core (the landing's cards); the status page's core
    /// says the same from `status` with the same two functions.
    #[serde(skip_deserializing)]
    pub status_words: Option<String>,
    #[serde(skip_deserializing)]
    pub status_note: Option<String>,
}

/// An incident as the page shows it: the same component's overlapping incidents from several
/// viewpoints are one, listing the viewpoints that saw it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
#[serde(default)]
pub struct Incident {
    pub id: String,
    #[serde(skip_deserializing)]
    pub component: String,
    pub component_name: String,
    pub started_at: String,
    pub ended_at: Option<String>,
    pub first_error: String,
    #[serde(skip_deserializing)]
    pub viewpoints: Vec<String>,
}

impl Incident {
    /// When the incident started and ended, in unix milliseconds: read back from the times the
    /// server wrote (RFC 3339 in UTC, the form [`parse_utc_ms`] reads).
    pub fn span(&self) -> (i64, Option<i64>) {
        let ms = |time: &str| parse_utc_ms(time).unwrap_or_default();
        (ms(&self.started_at), self.ended_at.as_deref().map(ms))
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
#[serde(default)]
pub struct Viewpoint {
    pub instance_id: String,
    pub last_checked_at: String,
    pub fresh: bool,
}

/// The body of `GET /api/status`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "StatusSummary"))]
#[serde(default)]
pub struct Summary {
    #[serde(skip_deserializing)]
    pub state: State,
    pub updated_at: String,
    #[serde(skip_deserializing)]
    pub check_interval_seconds: i64,
    #[serde(skip_deserializing)]
    pub instance_id: String,
    pub components: Vec<ComponentSummary>,
    #[serde(skip_deserializing)]
    pub viewpoints: Vec<Viewpoint>,
    pub open_incidents: Vec<Incident>,
    /// Ended incidents of the last 90 days, newest first (at most 20).
    pub recent_incidents: Vec<Incident>,
    /// What operators wrote: open incidents, upcoming and running maintenance, then the latest
    /// resolved and completed ones (`crate::notices`), newest first within each group.
    #[serde(skip_deserializing)]
    pub notices: Vec<crate::notices::Notice>,
    /// A digest of `notices` (`crate::notices::digest`): it changes with every post, correction,
    /// and window that starts or ends, so a page holding older posts asks for them at once.
    pub notices_digest: String,
    /// The page's overall status (`crate::component_status::overall`): Statuspage's indicator
    /// (`none`, `minor`, `major`, `critical`, `maintenance`) and its words ("All Systems
    /// Operational"), from the components' `status`.
    pub indicator: String,
    pub description: String,
    /// The components this deployment does not check (the queue without a queue URL): the page
    /// says "not configured" for them, and operators are not offered them.
    pub not_configured: Vec<String>,
    /// How many of `notices` are open incidents (the page's sentence about the checks' incidents
    /// says so rather than "no incidents").
    pub open_operator_incidents: i64,
    /// The status page's absolute address, on the deployment's public origin (`PUBLIC_URL`).
    #[serde(skip_deserializing)]
    pub page_url: String,
}

/// The ranges of `GET /api/status/history`, as its `range` parameter and answers spell them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "StatusRange"))]
pub enum Range {
    /// 15-minute buckets.
    #[default]
    #[serde(rename = "24h")]
    Day,
    /// Hourly buckets.
    #[serde(rename = "7d")]
    Week,
    /// Daily buckets, with the incidents of each day.
    #[serde(rename = "90d")]
    Quarter,
}

impl Range {
    /// Every range, shortest first.
    pub const ALL: [Range; 3] = [Range::Day, Range::Week, Range::Quarter];

    /// How the `range` parameter names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Range::Day => "24h",
            Range::Week => "7d",
            Range::Quarter => "90d",
        }
    }

    /// The range a `range` parameter names, exactly as [`Range::as_str`] spells it.
    pub fn parse(text: &str) -> Option<Range> {
        Range::ALL.into_iter().find(|range| range.as_str() == text)
    }
}

/// One bar or point of a chart.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "HistoryPoint"))]
#[serde(default)]
pub struct Point {
    pub start: String,
    pub checks: i64,
    pub failures: i64,
    /// Percent of the bucket the component was up as its viewpoints agree; null without checks.
    pub uptime: Option<f64>,
    pub latency_p50_ms: Option<f64>,
    pub latency_p95_ms: Option<f64>,
    #[serde(skip_deserializing)]
    pub latency_max_ms: Option<f64>,
    /// Incidents overlapping the bucket (the 90-day range only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts-rs", ts(optional))]
    pub incidents: Option<usize>,
    /// The day's checks in hours that overlap a maintenance window of the component (the 90-day
    /// range only, on days with such checks). Those hours are left out of the day's `uptime`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts-rs", ts(optional))]
    pub maintenance: Option<DayMaintenance>,
}

/// What happened inside maintenance windows on one day of one component.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
#[serde(default)]
pub struct DayMaintenance {
    /// Failed checks (every viewpoint's) in hours that overlap a window.
    pub failures: i64,
    /// The windows' titles, in the order they start.
    pub windows: Vec<String>,
}

impl Point {
    /// Whether the day shows as maintenance on the status page's bars: checks failed inside
    /// maintenance windows and none outside them. A day with failures outside the windows too
    /// shows as its uptime (left out of which are the windows' hours) says, the maintenance noted.
    pub fn in_maintenance(&self) -> bool {
        self.maintenance
            .as_ref()
            .is_some_and(|m| m.failures > 0 && m.failures >= self.failures)
    }
}

/// The body of `GET /api/status/history`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "StatusHistory"))]
#[serde(default)]
pub struct History {
    #[serde(skip_deserializing)]
    pub component: String,
    #[serde(skip_deserializing)]
    pub range: Range,
    #[serde(skip_deserializing)]
    pub bucket_seconds: i64,
    pub points: Vec<Point>,
}

/// The body of `GET /api/status/page`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "StatusPage"))]
#[serde(default)]
pub struct PageBody {
    pub summary: Summary,
    pub history: Vec<PageHistory>,
    /// Null in the full answer; in an incremental one, the `since` it answers: each series then
    /// holds only its points from the bucket holding that time on, for the client to merge by `start`.
    pub since: Option<String>,
}

/// One component's two series on the status page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS), ts(rename = "StatusPageHistory"))]
#[serde(default)]
pub struct PageHistory {
    pub component: String,
    /// The 90-day range (daily buckets, with incidents).
    pub daily: History,
    /// The 24-hour range (15-minute buckets).
    pub recent: History,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_spelled_as_the_query_and_the_answers_spell_them() {
        for range in Range::ALL {
            assert_eq!(Range::parse(range.as_str()), Some(range));
            let json = serde_json::to_value(range).expect("serialise");
            assert_eq!(json, range.as_str());
        }
        assert_eq!(Range::parse("30d"), None);
    }

    #[test]
    fn a_reader_takes_what_it_finds_and_defaults_the_rest() {
        let page: PageBody = serde_json::from_str(
            r#"{"summary":{"updated_at":"2026-11-25T11:59:30.000Z","components":[{"id":"api",
            "state":"down","uptime":{"24h":100}}]},"history":[{"component":"api","daily":{"points":[{"start":"x",
            "checks":3,"incidents":1}]}}],"extra":true}"#,
        )
        .expect("a partial page reads");
        let api = &page.summary.components[0];
        assert_eq!(
            (api.state, api.uptime.day, api.uptime.week),
            (State::Unknown, Some(100.0), None)
        );
        let point = &page.history[0].daily.points[0];
        assert_eq!(
            (point.checks, point.failures, point.incidents),
            (3, 0, Some(1))
        );
        assert_eq!(page.since, None);
    }

    #[test]
    fn a_point_without_incidents_leaves_the_field_out() {
        let json = serde_json::to_string(&Point::default()).expect("serialise");
        assert!(!json.contains("incidents"), "{json}");
    }
}

//! What the summary and the answers are computed from: the day of raw checks held, the rollups,
//! incidents and the operators' notices, and the figures of the day made for one rendering.

use std::borrow::Cow;

use super::day::{DayFigures, DayParts};
use crate::store::checks::{IncidentRow, RawCheck, Rollup};

/// What the summary is computed from: the last 24 h of raw checks (of the viewpoints that checked
/// then), 90 days of the hours' rollups of every viewpoint together ([`COMBINED`]) and of what
/// they agreed on ([`AGREED`]), so a viewpoint gone for a day costs a round nothing, and incidents.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub raw: Vec<RawCheck>,
    pub hourly: Vec<Rollup>,
    pub incidents: Vec<IncidentRow>,
    /// What operators wrote that the answers carry: the open notices and a few recent ones, each
    /// with its newest updates (`store::current_notices`).
    pub notices: Vec<super::notices::StoredNotice>,
    /// The maintenance windows of the last 90 days, without their updates (the uptime figures
    /// leave their checks out).
    pub windows: Vec<crate::store::notices::NoticeRow>,
    /// The component statuses operators set without an incident, the one in force per component.
    pub declarations: Vec<crate::store::declarations::DeclarationRow>,
    /// The figures of `raw` made for this rendering (`publish`), from the last round's where its
    /// checks did not change; `None` outside a rendering, where `raw` may change.
    pub day: Option<DayFigures>,
}

impl Snapshot {
    /// The figures of the day held at agreement buckets of `bucket_ms`: those made for this
    /// rendering, or made now.
    pub fn day(&self, bucket_ms: i64) -> Cow<'_, DayFigures> {
        match &self.day {
            Some(day) if day.bucket_ms == bucket_ms => Cow::Borrowed(day),
            _ => Cow::Owned(DayFigures::build(self.parts(), bucket_ms, None)),
        }
    }
}

impl Snapshot {
    /// The parts the day's figures are made from.
    pub fn parts(&self) -> DayParts<'_> {
        DayParts {
            raw: &self.raw,
            hourly: &self.hourly,
            windows: &self.windows,
        }
    }
}

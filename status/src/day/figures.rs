//! The figures of one component's day: per agreement bucket, per quarter hour and per hour, and
//! what the summary and the series read of them.

use std::collections::{BTreeMap, HashSet};

use crate::{
    aggregate::{floor, Aggregate},
    agreement::{per_period, Cells, Downtime},
    store::checks::{RawCheck, Rollup},
};
use mg_platform::time::HOUR_MS;

/// The buckets of the day's series.
pub const QUARTER_HOUR_MS: i64 = 15 * 60_000;

/// What tells one set of checks from another in a bucket: checks are only ever added (stored late,
/// or held in memory for one rendering) or dropped whole as they age out of the day.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Fingerprint {
    pub(super) checks: usize,
    pub(super) at: i64,
    pub(super) latency: i64,
    pub(super) healthy: i64,
}

/// One agreement bucket: the smallest of its viewpoints' failure ratios over all their checks, and
/// over those outside the maintenance windows (`None`: every check was inside one).
#[derive(Debug, Clone, Copy)]
pub(super) struct Bucket {
    pub(super) print: Fingerprint,
    pub(super) all: f64,
    pub(super) outside: Option<f64>,
}

/// One quarter hour: every viewpoint's checks together (exact percentiles), each viewpoint's
/// latest check, and the viewpoints that checked in it.
#[derive(Debug, Clone)]
pub(super) struct Quarter {
    pub(super) print: Fingerprint,
    pub(super) aggregate: Aggregate,
    pub(super) latest: BTreeMap<String, RawCheck>,
}

/// The day of one component.
#[derive(Debug, Clone, Default)]
pub struct ComponentDay {
    pub(super) windows: Vec<(i64, i64)>,
    pub(super) buckets: BTreeMap<i64, Bucket>,
    pub(super) quarters: BTreeMap<i64, Quarter>,
    pub(super) latency_p50_us: i64,
    pub(super) latency_p95_us: i64,
    pub(super) checks: usize,
    /// Per hour with checks: whether more than one viewpoint checked in it.
    pub(super) several: BTreeMap<i64, bool>,
    /// The hours without a combined rollup, per viewpoint.
    pub(super) unrolled: Cells,
    /// Buckets and quarters whose figures this build computed (the rest were the last round's).
    pub(super) computed: usize,
}

impl ComponentDay {
    /// The agreed failure ratio of each agreement bucket with checks.
    pub fn downtime(&self) -> Downtime {
        self.buckets.iter().map(|(at, b)| (*at, b.all)).collect()
    }

    /// [`Self::downtime`] of the checks outside the component's maintenance windows.
    pub fn downtime_outside_windows(&self) -> Downtime {
        self.buckets
            .iter()
            .filter_map(|(at, b)| Some((*at, b.outside?)))
            .collect()
    }

    /// Per hour of `hours`, the mean of its agreement buckets' ratios (a bucket counts in the hour
    /// it starts in).
    pub fn hours_downtime(&self, hours: &HashSet<i64>) -> Downtime {
        let buckets = self
            .buckets
            .iter()
            .filter(|(at, _)| hours.contains(&floor(**at, HOUR_MS)))
            .map(|(at, b)| (*at, b.all))
            .collect();
        per_period(buckets, HOUR_MS)
    }

    /// Every viewpoint's checks of the quarter hour starting at `start` together.
    pub fn quarter(&self, start: i64) -> Option<Aggregate> {
        self.quarters.get(&start).map(|q| q.aggregate)
    }

    /// The hours with checks, each with whether several viewpoints checked in it.
    pub fn hours(&self) -> impl Iterator<Item = (i64, bool)> + '_ {
        self.several.iter().map(|(hour, several)| (*hour, *several))
    }

    /// The hours without a combined rollup, per viewpoint.
    pub fn unrolled(&self) -> &Cells {
        &self.unrolled
    }

    /// Each viewpoint's latest check, by viewpoint.
    pub fn latest(&self) -> BTreeMap<&str, &RawCheck> {
        let mut latest: BTreeMap<&str, &RawCheck> = BTreeMap::new();
        for quarter in self.quarters.values() {
            for (id, check) in &quarter.latest {
                let slot = latest.entry(id.as_str()).or_insert(check);
                if check.checked_at > slot.checked_at {
                    *slot = check;
                }
            }
        }
        latest
    }

    /// The day's latency percentiles (p50, p95) over every check, `None` without checks.
    pub fn latency(&self) -> Option<(i64, i64)> {
        (self.checks > 0).then_some((self.latency_p50_us, self.latency_p95_us))
    }
}

/// The parts of a snapshot (`snapshot::Snapshot::parts`) the day's figures are made from.
#[derive(Debug, Clone, Copy)]
pub struct DayParts<'a> {
    pub raw: &'a [RawCheck],
    pub hourly: &'a [Rollup],
    pub windows: &'a [crate::store::notices::NoticeRow],
}

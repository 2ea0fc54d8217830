//! The day of raw checks a round holds (`Snapshot::raw`), reduced once per round to what the
//! summary and the series read of it: per agreement bucket what the viewpoints agreed on (over
//! every check, and over those outside the component's maintenance windows), per quarter hour the
//! figures of every viewpoint's checks together and each viewpoint's latest check, the day's
//! latency percentiles, and the hours not rolled up yet, per viewpoint.
//!
//! A bucket or quarter whose checks are the ones it had in the last round (the same count and
//! sums) keeps the figures computed then ([`DayFigures::build`] with the last round's): a round
//! computes again only the few the checks stored since fell in. The day held grows with the
//! viewpoints; the work of a round with what they stored since the last one.

mod build;

use std::collections::{BTreeMap, HashSet};

use super::{
    aggregate::{floor, Aggregate},
    agreement::{per_period, Cells, Downtime, Snapshot},
};
use crate::store::checks::RawCheck;
use mg_platform::time::HOUR_MS;

/// The buckets of the day's series.
pub const QUARTER_HOUR_MS: i64 = 15 * 60_000;

/// What tells one set of checks from another in a bucket: checks are only ever added (stored late,
/// or held in memory for one rendering) or dropped whole as they age out of the day.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Fingerprint {
    checks: usize,
    at: i64,
    latency: i64,
    healthy: i64,
}

/// One agreement bucket: the smallest of its viewpoints' failure ratios over all their checks, and
/// over those outside the maintenance windows (`None`: every check was inside one).
#[derive(Debug, Clone, Copy)]
struct Bucket {
    print: Fingerprint,
    all: f64,
    outside: Option<f64>,
}

/// One quarter hour: every viewpoint's checks together (exact percentiles), each viewpoint's
/// latest check, and the viewpoints that checked in it.
#[derive(Debug, Clone)]
struct Quarter {
    print: Fingerprint,
    aggregate: Aggregate,
    latest: BTreeMap<String, RawCheck>,
}

/// The day of one component.
#[derive(Debug, Clone, Default)]
pub struct ComponentDay {
    windows: Vec<(i64, i64)>,
    buckets: BTreeMap<i64, Bucket>,
    quarters: BTreeMap<i64, Quarter>,
    latency_p50_us: i64,
    latency_p95_us: i64,
    checks: usize,
    /// Per hour with checks: whether more than one viewpoint checked in it.
    several: BTreeMap<i64, bool>,
    /// The hours without a combined rollup, per viewpoint.
    unrolled: Cells,
    /// Buckets and quarters whose figures this build computed (the rest were the last round's).
    computed: usize,
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

/// The day of every component with checks in it, at one agreement bucket length.
#[derive(Debug, Clone, Default)]
pub struct DayFigures {
    pub bucket_ms: i64,
    components: BTreeMap<String, ComponentDay>,
}

impl DayFigures {
    /// The figures of `snapshot`'s day at `bucket_ms`, keeping those of `last` (the last round's)
    /// for every bucket and quarter whose checks did not change.
    pub fn build(snapshot: &Snapshot, bucket_ms: i64, last: Option<Self>) -> Self {
        let mut last = last
            .filter(|last| last.bucket_ms == bucket_ms)
            .map(|last| last.components)
            .unwrap_or_default();
        let mut by_component: Vec<(&str, Vec<&RawCheck>)> = Vec::new();
        for check in &snapshot.raw {
            match by_component
                .iter_mut()
                .find(|(id, _)| *id == check.component)
            {
                Some((_, checks)) => checks.push(check),
                None => by_component.push((&check.component, vec![check])),
            }
        }
        let components = by_component
            .into_iter()
            .map(|(id, checks)| {
                let kept = last.remove(id).unwrap_or_default();
                let day = build::component_day(snapshot, id, &checks, bucket_ms, kept);
                (id.to_owned(), day)
            })
            .collect();
        Self {
            bucket_ms,
            components,
        }
    }

    /// Buckets and quarters whose figures this build computed rather than kept.
    pub fn computed(&self) -> usize {
        self.components.values().map(|day| day.computed).sum()
    }

    /// The day of `component`, `None` when it has no checks in it.
    pub fn component(&self, component: &str) -> Option<&ComponentDay> {
        self.components.get(component)
    }

    /// Every viewpoint's latest check of any component.
    pub fn last_seen(&self) -> BTreeMap<&str, i64> {
        let mut seen: BTreeMap<&str, i64> = BTreeMap::new();
        for day in self.components.values() {
            for (id, check) in day.latest() {
                let at = seen.entry(id).or_insert(check.checked_at);
                *at = (*at).max(check.checked_at);
            }
        }
        seen
    }
}

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
mod figures;
pub mod hours;

use std::collections::BTreeMap;

pub use self::figures::{ComponentDay, DayParts, QUARTER_HOUR_MS};
use crate::store::checks::RawCheck;

/// The day of every component with checks in it, at one agreement bucket length.
#[derive(Debug, Clone, Default)]
pub struct DayFigures {
    pub bucket_ms: i64,
    components: BTreeMap<String, ComponentDay>,
}

impl DayFigures {
    /// The figures of `snapshot`'s day at `bucket_ms`, keeping those of `last` (the last round's)
    /// for every bucket and quarter whose checks did not change.
    pub fn build(day: DayParts<'_>, bucket_ms: i64, last: Option<Self>) -> Self {
        let mut last = last
            .filter(|last| last.bucket_ms == bucket_ms)
            .map(|last| last.components)
            .unwrap_or_default();
        let mut by_component: Vec<(&str, Vec<&RawCheck>)> = Vec::new();
        for check in day.raw {
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
                let figures = build::component_day(day, id, &checks, bucket_ms, kept);
                (id.to_owned(), figures)
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

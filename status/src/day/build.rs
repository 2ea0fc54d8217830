//! Making a component's day figures from its checks, keeping the last round's where they did not
//! change.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::figures::{Bucket, ComponentDay, DayParts, Fingerprint, Quarter, QUARTER_HOUR_MS};
use crate::{
    aggregate::{floor, Aggregate},
    agreement::{add_cell, Cells, COMBINED},
    notices::maintenance_windows,
    store::checks::{RawCheck, Rollup},
};
use mg_platform::time::HOUR_MS;

impl Fingerprint {
    /// The fingerprint of the checks of `self` and of `other` together.
    fn plus(self, other: Self) -> Self {
        Self {
            checks: self.checks + other.checks,
            at: self.at.wrapping_add(other.at),
            latency: self.latency.wrapping_add(other.latency),
            healthy: self.healthy.wrapping_add(other.healthy),
        }
    }

    fn of(checks: &[&RawCheck]) -> Self {
        checks.iter().fold(
            Self {
                checks: checks.len(),
                ..Self::default()
            },
            |print, check| Self {
                at: print.at.wrapping_add(check.checked_at),
                latency: print.latency.wrapping_add(check.latency_us),
                healthy: print.healthy.wrapping_add(check.healthy),
                ..print
            },
        )
    }
}

/// The checks of each period of `period_ms` (by its start), each period's in the order given.
fn periods<'a>(checks: &[&'a RawCheck], period_ms: i64) -> BTreeMap<i64, Vec<&'a RawCheck>> {
    let mut periods: BTreeMap<i64, Vec<&RawCheck>> = BTreeMap::new();
    for check in checks {
        periods
            .entry(floor(check.checked_at, period_ms))
            .or_default()
            .push(check);
    }
    periods
}

pub(super) fn component_day(
    day: DayParts<'_>,
    component: &str,
    checks: &[&RawCheck],
    bucket_ms: i64,
    kept: ComponentDay,
) -> ComponentDay {
    let windows = maintenance_windows(day.windows, component);
    let outside = |check: &RawCheck| {
        !windows
            .iter()
            .any(|(start, end)| (*start..*end).contains(&check.checked_at))
    };
    // What was outside the windows may not be any more: their buckets are computed again.
    let kept_buckets = if kept.windows == windows {
        kept.buckets
    } else {
        BTreeMap::new()
    };
    let groups = periods(checks, bucket_ms);
    let computed = std::cell::Cell::new(0);
    let buckets: BTreeMap<i64, Bucket> = groups
        .iter()
        .map(|(start, checks)| {
            let print = Fingerprint::of(checks);
            let bucket = match kept_buckets.get(start) {
                Some(bucket) if bucket.print == print => *bucket,
                _ => {
                    computed.set(computed.get() + 1);
                    Bucket {
                        print,
                        all: agreed(checks.iter().copied()).unwrap_or(0.0),
                        outside: agreed(checks.iter().copied().filter(|c| outside(c))),
                    }
                }
            };
            (*start, bucket)
        })
        .collect();
    // Agreement buckets that nest in quarter hours (and so in hours), as the default minute does:
    // a quarter's checks are its buckets', and its fingerprint the sum of theirs, so an unchanged
    // quarter costs no walk of its checks.
    let nested = QUARTER_HOUR_MS % bucket_ms == 0;
    let in_period = |period_ms: i64| -> BTreeMap<i64, Vec<&RawCheck>> {
        if !nested {
            return periods(checks, period_ms);
        }
        let mut joined: BTreeMap<i64, Vec<&RawCheck>> = BTreeMap::new();
        for (start, checks) in &groups {
            joined
                .entry(floor(*start, period_ms))
                .or_default()
                .extend(checks);
        }
        joined
    };
    let mut kept_quarters = kept.quarters;
    let quarters: BTreeMap<i64, Quarter> = if nested {
        let mut prints: BTreeMap<i64, Fingerprint> = BTreeMap::new();
        for (start, bucket) in &buckets {
            let print = prints.entry(floor(*start, QUARTER_HOUR_MS)).or_default();
            *print = print.plus(bucket.print);
        }
        let changed: Vec<i64> = prints
            .iter()
            .filter(|(start, print)| kept_quarters.get(start).is_none_or(|q| q.print != **print))
            .map(|(start, _)| *start)
            .collect();
        let mut checks_of: BTreeMap<i64, Vec<&RawCheck>> = BTreeMap::new();
        computed.set(computed.get() + changed.len());
        for quarter in &changed {
            let checks = checks_of.entry(*quarter).or_default();
            for (_, group) in groups.range(*quarter..quarter + QUARTER_HOUR_MS) {
                checks.extend(group);
            }
        }
        prints
            .into_iter()
            .map(|(start, print)| {
                let quarter = match checks_of.get(&start) {
                    Some(checks) => quarter(print, checks),
                    None => kept_quarters
                        .remove(&start)
                        .unwrap_or_else(|| quarter(print, &[])),
                };
                (start, quarter)
            })
            .collect()
    } else {
        in_period(QUARTER_HOUR_MS)
            .into_iter()
            .map(|(start, checks)| {
                let print = Fingerprint::of(&checks);
                let quarter = match kept_quarters.remove(&start) {
                    Some(quarter) if quarter.print == print => quarter,
                    _ => {
                        computed.set(computed.get() + 1);
                        quarter(print, &checks)
                    }
                };
                (start, quarter)
            })
            .collect()
    };
    // Per hour: whether more than one viewpoint checked in it.
    let mut several: BTreeMap<i64, bool> = BTreeMap::new();
    let mut first: BTreeMap<i64, &str> = BTreeMap::new();
    for (start, quarter) in &quarters {
        let hour = floor(*start, HOUR_MS);
        for id in quarter.latest.keys() {
            let first = *first.entry(hour).or_insert(id.as_str());
            *several.entry(hour).or_insert(false) |= first != id.as_str();
        }
    }
    // The nearest ranks of `aggregate::percentile`, selected rather than sorted for.
    let mut latencies: Vec<i64> = checks.iter().map(|c| c.latency_us).collect();
    let at = |p: f64| {
        let rank = ((p / 100.0) * latencies.len() as f64).ceil() as usize;
        rank.clamp(1, latencies.len().max(1)) - 1
    };
    let (p50, p95) = (at(50.0), at(95.0));
    let (latency_p50_us, latency_p95_us) = if latencies.is_empty() {
        (0, 0)
    } else {
        let p50_us = *latencies.select_nth_unstable(p50).1;
        let p95_us = *latencies.select_nth_unstable(p95).1;
        (p50_us, p95_us)
    };
    ComponentDay {
        unrolled: unrolled_hours(day.hourly, component, in_period(HOUR_MS)),
        windows,
        buckets,
        quarters,
        latency_p50_us,
        latency_p95_us,
        checks: checks.len(),
        several,
        computed: computed.get(),
    }
}

/// The smallest of the viewpoints' failure ratios over `checks`, `None` without any.
fn agreed<'a>(checks: impl Iterator<Item = &'a RawCheck>) -> Option<f64> {
    let mut counts: Vec<(&str, i64, i64)> = Vec::new();
    for check in checks {
        let failed = i64::from(check.healthy == 0);
        match counts
            .iter_mut()
            .find(|(id, _, _)| *id == check.instance_id)
        {
            Some((_, n, failures)) => {
                *n += 1;
                *failures += failed;
            }
            None => counts.push((&check.instance_id, 1, failed)),
        }
    }
    counts
        .into_iter()
        .map(|(_, n, failures)| failures as f64 / n as f64)
        .min_by(f64::total_cmp)
}

fn quarter(print: Fingerprint, checks: &[&RawCheck]) -> Quarter {
    let mut latest: BTreeMap<String, RawCheck> = BTreeMap::new();
    for check in checks {
        match latest.get_mut(&check.instance_id) {
            Some(slot) if check.checked_at > slot.checked_at => *slot = (*check).clone(),
            Some(_) => {}
            None => {
                latest.insert(check.instance_id.clone(), (*check).clone());
            }
        }
    }
    Quarter {
        print,
        aggregate: Aggregate::of(checks.iter().copied()),
        latest,
    }
}

/// The hours of `hours` (a component's checks by hour) without a combined rollup of `component`,
/// per viewpoint (exact figures of each viewpoint's checks of the hour).
fn unrolled_hours(
    hourly: &[Rollup],
    component: &str,
    hours: BTreeMap<i64, Vec<&RawCheck>>,
) -> Cells {
    let rolled: BTreeSet<i64> = hourly
        .iter()
        .filter(|r| r.component == component && r.instance_id == COMBINED)
        .map(|r| r.bucket_start)
        .collect();
    let mut cells = Cells::new();
    for (hour, checks) in hours {
        if rolled.contains(&hour) {
            continue;
        }
        let mut by_viewpoint: HashMap<&str, Vec<&RawCheck>> = HashMap::new();
        for check in checks {
            by_viewpoint
                .entry(&check.instance_id)
                .or_default()
                .push(check);
        }
        for (viewpoint, checks) in by_viewpoint {
            add_cell(&mut cells, hour, viewpoint, Aggregate::of(checks));
        }
    }
    cells
}

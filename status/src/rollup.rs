//! The hourly and daily rollup rows of raw checks: each viewpoint's own, and what the viewpoints
//! agreed on.

use std::collections::BTreeMap;

use super::{
    aggregate::Aggregate,
    agreement::{agreed_down, AGREED, AGREED_SCALE, COMBINED},
};
use crate::store::checks::{RawCheck, Resolution, Rollup};

/// The rollups (one per component and instance present) of `checks`, all inside the period of
/// `resolution` starting at `bucket_start`.
pub fn rollups_of(resolution: Resolution, bucket_start: i64, checks: &[RawCheck]) -> Vec<Rollup> {
    let mut groups: BTreeMap<(&str, &str), Vec<&RawCheck>> = BTreeMap::new();
    for check in checks {
        groups
            .entry((check.component.as_str(), check.instance_id.as_str()))
            .or_default()
            .push(check);
    }
    groups
        .into_iter()
        .map(|((component, instance_id), group)| {
            let aggregate = Aggregate::of(group);
            Rollup {
                resolution,
                bucket_start,
                component: component.to_owned(),
                instance_id: instance_id.to_owned(),
                checks: aggregate.checks,
                failures: aggregate.failures,
                latency_p50_us: aggregate.p50_us,
                latency_p95_us: aggregate.p95_us,
                latency_max_us: aggregate.max_us,
            }
        })
        .collect()
}

/// The combined rollups (instance [`COMBINED`]) of `checks` of every viewpoint, one per component.
pub fn combined_rollups(
    resolution: Resolution,
    bucket_start: i64,
    checks: &[RawCheck],
) -> Vec<Rollup> {
    let together: Vec<RawCheck> = checks
        .iter()
        .map(|check| RawCheck {
            instance_id: COMBINED.to_owned(),
            ..check.clone()
        })
        .collect();
    rollups_of(resolution, bucket_start, &together)
}

/// The agreed rollups (instance [`AGREED`]) of an hour several viewpoints checked: per component,
/// `checks` counts the agreement buckets of `bucket_ms` with checks (times [`AGREED_SCALE`]) and
/// `failures` their summed agreed failure ratio in the same units; the latencies are every
/// viewpoint's together. A component one viewpoint alone checked gets none (its own rollup says
/// the same).
pub fn agreed_rollups(
    resolution: Resolution,
    bucket_start: i64,
    checks: &[RawCheck],
    bucket_ms: i64,
) -> Vec<Rollup> {
    let mut groups: BTreeMap<&str, Vec<&RawCheck>> = BTreeMap::new();
    for check in checks {
        groups
            .entry(check.component.as_str())
            .or_default()
            .push(check);
    }
    groups
        .into_iter()
        .filter(|(_, group)| {
            let first = &group[0].instance_id;
            group.iter().any(|c| &c.instance_id != first)
        })
        .map(|(component, group)| {
            let (buckets, down) = agreed_down(group.iter().copied(), bucket_ms);
            let aggregate = Aggregate::of(group);
            Rollup {
                resolution,
                bucket_start,
                component: component.to_owned(),
                instance_id: AGREED.to_owned(),
                checks: buckets * AGREED_SCALE,
                failures: (down * AGREED_SCALE as f64).round() as i64,
                latency_p50_us: aggregate.p50_us,
                latency_p95_us: aggregate.p95_us,
                latency_max_us: aggregate.max_us,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(component: &str, healthy: bool, latency_us: i64) -> RawCheck {
        RawCheck {
            component: component.into(),
            instance_id: "a".into(),
            checked_at: 0,
            healthy: i64::from(healthy),
            latency_us,
            error: None,
        }
    }

    #[test]
    fn a_rollup_counts_failures_and_latencies_per_component() {
        let mut checks: Vec<RawCheck> = (1..=20).map(|i| check("db", i != 3, i * 1000)).collect();
        checks.push(check("api", true, 5));
        let rollups = rollups_of(Resolution::Hour, 3_600_000, &checks);
        assert_eq!(rollups.len(), 2);
        let db = rollups.iter().find(|r| r.component == "db").expect("db");
        assert_eq!((db.checks, db.failures), (20, 1));
        assert_eq!(
            (db.latency_p50_us, db.latency_p95_us, db.latency_max_us),
            (10_000, 19_000, 20_000)
        );
    }
}

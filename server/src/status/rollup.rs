//! Aggregates of raw checks: exact percentiles, and the hourly/daily rollup rows computed from them.

use std::collections::BTreeMap;

use super::{
    store::{RawCheck, Rollup},
    summary::{agreed_down, AGREED, AGREED_SCALE},
};

/// The start of the period of length `period_ms` holding `t` (periods aligned to the unix epoch, so
/// hours and days are UTC hours and days).
pub fn floor(t: i64, period_ms: i64) -> i64 {
    t.div_euclid(period_ms) * period_ms
}

/// Nearest-rank percentile `p` (0-100] of sorted values; 0 for none.
pub fn percentile(sorted: &[i64], p: f64) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Count, failures and latency figures of a set of checks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Aggregate {
    pub checks: i64,
    pub failures: i64,
    pub p50_us: i64,
    pub p95_us: i64,
    pub max_us: i64,
}

impl Aggregate {
    /// Exact figures of `checks` (latencies of failed checks count too: a slow failure is slow).
    pub fn of<'a>(checks: impl IntoIterator<Item = &'a RawCheck>) -> Self {
        let mut latencies = Vec::new();
        let mut failures = 0;
        for check in checks {
            latencies.push(check.latency_us);
            failures += i64::from(check.healthy == 0);
        }
        latencies.sort_unstable();
        Self {
            checks: latencies.len() as i64,
            failures,
            p50_us: percentile(&latencies, 50.0),
            p95_us: percentile(&latencies, 95.0),
            max_us: latencies.last().copied().unwrap_or(0),
        }
    }

    /// Several viewpoints' aggregates as one: counts add up, the maximum is the largest, and the
    /// percentiles are the check-weighted mean of each one's (exact for a single viewpoint).
    pub fn combine(parts: &[Aggregate]) -> Self {
        let checks: i64 = parts.iter().map(|a| a.checks).sum();
        if checks == 0 {
            return Self::default();
        }
        let weighted = |f: fn(&Aggregate) -> i64| {
            let sum: i128 = parts
                .iter()
                .map(|a| i128::from(f(a)) * i128::from(a.checks))
                .sum();
            (sum / i128::from(checks)) as i64
        };
        Self {
            checks,
            failures: parts.iter().map(|a| a.failures).sum(),
            p50_us: weighted(|a| a.p50_us),
            p95_us: weighted(|a| a.p95_us),
            max_us: parts.iter().map(|a| a.max_us).max().unwrap_or(0),
        }
    }

    pub fn from_rollup(rollup: &Rollup) -> Self {
        Self {
            checks: rollup.checks,
            failures: rollup.failures,
            p50_us: rollup.latency_p50_us,
            p95_us: rollup.latency_p95_us,
            max_us: rollup.latency_max_us,
        }
    }

    /// Share of failed checks, 0.0-1.0.
    pub fn failure_ratio(&self) -> f64 {
        if self.checks == 0 {
            0.0
        } else {
            self.failures as f64 / self.checks as f64
        }
    }
}

/// The rollups (one per component and instance present) of `checks`, all inside the period of
/// `resolution` starting at `bucket_start`.
pub fn rollups_of(resolution: &str, bucket_start: i64, checks: &[RawCheck]) -> Vec<Rollup> {
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
                resolution: resolution.to_owned(),
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

/// The agreed rollups (instance [`AGREED`]) of an hour several viewpoints checked: per component,
/// `checks` counts the agreement buckets of `bucket_ms` with checks (times [`AGREED_SCALE`]) and
/// `failures` their summed agreed failure ratio in the same units; the latencies are every
/// viewpoint's together. A component one viewpoint alone checked gets none (its own rollup says
/// the same).
pub fn agreed_rollups(
    resolution: &str,
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
                resolution: resolution.to_owned(),
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
    fn percentiles_are_exact_nearest_rank_values() {
        let values: Vec<i64> = (1..=100).collect();
        assert_eq!(percentile(&values, 50.0), 50);
        assert_eq!(percentile(&values, 95.0), 95);
        assert_eq!(percentile(&[7], 95.0), 7);
        assert_eq!(percentile(&[], 50.0), 0);
    }

    #[test]
    fn a_rollup_counts_failures_and_latencies_per_component() {
        let mut checks: Vec<RawCheck> = (1..=20).map(|i| check("db", i != 3, i * 1000)).collect();
        checks.push(check("api", true, 5));
        let rollups = rollups_of("hour", 3_600_000, &checks);
        assert_eq!(rollups.len(), 2);
        let db = rollups.iter().find(|r| r.component == "db").expect("db");
        assert_eq!((db.checks, db.failures), (20, 1));
        assert_eq!(
            (db.latency_p50_us, db.latency_p95_us, db.latency_max_us),
            (10_000, 19_000, 20_000)
        );
        assert_eq!(floor(3_600_000 * 5 + 17, 3_600_000), 3_600_000 * 5);
    }

    #[test]
    fn combined_viewpoints_add_counts_and_weigh_percentiles_by_checks() {
        let a = Aggregate {
            checks: 3,
            failures: 1,
            p50_us: 10,
            p95_us: 20,
            max_us: 30,
        };
        let b = Aggregate {
            checks: 1,
            failures: 0,
            p50_us: 50,
            p95_us: 60,
            max_us: 70,
        };
        let both = Aggregate::combine(&[a, b]);
        assert_eq!((both.checks, both.failures, both.max_us), (4, 1, 70));
        assert_eq!((both.p50_us, both.p95_us), (20, 30));
    }
}

//! Aggregates of raw checks: exact percentiles, and counts and latencies of a set of checks.

use crate::store::checks::{RawCheck, Rollup};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_exact_nearest_rank_values() {
        let values: Vec<i64> = (1..=100).collect();
        assert_eq!(percentile(&values, 50.0), 50);
        assert_eq!(percentile(&values, 95.0), 95);
        assert_eq!(percentile(&[7], 95.0), 7);
        assert_eq!(percentile(&[], 50.0), 0);
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

//! What the viewpoints agree on: each checks on its own, and a component is down for a bucket only
//! as far as every viewpoint that checked then saw it down. The snapshot the summary and the series
//! are computed from, per-viewpoint cells of it, and the agreed failure ratios of those cells.

use std::collections::{BTreeMap, HashMap};

use super::aggregate::{floor, Aggregate};
use crate::store::checks::RawCheck;

/// Per-bucket accumulation of each viewpoint's checks.
pub type Cells = BTreeMap<i64, HashMap<String, Aggregate>>;

/// Adds `aggregate` to the cell of (`bucket`, `instance`).
pub fn add_cell(cells: &mut Cells, bucket: i64, instance: &str, aggregate: Aggregate) {
    let cell = cells
        .entry(bucket)
        .or_default()
        .entry(instance.to_owned())
        .or_default();
    *cell = Aggregate::combine(&[*cell, aggregate]);
}

/// The failure ratio all viewpoints agree on in a bucket: the smallest of their ratios (a
/// component is down for a bucket only as far as every viewpoint that checked then saw it down).
pub fn agreed_failure(cell: &HashMap<String, Aggregate>) -> Option<f64> {
    cell.values()
        .filter(|a| a.checks > 0)
        .map(Aggregate::failure_ratio)
        .min_by(f64::total_cmp)
}

/// Agreed failure ratio per bucket (start ms -> 0.0-1.0), only for buckets with checks.
pub type Downtime = BTreeMap<i64, f64>;

/// The agreed failure ratio of each cell.
pub fn downtime(cells: &Cells) -> Downtime {
    cells
        .iter()
        .filter_map(|(start, cell)| Some((*start, agreed_failure(cell)?)))
        .collect()
}

/// Uptime in percent over the buckets at or after `from` that have checks; `None` without any.
pub fn uptime(downtime: &Downtime, from: i64) -> Option<f64> {
    let ratios: Vec<f64> = downtime.range(from..).map(|(_, r)| *r).collect();
    (!ratios.is_empty()).then(|| {
        let down: f64 = ratios.iter().sum();
        round3(100.0 * (1.0 - down / ratios.len() as f64))
    })
}

/// The `instance_id` of the rollup rows holding what the viewpoints agreed on over a period
/// (`*` is not a valid `INSTANCE_ID`, so no viewpoint has it).
pub const AGREED: &str = "*";
/// The `instance_id` of the rollup rows of every viewpoint's checks of a period together (`+` is
/// not a valid `INSTANCE_ID` either): what the history reads of an hour once it is rolled up.
pub const COMBINED: &str = "+";
/// An agreed rollup counts each agreement bucket with checks as this many `checks`, and its
/// agreed failure ratio in the same units as `failures` (integer columns, 0.1% precision).
pub const AGREED_SCALE: i64 = 1000;

/// Agreed downtime of a set of checks (every viewpoint's, one component) over a longer period:
/// within each agreement bucket only the viewpoints that checked in it are compared, so a
/// viewpoint that was not running for part of the period cannot erase what the others saw then.
/// `(buckets with checks, summed agreed failure ratio)`.
pub fn agreed_down<'a>(
    checks: impl IntoIterator<Item = &'a RawCheck>,
    bucket_ms: i64,
) -> (i64, f64) {
    let mut cells = Cells::new();
    for check in checks {
        add_cell(
            &mut cells,
            floor(check.checked_at, bucket_ms),
            &check.instance_id,
            Aggregate::of([check]),
        );
    }
    let down = downtime(&cells);
    (down.len() as i64, down.values().sum())
}

/// Per period of `period_ms`, the mean of the ratios of the buckets in it.
pub fn per_period(minutes: Downtime, period_ms: i64) -> Downtime {
    let mut sums: BTreeMap<i64, (f64, usize)> = BTreeMap::new();
    for (start, ratio) in minutes {
        let sum = sums.entry(floor(start, period_ms)).or_default();
        sum.0 += ratio;
        sum.1 += 1;
    }
    sums.into_iter()
        .map(|(start, (down, n))| (start, down / n as f64))
        .collect()
}

pub fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

pub fn ms(us: i64) -> f64 {
    round3(us as f64 / 1000.0)
}

//! Each hour's agreed failure ratio and cells of one component: from its rollups once they are
//! stored, from the day's figures until then.

use std::collections::HashSet;

use super::figures::ComponentDay;
use crate::{
    aggregate::Aggregate,
    agreement::{add_cell, downtime, Cells, Downtime, AGREED, COMBINED},
    store::checks::Rollup,
};

/// The agreed failure ratio of each hour of one component. An hour several viewpoints checked is
/// read from its agreed rollup once one is stored; an hour of one viewpoint from the hour's
/// combined rollup (the same figure); an hour still missing either (the current one, one not
/// rolled up yet) from the raw checks of `day`, compared per agreement bucket.
pub fn hour_downtime(hourly: &[Rollup], day: Option<&ComponentDay>, component: &str) -> Downtime {
    let mut hours = downtime(&hour_cells(hourly, day, component));
    for r in hourly
        .iter()
        .filter(|r| r.component == component && r.instance_id == AGREED && r.checks > 0)
    {
        hours.insert(r.bucket_start, r.failures as f64 / r.checks as f64);
    }
    let Some(day) = day else {
        return hours;
    };
    let mut rolled: HashSet<(i64, &str)> = HashSet::new();
    for r in hourly.iter().filter(|r| r.component == component) {
        rolled.insert((r.bucket_start, r.instance_id.as_str()));
    }
    let from_raw: HashSet<i64> = day
        .hours()
        .filter(|(hour, several)| {
            let unrolled = !rolled.contains(&(*hour, COMBINED));
            let unagreed = *several && !rolled.contains(&(*hour, AGREED));
            unrolled || unagreed
        })
        .map(|(hour, _)| hour)
        .collect();
    if from_raw.is_empty() {
        return hours;
    }
    let measured = day.hours_downtime(&from_raw);
    for hour in from_raw {
        if let Some(ratio) = measured.get(&hour) {
            hours.insert(hour, *ratio);
        }
    }
    hours
}

/// Hourly cells of one component (counts and latencies): an hour rolled up as its combined rollup
/// (one cell, [`COMBINED`]), an hour not rolled up yet (the current hour, or one just ended) per
/// viewpoint from the raw checks of `day`.
pub fn hour_cells(hourly: &[Rollup], day: Option<&ComponentDay>, component: &str) -> Cells {
    let mut cells = Cells::new();
    for r in hourly
        .iter()
        .filter(|r| r.component == component && r.instance_id == COMBINED)
    {
        add_cell(
            &mut cells,
            r.bucket_start,
            &r.instance_id,
            Aggregate::from_rollup(r),
        );
    }
    for (hour, cell) in day.map(ComponentDay::unrolled).into_iter().flatten() {
        for (viewpoint, aggregate) in cell {
            add_cell(&mut cells, *hour, viewpoint, *aggregate);
        }
    }
    cells
}

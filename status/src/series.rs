//! The series behind `GET /api/status/history`: 24 h in 15-minute buckets from raw checks, 7 days
//! hourly from the hourly rollups, 90 days daily (with the incidents of each day).

use std::collections::HashMap;

use mg_domain::status::{DayMaintenance, History, Incident, Point, Range};

use super::{
    aggregate::{floor, Aggregate},
    agreement::{ms, per_period, round3, Cells, Downtime},
    day::{
        hours::{hour_cells, hour_downtime},
        ComponentDay, QUARTER_HOUR_MS,
    },
    notices::titled_windows,
    snapshot::Snapshot,
};
use mg_platform::time::{rfc3339, DAY_MS, HOUR_MS};

fn point(start: i64, aggregate: Option<Aggregate>, uptime: Option<f64>) -> Point {
    let aggregate = aggregate.filter(|a| a.checks > 0);
    Point {
        start: rfc3339(start),
        checks: aggregate.map_or(0, |a| a.checks),
        failures: aggregate.map_or(0, |a| a.failures),
        uptime: aggregate.and(uptime).map(|u| round3(100.0 * (1.0 - u))),
        latency_p50_ms: aggregate.map(|a| ms(a.p50_us)),
        latency_p95_ms: aggregate.map(|a| ms(a.p95_us)),
        latency_max_ms: aggregate.map(|a| ms(a.max_us)),
        incidents: None,
        maintenance: None,
    }
}

fn combined(cell: Option<&HashMap<String, Aggregate>>) -> Option<Aggregate> {
    cell.map(|c| Aggregate::combine(&c.values().copied().collect::<Vec<_>>()))
}

/// The `count` bucket starts of `bucket_ms` ending with the one holding `now`.
fn starts(now: i64, bucket_ms: i64, count: i64) -> impl Iterator<Item = i64> {
    let last = floor(now, bucket_ms);
    (0..count).rev().map(move |i| last - i * bucket_ms)
}

fn last_day(day: Option<&ComponentDay>, component: &str, now: i64) -> History {
    // Exact latency percentiles per bucket over every viewpoint's checks.
    let down = per_period(
        day.map(ComponentDay::downtime).unwrap_or_default(),
        QUARTER_HOUR_MS,
    );
    let points = starts(now, QUARTER_HOUR_MS, DAY_MS / QUARTER_HOUR_MS)
        .map(|start| {
            let aggregate = day.and_then(|day| day.quarter(start));
            point(start, aggregate, down.get(&start).copied())
        })
        .collect();
    History {
        component: component.to_owned(),
        range: Range::Day,
        bucket_seconds: QUARTER_HOUR_MS / 1000,
        points,
    }
}

fn last_week(hours: &Cells, down: &Downtime, component: &str, now: i64) -> History {
    let points = starts(now, HOUR_MS, 7 * 24)
        .map(|start| {
            point(
                start,
                combined(hours.get(&start)),
                down.get(&start).copied(),
            )
        })
        .collect();
    History {
        component: component.to_owned(),
        range: Range::Week,
        bucket_seconds: HOUR_MS / 1000,
        points,
    }
}

fn last_quarter(
    snapshot: &Snapshot,
    hours: &Cells,
    down: &Downtime,
    incidents: &[Incident],
    component: &str,
    now: i64,
) -> History {
    let windows = titled_windows(&snapshot.windows, component);
    let points = starts(now, DAY_MS, 90)
        .map(|start| {
            let end = start + DAY_MS;
            let day_hours: Vec<(i64, &HashMap<String, Aggregate>)> = hours
                .range(start..end)
                .map(|(at, cell)| (*at, cell))
                .collect();
            let (maintenance, down) = split_maintenance(&windows, &day_hours, down, start);
            // Counts and latencies from the hours.
            let counts: Vec<Aggregate> = day_hours
                .iter()
                .flat_map(|(_, c)| c.values().copied())
                .collect();
            let aggregate = Aggregate::combine(&counts);
            let mut p = point(start, Some(aggregate), down);
            p.maintenance = maintenance;
            p.incidents = Some(
                incidents
                    .iter()
                    .filter(|i| {
                        let (started, ended) = i.span();
                        i.component == component
                            && started < end
                            && ended.is_none_or(|e| e >= start)
                    })
                    .count(),
            );
            p
        })
        .collect();
    History {
        component: component.to_owned(),
        range: Range::Quarter,
        bucket_seconds: DAY_MS / 1000,
        points,
    }
}

/// One day's maintenance and its failure ratio outside the windows. The hours of the day (from
/// `start`) that overlap one of `windows` (start, end, title) are left out of the ratio, as out of
/// the summary's uptime; a day whose checked hours all overlap windows has the ratio 0 when none
/// of them failed (nothing failed, whatever is left out), else none. The maintenance is `None`
/// when no checked hour overlaps a window.
fn split_maintenance(
    windows: &[(i64, i64, &str)],
    day_hours: &[(i64, &HashMap<String, Aggregate>)],
    down: &Downtime,
    start: i64,
) -> (Option<DayMaintenance>, Option<f64>) {
    let overlaps =
        |hour: i64, (from, to, _): &(i64, i64, &str)| *from < hour + HOUR_MS && hour < *to;
    let inside = |hour: i64| windows.iter().any(|w| overlaps(hour, w));
    let (mut held, mut outside) = (Vec::new(), Vec::new());
    for (hour, ratio) in down.range(start..start + DAY_MS) {
        if inside(*hour) {
            &mut held
        } else {
            &mut outside
        }
        .push(*ratio);
    }
    let ratio = match (held.is_empty(), outside.is_empty()) {
        (_, false) => Some(outside.iter().sum::<f64>() / outside.len() as f64),
        (false, true) => held.iter().all(|r| *r == 0.0).then_some(0.0),
        (true, true) => None,
    };
    // Per checked hour inside a window: its failed checks (every viewpoint's).
    let checked: Vec<(i64, i64)> = day_hours
        .iter()
        .filter(|(hour, _)| inside(*hour))
        .map(|(hour, cell)| {
            (
                *hour,
                Aggregate::combine(&cell.values().copied().collect::<Vec<_>>()),
            )
        })
        .filter(|(_, aggregate)| aggregate.checks > 0)
        .map(|(hour, aggregate)| (hour, aggregate.failures))
        .collect();
    if checked.is_empty() {
        return (None, ratio);
    }
    let failures = checked.iter().map(|(_, failed)| failed).sum();
    // The windows the failed checks fell in; without failures, those the checks fell in.
    let titles = windows
        .iter()
        .filter(|w| {
            checked
                .iter()
                .any(|(hour, failed)| (failures == 0 || *failed > 0) && overlaps(*hour, w))
        })
        .map(|(_, _, title)| (*title).to_owned())
        .collect();
    (
        Some(DayMaintenance {
            failures,
            windows: titles,
        }),
        ratio,
    )
}

/// The three series of one component, in the order of [`Range::ALL`]; viewpoints are compared in
/// agreement buckets of `bucket_ms`.
pub fn histories(
    snapshot: &Snapshot,
    incidents: &[Incident],
    component: &str,
    now: i64,
    bucket_ms: i64,
) -> [History; 3] {
    let figures = snapshot.day(bucket_ms);
    let day = figures.component(component);
    let hours = hour_cells(&snapshot.hourly, day, component);
    let down = hour_downtime(&snapshot.hourly, day, component);
    [
        last_day(day, component, now),
        last_week(&hours, &down, component, now),
        last_quarter(snapshot, &hours, &down, incidents, component, now),
    ]
}

//! The status summary computed after each round of checks from what the database holds (every
//! viewpoint's checks, rollups and incidents): current states, uptimes, latencies, open incidents.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;

use super::{
    checks::COMPONENTS,
    rollup::{floor, Aggregate},
    store::{IncidentRow, RawCheck, Rollup, DAY_MS, HOUR_MS},
};
use crate::time::rfc3339;

/// What the summary is computed from: the last 24 h of raw checks and 90 days of rollups and incidents.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub raw: Vec<RawCheck>,
    pub hourly: Vec<Rollup>,
    pub daily: Vec<Rollup>,
    pub incidents: Vec<IncidentRow>,
}

/// Everything the summary needs besides the snapshot.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub now_ms: i64,
    pub interval_ms: i64,
    /// The components this instance checks (others appear when another viewpoint checks them).
    pub checked_here: &'a [&'static str],
}

/// How long a check stays current: three check intervals (of at least 10 s each). A viewpoint
/// whose last check is older is stale: its results say nothing about now, so they count in no
/// current state, and a component only stale viewpoints checked is `unknown` ("no longer checked").
/// The one freshness rule of the status answers and of the start-up check for a duplicate
/// `INSTANCE_ID`.
pub fn live_window_ms(interval_ms: i64) -> i64 {
    3 * interval_ms.max(10_000)
}

impl Context<'_> {
    /// A viewpoint whose last check is older than this is stale ([`live_window_ms`]).
    pub fn fresh_after(&self) -> i64 {
        self.now_ms - live_window_ms(self.interval_ms)
    }

    /// Checks of different viewpoints in the same bucket of this length are compared.
    pub fn agreement_bucket_ms(&self) -> i64 {
        self.interval_ms.max(60_000)
    }
}

/// The state of a component, or of one viewpoint's view of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ComponentState"))]
#[serde(rename_all = "snake_case")]
pub enum State {
    Operational,
    /// Viewpoints disagree: some see it failing, some do not.
    Degraded,
    Down,
    /// No current check (before the first one, or its viewpoints stopped checking).
    Unknown,
}

impl State {
    /// Whether a component in this state says something about now: `unknown` (no fresh check)
    /// does not, so it counts in no overall state.
    pub fn is_current(self) -> bool {
        self != State::Unknown
    }
}

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

/// Per period of `period_ms`, the mean over its agreement buckets of the agreed failure ratio.
pub fn raw_downtime(
    snapshot: &Snapshot,
    component: &str,
    bucket_ms: i64,
    period_ms: i64,
) -> Downtime {
    let minutes = downtime(&raw_cells(snapshot, component, bucket_ms));
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

/// The agreed failure ratio of each hour of one component. An hour several viewpoints checked is
/// read from its agreed rollup once one is stored; an hour of one viewpoint from that viewpoint's
/// rollup (the same figure); an hour still missing either (the current one, one not rolled up
/// yet) from the raw checks, compared per agreement bucket of `bucket_ms`.
pub fn hour_downtime(snapshot: &Snapshot, component: &str, bucket_ms: i64) -> Downtime {
    let mut hours = downtime(&hour_cells(snapshot, component));
    for r in snapshot
        .hourly
        .iter()
        .filter(|r| r.component == component && r.instance_id == AGREED && r.checks > 0)
    {
        hours.insert(r.bucket_start, r.failures as f64 / r.checks as f64);
    }
    let mut rolled: HashSet<(i64, &str)> = HashSet::new();
    for r in snapshot.hourly.iter().filter(|r| r.component == component) {
        rolled.insert((r.bucket_start, r.instance_id.as_str()));
    }
    let mut seen: BTreeMap<i64, BTreeSet<&str>> = BTreeMap::new();
    for check in snapshot.raw.iter().filter(|c| c.component == component) {
        seen.entry(floor(check.checked_at, HOUR_MS))
            .or_default()
            .insert(check.instance_id.as_str());
    }
    let from_raw = raw_downtime(snapshot, component, bucket_ms, HOUR_MS);
    for (hour, viewpoints) in seen {
        let unrolled = viewpoints.iter().any(|v| !rolled.contains(&(hour, *v)));
        let unagreed = viewpoints.len() > 1 && !rolled.contains(&(hour, AGREED));
        if unrolled || unagreed {
            if let Some(ratio) = from_raw.get(&hour) {
                hours.insert(hour, *ratio);
            }
        }
    }
    hours
}

pub fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

pub fn ms(us: i64) -> f64 {
    round3(us as f64 / 1000.0)
}

/// Hourly cells of one component, per viewpoint (counts and latencies): the hourly rollups, and
/// for hours a viewpoint has not rolled up yet (the current hour, or one just ended) its raw checks.
pub fn hour_cells(snapshot: &Snapshot, component: &str) -> Cells {
    let mut cells = Cells::new();
    for r in snapshot
        .hourly
        .iter()
        .filter(|r| r.component == component && r.instance_id != AGREED)
    {
        add_cell(
            &mut cells,
            r.bucket_start,
            &r.instance_id,
            Aggregate::from_rollup(r),
        );
    }
    let mut from_raw: BTreeMap<(i64, &str), Vec<&RawCheck>> = BTreeMap::new();
    for check in snapshot.raw.iter().filter(|c| c.component == component) {
        from_raw
            .entry((floor(check.checked_at, HOUR_MS), check.instance_id.as_str()))
            .or_default()
            .push(check);
    }
    for ((hour, instance), checks) in from_raw {
        let rolled = cells.get(&hour).is_some_and(|c| c.contains_key(instance));
        if !rolled {
            add_cell(&mut cells, hour, instance, Aggregate::of(checks));
        }
    }
    cells
}

/// Raw checks of one component in cells of `bucket_ms`.
pub fn raw_cells(snapshot: &Snapshot, component: &str, bucket_ms: i64) -> Cells {
    let mut cells = Cells::new();
    for check in snapshot.raw.iter().filter(|c| c.component == component) {
        add_cell(
            &mut cells,
            floor(check.checked_at, bucket_ms),
            &check.instance_id,
            Aggregate::of([check]),
        );
    }
    cells
}

/// Percent of each window the component was up as its viewpoints agree (3 decimals); null
/// without checks in the window.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Uptime {
    #[serde(rename = "24h")]
    pub day: Option<f64>,
    #[serde(rename = "7d")]
    pub week: Option<f64>,
    #[serde(rename = "30d")]
    pub month: Option<f64>,
    #[serde(rename = "90d")]
    pub quarter: Option<f64>,
}

/// Latency percentiles in milliseconds; null without checks.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Latency {
    pub p50_ms: Option<f64>,
    pub p95_ms: Option<f64>,
}

/// One viewpoint's latest check of a component.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ViewpointState {
    pub instance_id: String,
    pub state: State,
    pub checked_at: String,
    pub latency_ms: f64,
    pub error: Option<String>,
    /// False when this viewpoint has not checked for three intervals.
    pub fresh: bool,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ComponentStatus"))]
pub struct ComponentSummary {
    pub id: String,
    pub name: String,
    pub state: State,
    pub uptime: Uptime,
    /// Over the last 24 hours, every viewpoint's checks.
    pub latency_24h: Latency,
    pub last_checked_at: Option<String>,
    pub viewpoints: Vec<ViewpointState>,
}

/// An incident as the page shows it: the same component's overlapping incidents from several
/// viewpoints are one, listing the viewpoints that saw it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Incident {
    pub id: String,
    pub component: String,
    pub component_name: String,
    pub started_at: String,
    pub ended_at: Option<String>,
    #[serde(skip)]
    pub started_ms: i64,
    #[serde(skip)]
    pub ended_ms: Option<i64>,
    pub first_error: String,
    pub viewpoints: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Viewpoint {
    pub instance_id: String,
    pub last_checked_at: String,
    pub fresh: bool,
}

/// The body of `GET /api/status`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "StatusSummary"))]
pub struct Summary {
    pub state: State,
    pub updated_at: String,
    #[serde(skip)]
    pub updated_ms: i64,
    pub check_interval_seconds: i64,
    pub instance_id: String,
    pub components: Vec<ComponentSummary>,
    pub viewpoints: Vec<Viewpoint>,
    pub open_incidents: Vec<Incident>,
    /// Ended incidents of the last 90 days, newest first (at most 20).
    pub recent_incidents: Vec<Incident>,
}

/// The display name of a component id.
pub fn component_name(id: &str) -> String {
    COMPONENTS
        .iter()
        .find(|(known, _)| *known == id)
        .map_or_else(|| id.to_owned(), |(_, name)| (*name).to_owned())
}

/// The components to show: those checked here and those any viewpoint checked, in display order.
pub fn component_ids(snapshot: &Snapshot, context: &Context<'_>) -> Vec<String> {
    COMPONENTS
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| {
            context.checked_here.contains(id)
                || snapshot.raw.iter().any(|c| c.component == *id)
                || snapshot.hourly.iter().any(|r| r.component == *id)
        })
        .map(str::to_owned)
        .collect()
}

/// Overlapping incidents of one component (from any viewpoints) merged, newest first.
pub fn merge_incidents(rows: &[IncidentRow]) -> Vec<Incident> {
    let mut sorted: Vec<&IncidentRow> = rows.iter().collect();
    sorted.sort_by(|a, b| (&a.component, a.started_at).cmp(&(&b.component, b.started_at)));
    let mut merged: Vec<Incident> = Vec::new();
    for row in sorted {
        if let Some(last) = merged.last_mut() {
            let overlaps = last.component == row.component
                && last.ended_ms.is_none_or(|end| row.started_at <= end);
            if overlaps {
                last.ended_ms = match (last.ended_ms, row.ended_at) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
                if !last.viewpoints.contains(&row.instance_id) {
                    last.viewpoints.push(row.instance_id.clone());
                }
                continue;
            }
        }
        merged.push(Incident {
            id: format!("{}-{}", row.component, row.started_at),
            component: row.component.clone(),
            component_name: component_name(&row.component),
            started_at: rfc3339(row.started_at),
            ended_at: None,
            started_ms: row.started_at,
            ended_ms: row.ended_at,
            first_error: row.first_error.clone(),
            viewpoints: vec![row.instance_id.clone()],
        });
    }
    for incident in &mut merged {
        incident.ended_at = incident.ended_ms.map(rfc3339);
        incident.viewpoints.sort();
    }
    merged.sort_by_key(|i| std::cmp::Reverse(i.started_ms));
    merged
}

fn component_summary(snapshot: &Snapshot, context: &Context<'_>, id: &str) -> ComponentSummary {
    let now = context.now_ms;
    let mut latest: BTreeMap<&str, &RawCheck> = BTreeMap::new();
    let mut latencies = Vec::new();
    for check in snapshot.raw.iter().filter(|c| c.component == id) {
        latencies.push(check.latency_us);
        let slot = latest.entry(check.instance_id.as_str()).or_insert(check);
        if check.checked_at > slot.checked_at {
            *slot = check;
        }
    }
    latencies.sort_unstable();
    let viewpoints: Vec<ViewpointState> = latest
        .values()
        .map(|check| ViewpointState {
            instance_id: check.instance_id.clone(),
            state: if check.healthy != 0 {
                State::Operational
            } else {
                State::Down
            },
            checked_at: rfc3339(check.checked_at),
            latency_ms: ms(check.latency_us),
            error: check.error.clone(),
            fresh: check.checked_at >= context.fresh_after(),
        })
        .collect();
    let fresh: Vec<&ViewpointState> = viewpoints.iter().filter(|v| v.fresh).collect();
    let state = if fresh.is_empty() {
        State::Unknown
    } else if fresh.iter().all(|v| v.state == State::Operational) {
        State::Operational
    } else if fresh.iter().all(|v| v.state == State::Down) {
        State::Down
    } else {
        State::Degraded
    };
    let bucket = context.agreement_bucket_ms();
    let hours = hour_downtime(snapshot, id, bucket);
    let raw = downtime(&raw_cells(snapshot, id, bucket));
    let hour_now = floor(now, HOUR_MS);
    let percentile =
        |p| (!latencies.is_empty()).then(|| ms(super::rollup::percentile(&latencies, p)));
    ComponentSummary {
        id: id.to_owned(),
        name: component_name(id),
        state,
        uptime: Uptime {
            day: uptime(&raw, now - DAY_MS),
            week: uptime(&hours, hour_now - 7 * DAY_MS + HOUR_MS),
            month: uptime(&hours, hour_now - 30 * DAY_MS + HOUR_MS),
            quarter: uptime(&hours, hour_now - 90 * DAY_MS + HOUR_MS),
        },
        latency_24h: Latency {
            p50_ms: percentile(50.0),
            p95_ms: percentile(95.0),
        },
        last_checked_at: latest.values().map(|c| c.checked_at).max().map(rfc3339),
        viewpoints,
    }
}

/// Computes the summary.
pub fn summarize(snapshot: &Snapshot, context: &Context<'_>, instance_id: &str) -> Summary {
    let components: Vec<ComponentSummary> = component_ids(snapshot, context)
        .iter()
        .map(|id| component_summary(snapshot, context, id))
        .collect();
    let state = overall_state(components.iter().map(|c| c.state));
    let mut last_seen: BTreeMap<&str, i64> = BTreeMap::new();
    for check in &snapshot.raw {
        let seen = last_seen
            .entry(check.instance_id.as_str())
            .or_insert(check.checked_at);
        *seen = (*seen).max(check.checked_at);
    }
    let viewpoints = last_seen
        .into_iter()
        .map(|(id, at)| Viewpoint {
            instance_id: id.to_owned(),
            last_checked_at: rfc3339(at),
            fresh: at >= context.fresh_after(),
        })
        .collect();
    let (open, ended): (Vec<Incident>, Vec<Incident>) = merge_incidents(&snapshot.incidents)
        .into_iter()
        .partition(|i| i.ended_ms.is_none());
    Summary {
        state,
        updated_at: rfc3339(context.now_ms),
        updated_ms: context.now_ms,
        check_interval_seconds: context.interval_ms / 1000,
        instance_id: instance_id.to_owned(),
        components,
        viewpoints,
        open_incidents: open,
        recent_incidents: ended.into_iter().take(20).collect(),
    }
}

/// The page's overall state from the components still checked (a component no viewpoint checks
/// any more is left out: it would otherwise hold the page at `degraded` for as long as its rows are
/// kept): down when every one is down, degraded when any is not operational, unknown when none is
/// checked (before the first check).
pub fn overall_state(states: impl Iterator<Item = State>) -> State {
    let states: Vec<State> = states.filter(|s| s.is_current()).collect();
    if states.is_empty() {
        State::Unknown
    } else if states.iter().all(|s| *s == State::Operational) {
        State::Operational
    } else if states.iter().all(|s| *s == State::Down) {
        State::Down
    } else {
        State::Degraded
    }
}

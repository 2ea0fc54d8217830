//! The status summary computed after each round of checks from what the database holds (every
//! viewpoint's checks, rollups and incidents): current states, uptimes, latencies, open incidents.

use mg_domain::{
    component_status::{combine, overall, source_note, ComponentStatus},
    notices::{Notice, NoticeKind, NoticeStatus},
    status::{
        component_name, ComponentSummary, Incident, Latency, State, Summary, Uptime, Viewpoint,
        ViewpointState, COMPONENTS,
    },
};

use super::{
    aggregate::floor,
    agreement::{ms, per_period, uptime, Downtime},
    day::{hours::hour_downtime, ComponentDay, DayFigures},
    notices::{maintenance_windows, notices_at, overlaps_windows},
    snapshot::Snapshot,
};
use crate::store::{checks::IncidentRow, declarations::DeclarationRow};
use mg_platform::time::{rfc3339, DAY_MS, HOUR_MS};

/// Everything the summary needs besides the snapshot.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub now_ms: i64,
    pub interval_ms: i64,
    /// The components this instance checks (others appear when another viewpoint checks them).
    pub checked_here: &'a [&'static str],
    /// The status page's absolute address (`PUBLIC_URL` + `/apotheosis`): every link that leaves
    /// the site (Statuspage JSON, feed, badges, webhooks) is on it.
    pub page_url: &'a str,
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

/// The components to show: those checked here and those any viewpoint checked, in display order.
pub fn component_ids(snapshot: &Snapshot, day: &DayFigures, context: &Context<'_>) -> Vec<String> {
    COMPONENTS
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| {
            context.checked_here.contains(id)
                || day.component(id).is_some()
                || snapshot.hourly.iter().any(|r| r.component == *id)
        })
        .map(str::to_owned)
        .collect()
}

/// Overlapping incidents of one component (from any viewpoints) merged, newest first.
pub fn merge_incidents(rows: &[IncidentRow]) -> Vec<Incident> {
    let mut sorted: Vec<&IncidentRow> = rows.iter().collect();
    sorted.sort_by(|a, b| (&a.component, a.started_at).cmp(&(&b.component, b.started_at)));
    // Each merged incident as (its first row, its end: `None` while any part is open, viewpoints).
    let mut merged: Vec<(&IncidentRow, Option<i64>, Vec<String>)> = Vec::new();
    for row in sorted {
        if let Some((first, end, viewpoints)) = merged.last_mut() {
            let overlaps =
                first.component == row.component && end.is_none_or(|end| row.started_at <= end);
            if overlaps {
                *end = match (*end, row.ended_at) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
                if !viewpoints.contains(&row.instance_id) {
                    viewpoints.push(row.instance_id.clone());
                }
                continue;
            }
        }
        merged.push((row, row.ended_at, vec![row.instance_id.clone()]));
    }
    merged.sort_by_key(|(first, _, _)| std::cmp::Reverse(first.started_at));
    merged
        .into_iter()
        .map(|(first, end, mut viewpoints)| {
            viewpoints.sort();
            Incident {
                id: format!("{}-{}", first.component, first.started_at),
                component: first.component.clone(),
                component_name: component_name(&first.component),
                started_at: rfc3339(first.started_at),
                ended_at: end.map(rfc3339),
                first_error: first.first_error.clone(),
                viewpoints,
            }
        })
        .collect()
}

fn component_summary(
    snapshot: &Snapshot,
    day: &DayFigures,
    context: &Context<'_>,
    id: &str,
) -> ComponentSummary {
    let now = context.now_ms;
    let component_day = day.component(id);
    let latest = component_day.map(ComponentDay::latest).unwrap_or_default();
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
    // Checks made inside a maintenance window of the component are left out of its uptime, and
    // only they: the rest of an hour a window covers in part still counts.
    let windows = maintenance_windows(&snapshot.windows, id);
    let raw = component_day
        .map(ComponentDay::downtime_outside_windows)
        .unwrap_or_default();
    let mut hours = hour_downtime(&snapshot.hourly, component_day, id);
    // The snapshot holds the raw checks of the last day (`Snapshot`).
    let raw_from = now - DAY_MS;
    hours_outside_windows(
        &mut hours,
        &windows,
        per_period(raw.clone(), HOUR_MS),
        raw_from,
    );
    let hour_now = floor(now, HOUR_MS);
    let latency = component_day.and_then(ComponentDay::latency);
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
            p50_ms: latency.map(|(p50, _)| ms(p50)),
            p95_ms: latency.map(|(_, p95)| ms(p95)),
        },
        last_checked_at: latest.values().map(|c| c.checked_at).max().map(rfc3339),
        viewpoints,
        // Set by `with_status`, which sees the notices.
        status: state.measured_status(),
        status_source: None,
        status_words: None,
        status_note: None,
    }
}

/// `hours` (one component's agreed failure ratio per hour) with the checks inside `windows` left
/// out. An hour a window overlaps that the raw checks hold whole (those from `raw_from` on) is
/// measured again from `outside` (its raw checks outside the windows), or left out when none of
/// them is outside; an older hour, which only its rollup holds, cannot be split and is left out
/// whole.
fn hours_outside_windows(
    hours: &mut Downtime,
    windows: &[(i64, i64)],
    outside: Downtime,
    raw_from: i64,
) {
    hours.retain(|start, ratio| {
        if !overlaps_windows(windows, *start, start + HOUR_MS) {
            return true;
        }
        match outside.get(start) {
            Some(measured) if raw_from <= *start => {
                *ratio = *measured;
                true
            }
            _ => false,
        }
    });
}

/// Computes the summary.
pub fn summarize(snapshot: &Snapshot, context: &Context<'_>, instance_id: &str) -> Summary {
    let notices = notices_at(&snapshot.notices, context.now_ms);
    let day = snapshot.day(context.agreement_bucket_ms());
    let components: Vec<ComponentSummary> = component_ids(snapshot, &day, context)
        .iter()
        .map(|id| {
            let own = snapshot
                .declarations
                .iter()
                .find(|d| d.component == *id)
                .and_then(DeclarationRow::declared);
            with_status(
                component_summary(snapshot, &day, context, id),
                &notices,
                own,
            )
        })
        .collect();
    let state = overall_state(components.iter().map(|c| c.state));
    let (indicator, description) = overall(
        &components
            .iter()
            .filter(|c| c.state.is_current() || c.status_source.is_some())
            .map(|c| c.status)
            .collect::<Vec<_>>(),
    );
    let last_seen = day.last_seen();
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
        .partition(|i| i.ended_at.is_none());
    Summary {
        state,
        updated_at: rfc3339(context.now_ms),
        check_interval_seconds: context.interval_ms / 1000,
        instance_id: instance_id.to_owned(),
        components,
        viewpoints,
        open_incidents: open,
        recent_incidents: ended.into_iter().take(20).collect(),
        open_operator_incidents: notices
            .iter()
            .filter(|n| n.kind == NoticeKind::Incident && n.is_open())
            .count() as i64,
        notices_digest: mg_domain::notices::digest(&notices),
        notices,
        page_url: context.page_url.to_owned(),
        indicator: indicator.to_owned(),
        description: description.to_owned(),
        not_configured: COMPONENTS
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| !context.checked_here.contains(id))
            .map(str::to_owned)
            .collect(),
    }
}

/// `component` with the status the page states ([`mg_domain::component_status`]'s rule): its
/// measured state, a window in progress that names it, what its open incidents declare and the
/// status operators set on it by itself (`own`).
fn with_status(
    mut component: ComponentSummary,
    notices: &[Notice],
    own: Option<ComponentStatus>,
) -> ComponentSummary {
    let naming = |n: &&Notice| n.components.contains(&component.id);
    let in_maintenance = notices
        .iter()
        .filter(naming)
        .any(|n| n.kind == NoticeKind::Maintenance && n.status == NoticeStatus::InProgress);
    let declared: Vec<ComponentStatus> = notices
        .iter()
        .filter(naming)
        .filter(|n| n.kind == NoticeKind::Incident && n.is_open())
        .filter_map(|n| n.component_status)
        .chain(own)
        .collect();
    let measured = component.state.measured_status();
    let status = combine(measured, in_maintenance, declared.iter().copied());
    component.status_source = if status == measured {
        None
    } else if status == Some(ComponentStatus::UnderMaintenance) {
        Some("maintenance".to_owned())
    } else {
        Some("declared".to_owned())
    };
    component.status = status;
    component.status_words = status.map(|s| s.words().to_owned());
    component.status_note = status
        .is_some()
        .then(|| source_note(component.status_source.as_deref()).to_owned())
        .filter(|note| !note.is_empty());
    component
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

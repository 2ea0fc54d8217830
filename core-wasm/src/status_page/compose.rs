//! The page's view composed from what the machine knows: the server's last summary and the series
//! held, the last request's failure, and the live values of this browser's checks.

use super::{
    notices::Notices,
    view::{
        tone_of, CardView, DayBar, HistoryView, IncidentView, LatencyRow, LiveValue, StatusView,
        Tone, UptimeCell,
    },
    wire::{ComponentSummary, Held, Incident, Point, Summary, DAYS},
    wording::{
        clock, count, duration, format_day, format_ms, format_uptime, iso_day, number, parse_time,
        stamp,
    },
};
use crate::{
    health::{health_label, HealthValue},
    text::join,
};
use mg_domain::{calendar::DAY_MS, component_status::ComponentStatus};

/// What the machine knows that the page shows.
#[derive(Debug, Clone, Copy)]
pub struct Known<'a> {
    /// No API to ask (an ethereal deployment whose checks are not forced).
    pub ethereal: bool,
    /// This browser has the queue's address to check it itself.
    pub queue_known: bool,
    pub summary: Option<&'a Summary>,
    pub history: &'a [Held],
    /// The last status request's failure, cleared by a good answer.
    pub error: Option<&'a str>,
    /// The clock of the last round, for "today" on the bars.
    pub now_ms: u64,
    pub notices: &'a Notices,
}

/// The three cards: id, name, and whether nothing is checked for it. Once the server answered,
/// what it checks is its answer's (`not_configured`), not this page's settings. Before, an ethereal
/// deployment (no API, so no server to ask) has no checked card, and the queue's card takes the
/// short shape when this page has no queue address, only to reserve its height (no layout shift
/// when the answer agrees): its words wait for the server's answer.
pub fn cards(known: &Known<'_>) -> [(&'static str, &'static str, bool); 3] {
    let unchecked = |id: &str| match known.summary {
        _ if known.ethereal => true,
        Some(summary) => summary.not_configured.iter().any(|c| c == id),
        None => id == "queue" && !known.queue_known,
    };
    mg_domain::status::COMPONENTS.map(|(id, name)| (id, name, unchecked(id)))
}

/// Each card's live value (`health`: api, db, queue) and its word. The queue this browser cannot
/// check (it has no address for it) shows what the server measured of it, if it checks it.
pub fn live_values(known: &Known<'_>, health: [HealthValue; 3]) -> Vec<LiveValue> {
    cards(known)
        .into_iter()
        .zip(health)
        .map(|((id, _, unchecked), health)| {
            let measured = known
                .summary
                .and_then(|s| s.components.iter().find(|c| c.id == id))
                .and_then(|c| c.status);
            let health = match measured {
                Some(status) if id == "queue" && !known.queue_known && !unchecked => {
                    if status == ComponentStatus::Operational {
                        HealthValue::Healthy
                    } else {
                        HealthValue::Unhealthy
                    }
                }
                _ => health,
            };
            let unchecked =
                unchecked || (id == "queue" && !known.queue_known && measured.is_none());
            LiveValue {
                id: id.to_owned(),
                health,
                label: health_label(health, unchecked).to_owned(),
            }
        })
        .collect()
}

/// What the page shows now, besides the live values.
pub fn status_view(known: &Known<'_>) -> StatusView {
    let cards = cards(known)
        .into_iter()
        .map(|(id, name, unchecked)| card(known, id, name, unchecked))
        .collect();
    let (incidents, incidents_message) = match known.summary {
        None if known.error.is_some() => (
            Vec::new(),
            Some("The incident list is unavailable right now.".to_owned()),
        ),
        None => (Vec::new(), Some("Loading incidents…".to_owned())),
        Some(summary) => {
            let all: Vec<IncidentView> = summary
                .open_incidents
                .iter()
                .chain(&summary.recent_incidents)
                .map(incident_view)
                .collect();
            // The checks' list is empty; the operators' open incidents are listed with the
            // notices, and this sentence must not contradict them.
            let message = all.is_empty().then(|| {
                match summary.open_operator_incidents {
                    0 => "No incidents in the last 90 days.",
                    1 => "The checks found no outage in the last 90 days; the operators' open incident is listed below.",
                    _ => "The checks found no outage in the last 90 days; the operators' open incidents are listed below.",
                }
                .to_owned()
            });
            (all, message)
        }
    };
    let overall = known
        .summary
        .filter(|s| !known.ethereal && !s.description.is_empty());
    StatusView {
        overall: overall.map(|s| s.description.clone()),
        overall_indicator: overall.map(|s| s.indicator.clone()),
        notices_html: known.notices.html().map(str::to_owned),
        notices_message: known.notices.message().map(str::to_owned),
        cards,
        show_incidents: !known.ethereal,
        incidents,
        incidents_message,
    }
}

fn card(known: &Known<'_>, id: &str, name: &str, unchecked: bool) -> CardView {
    let absent = match id {
        "queue" if unchecked && !known.ethereal && known.summary.is_none() => {
            "Waiting for the server to say whether this deployment checks a Telekinesis queue."
        }
        "queue" if unchecked && !known.ethereal => {
            "The server checks no Telekinesis queue: none is configured for this deployment."
        }
        "queue" if known.ethereal => {
            "No Telekinesis queue is configured for this deployment, so it has no history."
        }
        "queue" => "The server has not checked the queue yet.",
        "api" if known.ethereal => "Ethereal deployments have no API, so nothing is checked.",
        "api" => "The server has not checked its API yet.",
        _ if known.ethereal => "Ethereal deployments have no database, so nothing is checked.",
        _ => "This deployment has no database to check.",
    };
    let status = known
        .summary
        .and_then(|s| s.components.iter().find(|c| c.id == id));
    let history_message = if status.is_some() {
        String::new()
    } else if known.summary.is_some() {
        absent.to_owned()
    } else if let Some(error) = known.error {
        join(&[
            "History unavailable right now (",
            error,
            "). The live state above still updates every 30 seconds.",
        ])
    } else {
        "Loading history…".to_owned()
    };
    let figures = status.map(|s| s.uptime.clone()).unwrap_or_default();
    let uptime = [
        ("24 h", figures.day),
        ("7 days", figures.week),
        ("30 days", figures.month),
        ("90 days", figures.quarter),
    ]
    .into_iter()
    .map(|(label, value)| UptimeCell {
        label: label.to_owned(),
        value: format_uptime(value).unwrap_or_else(|| "—".to_owned()),
    })
    .collect();
    let checked_at = status.and_then(|s| s.last_checked_at.clone());
    let stated = status.and_then(|s| s.status);
    CardView {
        id: id.to_owned(),
        name: name.to_owned(),
        unchecked,
        note: if unchecked {
            absent.to_owned()
        } else {
            String::new()
        },
        checked_clock: checked_at
            .as_deref()
            .and_then(parse_time)
            .map(|ms| join(&[&clock(ms), " UTC"])),
        checked_at,
        uptime,
        status: stated.map(|s| s.words().to_owned()),
        status_key: stated.map(|s| s.as_str().to_owned()),
        status_note: mg_domain::component_status::source_note(
            status.and_then(|s| s.status_source.as_deref()),
        )
        .to_owned(),
        history: status.map(|s| history_view(known, id, name, s)),
        history_message,
    }
}

fn history_view(known: &Known<'_>, id: &str, name: &str, status: &ComponentSummary) -> HistoryView {
    let held = known.history.iter().find(|held| held.component == id);
    let latency = &status.latency_24h;
    let (bars, bars_message) = match held {
        Some(held) => (day_bars(&held.daily, known.now_ms), None),
        None => (Vec::new(), Some("Loading history…".to_owned())),
    };
    let empty = held.is_some() && bars.iter().all(|bar| bar.tone == Tone::None);
    let rows: Vec<LatencyRow> = held
        .map(|held| held.recent.iter().map(latency_row).collect())
        .unwrap_or_default();
    let latency_message = if held.is_none() {
        Some("Loading latency…".to_owned())
    } else if rows.iter().all(|row| row.checks == 0) {
        Some("No checks recorded yet".to_owned())
    } else {
        None
    };
    HistoryView {
        bars_summary: bars_summary(name, &bars, status.uptime.quarter),
        bars,
        bars_message,
        empty,
        p50_text: format_ms(latency.p50_ms),
        p95_text: format_ms(latency.p95_ms),
        latency: rows,
        latency_message,
    }
}

/// Exactly [`DAYS`] bars, oldest first, the last one the UTC day of `now_ms`. Days the server sent
/// fill their bar; any other day of the window is a "no data" bar.
pub fn day_bars(daily: &[Point], now_ms: u64) -> Vec<DayBar> {
    let today = now_ms as i64 / DAY_MS;
    (0..DAYS as i64)
        .rev()
        .map(|back| {
            let date = iso_day(today - back);
            let point = daily
                .iter()
                .rev()
                .find(|p| p.start.get(..10) == Some(date.as_str()));
            let point = point.filter(|p| p.checks > 0);
            let uptime = point.and_then(|p| p.uptime);
            let incidents = point.and_then(|p| p.incidents).unwrap_or(0) as u32;
            let day = format_day(today - back);
            let incidents_text = count(u64::from(incidents), "incident", "incidents");
            let maintenance = point.and_then(maintenance_text);
            let in_maintenance = point.is_some_and(|p| p.in_maintenance());
            let detail = match (uptime, &maintenance) {
                (_, Some(m)) if in_maintenance => join(&[m, ", ", &incidents_text]),
                (None, _) => "no data".to_owned(),
                (Some(u), m) => {
                    let figure = format_uptime(Some(u)).unwrap_or_default();
                    let text = join(&[&figure, " uptime, ", &incidents_text]);
                    match m {
                        Some(m) => join(&[&text, "; ", m]),
                        None => text,
                    }
                }
            };
            DayBar {
                label: join(&[&day, ": ", &detail]),
                tone: if in_maintenance {
                    Tone::Maintenance
                } else {
                    tone_of(uptime)
                },
                uptime,
                incidents,
                date,
                day,
                detail,
            }
        })
        .collect()
}

/// "Maintenance: 2 failed checks during 'Database upgrade'", for a day with failed checks inside
/// maintenance windows.
fn maintenance_text(point: &Point) -> Option<String> {
    let maintenance = point.maintenance.as_ref().filter(|m| m.failures > 0)?;
    let mut text = join(&[
        "Maintenance: ",
        &count(maintenance.failures as u64, "failed check", "failed checks"),
    ]);
    for (at, title) in maintenance.windows.iter().enumerate() {
        text = join(&[&text, if at == 0 { " during '" } else { ", '" }, title, "'"]);
    }
    Some(text)
}

/// One sentence for screen readers: the period's figure (saying that checks inside maintenance
/// windows are left out of it), the days with data, with incidents and in maintenance.
pub fn bars_summary(name: &str, bars: &[DayBar], uptime90: Option<f64>) -> String {
    let checked = bars.iter().filter(|bar| bar.tone != Tone::None).count();
    if checked == 0 {
        return join(&[name, ": no checks recorded in the last 90 days yet."]);
    }
    let lowest = bars
        .iter()
        .filter_map(|bar| Some((bar, bar.uptime?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(bar, low)| {
            join(&[
                ", lowest day ",
                &bar.day,
                " at ",
                &format_uptime(Some(low)).unwrap_or_default(),
            ])
        })
        .unwrap_or_default();
    let days_with = |tone: Option<Tone>| {
        number(
            bars.iter()
                .filter(|bar| tone.map_or(bar.incidents > 0, |tone| bar.tone == tone))
                .count() as u64,
        )
    };
    let figure = match format_uptime(uptime90) {
        Some(figure) => join(&[&figure, " uptime"]),
        None => "uptime not known".to_owned(),
    };
    join(&[
        name,
        ", last 90 days: ",
        &figure,
        " (checks inside maintenance windows left out), ",
        &count(checked as u64, "day", "days"),
        " with checks, ",
        &days_with(None),
        " with incidents, ",
        &days_with(Some(Tone::Maintenance)),
        " in maintenance",
        &lowest,
        ".",
    ])
}

fn latency_row(point: &Point) -> LatencyRow {
    let checked = point.checks > 0;
    let p50 = point.latency_p50_ms.filter(|_| checked);
    let p95 = point.latency_p95_ms.filter(|_| checked);
    LatencyRow {
        start: point.start.clone(),
        clock: parse_time(&point.start).map(clock).unwrap_or_default(),
        p50_text: format_ms(p50),
        p95_text: format_ms(p95),
        p50,
        p95,
        checks: point.checks.max(0) as u64,
        failures: point.failures.max(0) as u64,
    }
}

fn incident_view(incident: &Incident) -> IncidentView {
    let started = parse_time(&incident.started_at);
    let ended = incident.ended_at.as_deref().and_then(parse_time);
    let ongoing = incident.ended_at.is_none();
    let tail = match (started, ended) {
        (Some(from), Some(to)) => join(&[" UTC (", &duration(from, to), ")"]),
        _ if ongoing => " UTC, still open".to_owned(),
        _ => " UTC".to_owned(),
    };
    IncidentView {
        id: incident.id.clone(),
        component_name: incident.component_name.clone(),
        ongoing,
        state: if ongoing { "Ongoing" } else { "Resolved" }.to_owned(),
        started_at: incident.started_at.clone(),
        started: started.map(stamp).unwrap_or_default(),
        ended_at: incident.ended_at.clone().unwrap_or_default(),
        ended: ended.map(stamp).unwrap_or_default(),
        tail,
        error: incident.first_error.clone(),
    }
}

//! `/api/v2/summary.json` and `/api/v2/status.json` in Atlassian Statuspage's public shape, so tools
//! that already read Statuspage pages can read this one.

use serde_json::{json, Value};

use mg_domain::{
    notices::{Notice, NoticeKind, NoticeStatus},
    status::{Incident, State, Summary},
};

/// Page id used in every object (Statuspage ids are opaque strings).
const PAGE_ID: &str = "mg-web";
/// The status page's path, which every answer links to. The one route fact of the status answers,
/// kept here because they read no build output (the route catalogue is app/common/routes.ts).
pub const PAGE_URL: &str = "/apotheosis";
/// Incidents and maintenance windows listed at most, as Statuspage lists them.
const LISTED: usize = 50;

fn page(summary: &Summary) -> Value {
    json!({
        "id": PAGE_ID,
        "name": "mg-web",
        "url": PAGE_URL,
        "time_zone": "Etc/UTC",
        "updated_at": summary.updated_at,
    })
}

/// Statuspage's component status for ours.
pub fn component_status(state: State) -> &'static str {
    match state {
        State::Operational => "operational",
        State::Degraded => "partial_outage",
        State::Down => "major_outage",
        // Nothing current to go by: say so mildly rather than claim an outage.
        State::Unknown => "degraded_performance",
    }
}

/// The page's indicator and description, from the overall state (which leaves out components no
/// viewpoint checks any more): none, minor (something degraded, or nothing checked yet), major (a
/// component down), critical (every component down).
fn indicator(summary: &Summary) -> Value {
    let any_down = summary.components.iter().any(|c| c.state == State::Down);
    let (indicator, description) = match summary.state {
        State::Operational => ("none", "All Systems Operational"),
        State::Down => ("critical", "Major System Outage"),
        State::Degraded if any_down => ("major", "Partial System Outage"),
        State::Degraded | State::Unknown => ("minor", "Minor Service Outage"),
    };
    json!({ "indicator": indicator, "description": description })
}

fn incident(incident: &Incident, summary: &Summary) -> Value {
    let component = summary
        .components
        .iter()
        .find(|c| c.id == incident.component);
    json!({
        "id": incident.id,
        "name": format!("{} unavailable", incident.component_name),
        "status": if incident.ended_at.is_some() { "resolved" } else { "investigating" },
        "created_at": incident.started_at,
        "updated_at": incident.ended_at.as_ref().unwrap_or(&incident.started_at),
        "monitoring_at": null,
        "resolved_at": incident.ended_at,
        "started_at": incident.started_at,
        "impact": "major",
        "shortlink": PAGE_URL,
        "page_id": PAGE_ID,
        "incident_updates": [{
            "id": format!("{}-first", incident.id),
            "status": "investigating",
            "body": incident.first_error,
            "incident_id": incident.id,
            "created_at": incident.started_at,
            "updated_at": incident.started_at,
            "display_at": incident.started_at,
        }],
        "components": component.map(|c| vec![json!({
            "id": c.id, "name": c.name, "status": component_status(c.state),
        })]).unwrap_or_default(),
    })
}

/// `GET /api/v2/summary.json`.
pub fn summary_json(summary: &Summary) -> Value {
    let components: Vec<Value> = summary
        .components
        .iter()
        .enumerate()
        .map(|(position, c)| {
            json!({
                "id": c.id,
                "name": c.name,
                "status": component_status(c.state),
                "created_at": null,
                "updated_at": c.last_checked_at.as_ref().unwrap_or(&summary.updated_at),
                "position": position + 1,
                "description": null,
                "showcase": true,
                "start_date": null,
                "group_id": null,
                "page_id": PAGE_ID,
                "group": false,
                "only_show_if_degraded": false,
            })
        })
        .collect();
    json!({
        "page": page(summary),
        "components": components,
        "incidents": unresolved(summary),
        "scheduled_maintenances": maintenances(summary, |status| status != NoticeStatus::Completed),
        "status": indicator(summary),
    })
}

/// `GET /api/v2/status.json`.
pub fn status_json(summary: &Summary) -> Value {
    json!({ "page": page(summary), "status": indicator(summary) })
}

/// The components of `ids` as Statuspage lists them.
fn components_of(ids: &[String], summary: &Summary) -> Vec<Value> {
    ids.iter()
        .filter_map(|id| summary.components.iter().find(|c| &c.id == id))
        .map(|c| json!({ "id": c.id, "name": c.name, "status": component_status(c.state) }))
        .collect()
}

/// An operator's incident or maintenance window in Statuspage's shape. Update bodies are the
/// operator's Markdown rendered to safe HTML.
fn notice(notice: &Notice, summary: &Summary) -> Value {
    let updates: Vec<Value> = notice
        .updates
        .iter()
        .map(|update| {
            json!({
                "id": format!("{}-{}", notice.id, update.seq),
                "status": update.status.as_str(),
                "body": update.body_html,
                "incident_id": notice.id,
                "created_at": update.created_at,
                "updated_at": update.created_at,
                "display_at": update.created_at,
            })
        })
        .collect();
    let monitoring_at = notice
        .updates
        .iter()
        .rev()
        .find(|u| u.status == NoticeStatus::Monitoring)
        .map(|u| u.created_at.clone());
    let mut value = json!({
        "id": notice.id,
        "name": notice.title,
        "status": notice.status.as_str(),
        "created_at": notice.created_at,
        "updated_at": notice.updated_at,
        "monitoring_at": monitoring_at,
        "resolved_at": notice.resolved_at,
        "started_at": notice.starts_at.as_ref().unwrap_or(&notice.created_at),
        "impact": notice.impact.as_str(),
        "shortlink": PAGE_URL,
        "page_id": PAGE_ID,
        "incident_updates": updates,
        "components": components_of(&notice.components, summary),
    });
    if notice.kind == NoticeKind::Maintenance {
        value["scheduled_for"] = json!(notice.starts_at);
        value["scheduled_until"] = json!(notice.ends_at);
    }
    value
}

/// The checks' incidents no operator's incident speaks for (an operator's incident attached to
/// one is listed instead).
fn check_incidents<'a>(
    incidents: impl Iterator<Item = &'a Incident>,
    summary: &'a Summary,
) -> impl Iterator<Item = &'a Incident> {
    incidents.filter(|i| {
        !summary
            .notices
            .iter()
            .any(|n| n.check_incident.as_deref() == Some(i.id.as_str()))
    })
}

/// Unresolved incidents: the operators' open ones, then the checks' open ones.
fn unresolved(summary: &Summary) -> Vec<Value> {
    summary
        .notices
        .iter()
        .filter(|n| n.kind == NoticeKind::Incident && n.is_open())
        .map(|n| notice(n, summary))
        .chain(
            check_incidents(summary.open_incidents.iter(), summary).map(|i| incident(i, summary)),
        )
        .take(LISTED)
        .collect()
}

/// Maintenance windows whose status `keep` accepts.
fn maintenances(summary: &Summary, keep: impl Fn(NoticeStatus) -> bool) -> Vec<Value> {
    summary
        .notices
        .iter()
        .filter(|n| n.kind == NoticeKind::Maintenance && keep(n.status))
        .take(LISTED)
        .map(|n| notice(n, summary))
        .collect()
}

/// `GET /api/v2/incidents.json`: the latest incidents, the operators' and the checks'.
pub fn incidents_json(summary: &Summary) -> Value {
    let mut all: Vec<(String, Value)> = summary
        .notices
        .iter()
        .filter(|n| n.kind == NoticeKind::Incident)
        .map(|n| (n.created_at.clone(), notice(n, summary)))
        .chain(
            check_incidents(
                summary
                    .open_incidents
                    .iter()
                    .chain(&summary.recent_incidents),
                summary,
            )
            .map(|i| (i.started_at.clone(), incident(i, summary))),
        )
        .collect();
    // Unresolved first, then newest first (the times are RFC 3339 UTC: they sort as text).
    all.sort_by(|a, b| {
        let open = |v: &Value| v["resolved_at"].is_null();
        open(&b.1).cmp(&open(&a.1)).then_with(|| b.0.cmp(&a.0))
    });
    json!({
        "page": page(summary),
        "incidents": all.into_iter().take(LISTED).map(|(_, v)| v).collect::<Vec<_>>(),
    })
}

/// `GET /api/v2/incidents/unresolved.json`.
pub fn unresolved_json(summary: &Summary) -> Value {
    json!({ "page": page(summary), "incidents": unresolved(summary) })
}

/// `GET /api/v2/scheduled-maintenances.json` (every window), `/upcoming.json` (scheduled) and
/// `/active.json` (in progress), by `which`.
pub fn maintenances_json(summary: &Summary, which: Option<NoticeStatus>) -> Value {
    json!({
        "page": page(summary),
        "scheduled_maintenances": maintenances(summary, |status| which.is_none_or(|w| w == status)),
    })
}

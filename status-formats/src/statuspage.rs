//! `/api/v2/summary.json` and `/api/v2/status.json` in Atlassian Statuspage's public shape, so tools
//! that already read Statuspage pages can read this one.

use serde_json::{json, Value};

use mg_domain::{
    component_status::ComponentStatus,
    notices::{Notice, NoticeKind, NoticeStatus},
    status::{ComponentSummary, Incident, Summary},
};

/// Page id used in every object (Statuspage ids are opaque strings).
const PAGE_ID: &str = "mg-web";
/// The status page's path, which every answer links to. The one route fact of the status answers,
/// kept here because they read no build output (the route catalogue is app/common/routes.ts).
pub const PAGE_URL: &str = "/apotheosis";

/// The status page's absolute address on `public_url` (`PUBLIC_URL`, an origin): what every link
/// that leaves the site points at.
pub fn page_url(public_url: &str) -> String {
    format!("{}{PAGE_URL}", public_url.trim_end_matches('/'))
}

/// The site's origin of a summary's `page_url`.
pub fn origin(summary: &Summary) -> &str {
    summary
        .page_url
        .strip_suffix(PAGE_URL)
        .unwrap_or(&summary.page_url)
}
/// Incidents and maintenance windows listed at most, as Statuspage lists them.
const LISTED: usize = 50;

fn page(summary: &Summary) -> Value {
    json!({
        "id": PAGE_ID,
        "name": "mg-web",
        "url": summary.page_url,
        "time_zone": "Etc/UTC",
        "updated_at": summary.updated_at,
    })
}

/// Statuspage's status of a component: what the page states (`ComponentSummary::status`, the
/// checks and the operators combined); nothing current to go by says so mildly rather than claim
/// an outage.
pub fn component_status(component: &ComponentSummary) -> &'static str {
    component
        .status
        .unwrap_or(ComponentStatus::DegradedPerformance)
        .as_str()
}

/// The page's indicator and description (`mg_domain::component_status::overall`).
fn indicator(summary: &Summary) -> Value {
    json!({ "indicator": summary.indicator, "description": summary.description })
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
        "shortlink": summary.page_url,
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
            "id": c.id, "name": c.name, "status": component_status(c),
        })]).unwrap_or_default(),
    })
}

/// The components as Statuspage lists them in `summary.json` and `components.json`.
fn components(summary: &Summary) -> Vec<Value> {
    summary
        .components
        .iter()
        .enumerate()
        .map(|(position, c)| {
            json!({
                "id": c.id,
                "name": c.name,
                "status": component_status(c),
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
        .collect()
}

/// `GET /api/v2/components.json`.
pub fn components_json(summary: &Summary) -> Value {
    json!({ "page": page(summary), "components": components(summary) })
}

/// `GET /api/v2/summary.json`.
pub fn summary_json(summary: &Summary) -> Value {
    json!({
        "page": page(summary),
        "components": components(summary),
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
        .map(|c| json!({ "id": c.id, "name": c.name, "status": component_status(c) }))
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
                "updated_at": update.edited_at.as_ref().unwrap_or(&update.created_at),
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
        "shortlink": summary.page_url,
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

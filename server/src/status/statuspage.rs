//! `/api/v2/summary.json` and `/api/v2/status.json` in Atlassian Statuspage's public shape, so tools
//! that already read Statuspage pages can read this one.

use serde_json::{json, Value};

use mg_domain::status::{Incident, State, Summary};

/// Page id used in every object (Statuspage ids are opaque strings).
const PAGE_ID: &str = "mg-web";

fn page(summary: &Summary) -> Value {
    json!({
        "id": PAGE_ID,
        "name": "mg-web",
        "url": "/apotheosis",
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
        "shortlink": "/apotheosis",
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
        "incidents": summary.open_incidents.iter().map(|i| incident(i, summary)).collect::<Vec<_>>(),
        "scheduled_maintenances": [],
        "status": indicator(summary),
    })
}

/// `GET /api/v2/status.json`.
pub fn status_json(summary: &Summary) -> Value {
    json!({ "page": page(summary), "status": indicator(summary) })
}

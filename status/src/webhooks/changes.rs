//! The components' state changes the webhooks announce, read from each round's summary: a
//! component is down while the checks' incident of it (any viewpoint's, merged) is open, and up
//! again when it ends. Every instance looks after each round; the database stores each change
//! once ([`Database::record_component_event`]): the next number after a different state, and only
//! when it happened after the last change stored, so an instance whose summary is a round behind
//! another's adds nothing. A change of a component inside a maintenance window is stored as held:
//! its deliveries are logged, not sent.

use mg_domain::{calendar::parse_utc_ms, notices::NoticeKind, status::Summary};

use crate::{store::webhooks::ComponentEventRow, store::StatusQueries};
use mg_platform::{db::Database, time::DAY_MS};

/// Incidents that started or ended longer ago are not told (the webhooks are for news).
const CHANGES_WINDOW_MS: i64 = DAY_MS;

/// The state changes the summary's incidents of the last day show, oldest first, as they would
/// be stored at `now_ms`: each incident's start (`down`) and, once it ended, its end (`up`). An
/// outage that began and ended while the database was away (the checks' incidents are stored when
/// it is back) is told as both; one told already is left out by the database.
pub fn changes(summary: &Summary, now_ms: i64) -> Vec<ComponentEventRow> {
    let ms = |time: &str| parse_utc_ms(time).unwrap_or_default();
    let since = now_ms - CHANGES_WINDOW_MS;
    let mut found: Vec<ComponentEventRow> = Vec::new();
    for incident in summary
        .open_incidents
        .iter()
        .chain(&summary.recent_incidents)
    {
        let started = ms(&incident.started_at);
        let ended = incident.ended_at.as_deref().map(ms);
        let spans = [("down", Some(started)), ("up", ended)];
        for (state, at) in spans {
            let Some(at) = at.filter(|at| *at >= since) else {
                continue;
            };
            found.push(ComponentEventRow {
                component: incident.component.clone(),
                seq: 0,
                state: state.to_owned(),
                incident: incident.id.clone(),
                at,
                held: i64::from(in_maintenance(summary, &incident.component, at)),
                created_at: now_ms,
            });
        }
    }
    found.sort_by(|a, b| (a.at, &a.component).cmp(&(b.at, &b.component)));
    found
}

/// Whether a maintenance window on `component` covered `at` (and was not completed before it).
fn in_maintenance(summary: &Summary, component: &str, at: i64) -> bool {
    let ms = |time: &Option<String>| time.as_deref().and_then(parse_utc_ms);
    summary.notices.iter().any(|notice| {
        notice.kind == NoticeKind::Maintenance
            && notice.components.iter().any(|c| c == component)
            && ms(&notice.starts_at).is_some_and(|start| start <= at)
            && ms(&notice.ends_at).is_some_and(|end| at < end)
            && ms(&notice.resolved_at).is_none_or(|done| at < done)
    })
}

/// Stores the changes `summary` shows that are not stored yet; how many were.
pub async fn record(db: &Database, summary: &Summary, now_ms: i64) -> Result<usize, sqlx::Error> {
    let mut stored = 0;
    for change in changes(summary, now_ms) {
        if db.status().record_component_event(&change).await?.is_some() {
            tracing::info!(
                component = %change.component,
                state = %change.state,
                held = change.held != 0,
                "status: component state change for the webhooks"
            );
            stored += 1;
        }
    }
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mg_domain::{
        notices::Notice,
        status::{ComponentSummary, Incident},
    };

    fn incident(start: &str, end: Option<&str>) -> Incident {
        Incident {
            id: format!("db-{start}"),
            component: "db".into(),
            started_at: start.into(),
            ended_at: end.map(str::to_owned),
            ..Incident::default()
        }
    }

    #[test]
    fn an_open_incident_is_down_an_ended_one_down_then_up_and_a_window_holds_it() {
        let now = parse_utc_ms("2026-01-01T03:00:00Z").expect("time");
        let mut summary = Summary {
            components: vec![ComponentSummary {
                id: "db".into(),
                ..ComponentSummary::default()
            }],
            ..Summary::default()
        };
        assert!(
            changes(&summary, now).is_empty(),
            "never failed: nothing to tell"
        );
        summary.open_incidents = vec![incident("2026-01-01T00:00:00Z", None)];
        let down = changes(&summary, now);
        assert_eq!(down.len(), 1);
        assert_eq!((down[0].state.as_str(), down[0].held), ("down", 0));
        summary.notices = vec![Notice {
            kind: NoticeKind::Maintenance,
            components: vec!["db".into()],
            starts_at: Some("2025-12-31T23:00:00Z".into()),
            ends_at: Some("2026-01-01T01:00:00Z".into()),
            ..Notice::default()
        }];
        assert_eq!(changes(&summary, now)[0].held, 1, "inside the window");
        summary.open_incidents.clear();
        summary.recent_incidents = vec![incident(
            "2026-01-01T00:00:00Z",
            Some("2026-01-01T02:00:00Z"),
        )];
        let both = changes(&summary, now);
        let told: Vec<(&str, i64)> = both.iter().map(|c| (c.state.as_str(), c.held)).collect();
        assert_eq!(
            told,
            [("down", 1), ("up", 0)],
            "the end is after the window"
        );
        assert_eq!(
            both[1].at,
            parse_utc_ms("2026-01-01T02:00:00Z").expect("time")
        );
        assert!(
            changes(&summary, now + 2 * DAY_MS).is_empty(),
            "old news is not told"
        );
    }
}

//! What a delivery says: the event (an operator's incident or maintenance update, or a component
//! going down or coming back up), as the webhook's format wants it. `json` is the whole event;
//! `slack` (`{"text"}`) and `discord` (`{"content"}`) carry one message, with mentions and markup
//! of the operators' text made inert. The body is made once, when the delivery is added, with the
//! delivery's id in it, and sent unchanged on every attempt.

use mg_domain::{
    notices::NoticeKind,
    webhooks::{event_key, EventSource, WebhookFormat},
};
use serde_json::{json, Value};

use crate::store::{notices::UpdateRow, webhooks::ComponentEventRow};
use mg_domain::status::component_name;
use mg_platform::time::rfc3339;

/// Longest message in a Discord body (Discord refuses more than 2,000 characters).
const DISCORD_CHARS: usize = 1_900;

/// An event, before it is addressed to a webhook.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// One per event, the same on every instance: `notice:{id}:{seq}`, `component:{id}:{seq}`.
    pub key: String,
    /// `incident.opened`, `incident.updated`, `incident.resolved`, `maintenance.scheduled`,
    /// `maintenance.updated`, `maintenance.completed`, `component.down`, `component.up`.
    pub name: String,
    /// When it happened.
    pub at: i64,
    /// What the `json` body holds besides the envelope: `{"incident": ...}`, `{"component": ...}`.
    pub detail: (&'static str, Value),
    /// The one-message summary for chat formats.
    pub text: String,
    /// Not to be sent: a component change inside a maintenance window.
    pub held: bool,
}

/// The event of an operator's update.
pub fn notice_event(update: &UpdateRow, page_url: &str) -> Event {
    let kind = update.kind;
    let action = match (kind, update.seq, update.status.is_final()) {
        (NoticeKind::Maintenance, 1, _) => "scheduled",
        (NoticeKind::Maintenance, _, true) => "completed",
        (_, 1, _) => "opened",
        (_, _, true) => "resolved",
        _ => "updated",
    };
    let components: Vec<&str> = update.components.split(',').collect();
    let detail = json!({
        "id": update.notice_id,
        "update": update.seq,
        "title": update.title,
        "impact": update.impact,
        "components": components,
        "status": update.status,
        "body": update.body,
        "check_incident": update.check_incident,
        "component_status": update.declared(),
        "starts_at": update.starts_at.map(rfc3339),
        "ends_at": update.ends_at.map(rfc3339),
        "updated_at": rfc3339(update.created_at),
    });
    let names: Vec<String> = components.iter().map(|c| component_name(c)).collect();
    let text = format!(
        "{} {action}: {} ({}; {}).\n{}\n{page_url}",
        match kind {
            NoticeKind::Maintenance => "Maintenance",
            NoticeKind::Incident => "Incident",
        },
        update.title,
        update.status.as_str().replace('_', " "),
        names.join(", "),
        update.body,
    );
    Event {
        key: event_key(EventSource::NoticeUpdate {
            notice_id: &update.notice_id,
            seq: update.seq,
        }),
        name: format!("{kind}.{action}"),
        at: update.created_at,
        detail: (kind.as_str(), detail),
        text,
        held: false,
    }
}

/// The event of a component's state change found by the checks.
pub fn component_event(change: &ComponentEventRow, page_url: &str) -> Event {
    let name = component_name(&change.component);
    let down = change.state == "down";
    let text = if down {
        format!(
            "{name} is down: the checks find it failing since {}.\n{page_url}",
            rfc3339(change.at)
        )
    } else {
        format!(
            "{name} is back up since {}.\n{page_url}",
            rfc3339(change.at)
        )
    };
    Event {
        key: event_key(EventSource::ComponentChange {
            component: &change.component,
            seq: change.seq,
        }),
        name: format!("component.{}", if down { "down" } else { "up" }),
        at: change.at,
        detail: (
            "component",
            json!({
                "id": change.component,
                "name": name,
                "state": change.state,
                "incident": change.incident,
                "since": rfc3339(change.at),
                "in_maintenance": change.held != 0,
            }),
        ),
        text,
        held: change.held != 0,
    }
}

/// The body of `event` for a webhook of `format`, as delivery `delivery_id`.
pub fn body(event: &Event, format: WebhookFormat, delivery_id: &str, page_url: &str) -> String {
    let value = match format {
        WebhookFormat::Slack => json!({ "text": slack_escaped(&event.text) }),
        WebhookFormat::Discord => json!({
            "content": truncated(&event.text, DISCORD_CHARS),
            "allowed_mentions": { "parse": [] },
        }),
        WebhookFormat::Json => {
            let (key, detail) = &event.detail;
            let mut envelope = json!({
                "event": event.name,
                "delivery_id": delivery_id,
                "occurred_at": rfc3339(event.at),
                "page_url": page_url,
            });
            envelope[*key] = detail.clone();
            envelope
        }
    };
    value.to_string()
}

/// Slack's markup characters escaped, so `<!channel>` in an operator's text stays text.
fn slack_escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn truncated(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(max - 1).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mg_domain::notices::{Impact, NoticeStatus};

    fn update(seq: i64, status: &str) -> UpdateRow {
        let status = NoticeStatus::parse(status).expect("a status");
        UpdateRow {
            notice_id: "n1".into(),
            seq,
            kind: NoticeKind::Incident,
            title: "Slow sign-ins".into(),
            impact: Impact::Major,
            components: "db,api".into(),
            check_incident: None,
            starts_at: None,
            ends_at: None,
            status,
            body: "Looking <!channel> @everyone".into(),
            created_at: 1_000,
            author: "ops".into(),
            component_status: None,
            edited_at: None,
        }
    }

    #[test]
    fn each_format_carries_the_event_and_the_chat_ones_are_inert() {
        let page = "https://mg.example/apotheosis";
        let event = notice_event(&update(2, "resolved"), page);
        assert_eq!(event.name, "incident.resolved");
        assert_eq!(event.key, "notice:n1:2");
        let json: Value =
            serde_json::from_str(&body(&event, WebhookFormat::Json, "d-1", page)).expect("json");
        assert_eq!(json["event"], "incident.resolved");
        assert_eq!(json["delivery_id"], "d-1");
        assert_eq!(json["incident"]["components"], json!(["db", "api"]));
        assert_eq!(json["page_url"], page);
        let slack: Value =
            serde_json::from_str(&body(&event, WebhookFormat::Slack, "d-1", page)).expect("json");
        let text = slack["text"].as_str().expect("text");
        assert!(text.contains("&lt;!channel&gt;") && !text.contains("<!channel>"));
        let discord: Value =
            serde_json::from_str(&body(&event, WebhookFormat::Discord, "d-1", page)).expect("json");
        assert_eq!(discord["allowed_mentions"]["parse"], json!([]));
        assert_eq!(
            notice_event(&update(1, "investigating"), page).name,
            "incident.opened"
        );
        assert_eq!(
            notice_event(&update(3, "monitoring"), page).name,
            "incident.updated"
        );
    }

    #[test]
    fn a_component_change_names_its_state_and_a_held_one_says_so() {
        let change = ComponentEventRow {
            component: "db".into(),
            seq: 4,
            state: "down".into(),
            incident: "db-5".into(),
            at: 5,
            held: 1,
            created_at: 6,
        };
        let event = component_event(&change, "https://x/apotheosis");
        assert_eq!((event.name.as_str(), event.held), ("component.down", true));
        assert_eq!(event.key, "component:db:4");
        let long = truncated(&"x".repeat(3_000), DISCORD_CHARS);
        assert_eq!(long.chars().count(), DISCORD_CHARS);
    }
}

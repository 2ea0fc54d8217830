//! Component statuses operators declare: an incident that marks the database `major_outage` makes
//! every surface say so (the summary's component and overall words, the badge, the feed,
//! summary.json, status.json, components.json, the webhook body) while the checks see it up, and
//! resolving it brings back what the checks measure. Every link that leaves the site is absolute,
//! on `PUBLIC_URL`.

use serde_json::{json, Value};

use mg_server::{config::Config, time::now_ms};

use crate::{
    helpers::TestApp,
    status::component,
    status_operators::{get_as, get_json, incident_body, open_incident, operator, post},
    status_webhooks::{add_webhook, allow_private, call, db_round, declare, sends_what_is_due},
    webhook_receiver::Receiver,
};

const ORIGIN: &str = "https://status.example.com";

fn public_origin(config: &mut Config) {
    allow_private(config);
    config.public_url = ORIGIN.into();
}

/// What every surface says of the database now: the summary's component status and overall
/// description, summary.json's, status.json's and components.json's.
/// `surfaces` while the checks see the database up and nothing is declared.
const ALL_OPERATIONAL: [&str; 6] = [
    "operational",
    "All Systems Operational",
    "operational",
    "none",
    "operational",
    "All Systems Operational",
];

/// The database's status in `document`'s components ("none" without one).
fn db(document: &Value) -> String {
    let db = component(document, "db");
    db["status"].as_str().unwrap_or("none").to_owned()
}

async fn surfaces(app: &TestApp) -> Vec<String> {
    let summary = get_json(app, "/api/status").await;
    let statuspage = get_json(app, "/api/v2/summary.json").await;
    let components = get_json(app, "/api/v2/components.json").await;
    let status = get_json(app, "/api/v2/status.json").await;
    vec![
        db(&summary),
        summary["description"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        db(&statuspage),
        statuspage["status"]["indicator"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        db(&components),
        status["status"]["description"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    ]
}

async fn badge(app: &TestApp) -> String {
    app.get_text("/status/badge/db.svg").await
}

async fn a_declared_major_outage_shows_everywhere_until_resolved(app: TestApp) {
    let receiver = Receiver::start().await;
    add_webhook(&app, &receiver.url("/hook"), "json").await;
    let t = now_ms();
    db_round(&app, t, true).await;
    assert_eq!(surfaces(&app).await, ALL_OPERATIONAL);

    let ops = operator(&app);
    let mut body = incident_body("Database down");
    body["component_status"] = json!("major_outage");
    let (status, opened) = post(&app, &ops, "/api/status/incidents", &body).await;
    assert_eq!(status, 201, "{opened}");
    assert_eq!(opened["component_status"], "major_outage");
    let id = opened["id"].as_str().expect("id").to_owned();
    assert_eq!(
        surfaces(&app).await,
        [
            "major_outage",
            "Partial System Outage",
            "major_outage",
            "major",
            "major_outage",
            "Partial System Outage"
        ],
        "the operator's declaration wins over checks that see it up"
    );
    assert!(badge(&app).await.contains("Database: down"));
    // In the cards' words too, for the landing's cards (which do not load the status page's core).
    let summary = get_json(&app, "/api/status").await;
    let db_card = component(&summary, "db");
    assert_eq!(
        (&db_card["status_words"], &db_card["status_note"]),
        (&json!("Major outage"), &json!("Declared by the operators"))
    );
    let feed = app.get_text("/status/feed.atom").await;
    assert!(feed.contains("db: Major outage."), "{feed}");
    sends_what_is_due(&app, now_ms()).await;
    let got = receiver.got("/hook");
    assert_eq!(
        got[0].json()["incident"]["component_status"],
        "major_outage"
    );

    // Still declared after the next round of checks that see it up.
    db_round(&app, t + 30_000, true).await;
    assert_eq!(surfaces(&app).await[0], "major_outage");

    let resolve = json!({"status": "resolved", "body": "Back.", "component_status": "operational"});
    let path = format!("/api/status/incidents/{id}/updates");
    let (status, resolved) = post(&app, &ops, &path, &resolve).await;
    assert_eq!(status, 200, "{resolved}");
    assert_eq!(resolved["component_status"], Value::Null);
    assert_eq!(
        surfaces(&app).await,
        ALL_OPERATIONAL,
        "resolving restores what the checks measure"
    );
    assert!(badge(&app).await.contains("Database: up"));
}
on_both_backends!(a_declared_major_outage_shows_everywhere_until_resolved, with allow_private);

async fn bad_declarations_are_refused_and_change_nothing(app: TestApp) {
    let ops = operator(&app);
    db_round(&app, now_ms(), true).await;
    let mut body = incident_body("Maintenance by incident");
    body["component_status"] = json!("under_maintenance");
    let (status, answer) = post(&app, &ops, "/api/status/incidents", &body).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap_or_default()
        .contains("maintenance window"));
    body["component_status"] = json!("on_fire");
    let (status, _) = post(&app, &ops, "/api/status/incidents", &body).await;
    assert_eq!(status, 400);
    assert_eq!(app.count_rows("status_notice_updates").await, 0);
    assert_eq!(surfaces(&app).await[0], "operational");

    // A component's own setting is cleared only by an explicit `null`: an empty body is a 400
    // that leaves the setting in force.
    let set = declare(&app, &ops, "db", json!("degraded_performance")).await;
    assert_eq!(set.0, 200);
    let rows = app.count_rows("status_component_declarations").await;
    let path = "/api/status/components/db";
    let (status, answer) = call(&app, "PATCH", path, Some(&ops), &json!({})).await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap_or_default()
            .contains("missing field `status`"),
        "{answer}"
    );
    assert_eq!(app.count_rows("status_component_declarations").await, rows);
    assert_eq!(surfaces(&app).await[0], "degraded_performance");
}
on_both_backends!(bad_declarations_are_refused_and_change_nothing);

/// Every link of `value` (any string that is a URL or a path) in the answers that leave the site.
fn links(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::String(text) if text.starts_with('/') || text.contains("://") => {
            found.push(text.clone());
        }
        Value::Array(items) => items.iter().for_each(|v| links(v, found)),
        Value::Object(map) => map.values().for_each(|v| links(v, found)),
        _ => {}
    }
}

async fn every_link_that_leaves_the_site_is_absolute(app: TestApp) {
    let receiver = Receiver::start().await;
    add_webhook(&app, &receiver.url("/hook"), "json").await;
    db_round(&app, now_ms(), true).await;
    let ops = operator(&app);
    assert_eq!(open_incident(&app, &ops, "Slow").await.0, 201);
    let mut found = Vec::new();
    for path in [
        "/api/v2/summary.json",
        "/api/v2/status.json",
        "/api/v2/components.json",
        "/api/v2/incidents.json",
        "/api/v2/incidents/unresolved.json",
        "/api/v2/scheduled-maintenances.json",
    ] {
        links(&get_json(&app, path).await, &mut found);
    }
    sends_what_is_due(&app, now_ms()).await;
    let got = receiver.got("/hook");
    links(&got[0].json(), &mut found);
    let feed = app.get_text("/status/feed.atom").await;
    for part in feed.split("href=\"").skip(1) {
        found.push(part.split('"').next().unwrap_or_default().to_owned());
    }
    assert!(found.len() >= 5, "{found:?}");
    for link in &found {
        assert!(link.starts_with(ORIGIN), "{link} is not on {ORIGIN}");
    }
    assert!(found.contains(&format!("{ORIGIN}/apotheosis")));
    assert!(found.contains(&format!("{ORIGIN}/status/feed.atom")));
}
on_sqlite!(every_link_that_leaves_the_site_is_absolute, with public_origin);

/// The database's status in `/api/status` and the window's status in its notice.
async fn db_and_window(app: &TestApp) -> (String, String) {
    let summary = get_json(app, "/api/status").await;
    let window = summary["notices"][0]["status"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (db(&summary), window)
}

async fn a_window_starts_and_ends_by_the_clock(app: TestApp) {
    let receiver = Receiver::start().await;
    add_webhook(&app, &receiver.url("/hook"), "json").await;
    let t = now_ms();
    let hour = 3_600_000;
    let at = mg_server::time::rfc3339;
    let body = json!({"title": "Database upgrade", "components": ["db"],
        "starts_at": at(t + hour), "ends_at": at(t + 2 * hour), "body": "PostgreSQL 17."});
    let ops = operator(&app);
    let (status, _) = post(&app, &ops, "/api/status/maintenances", &body).await;
    assert_eq!(status, 201);
    sends_what_is_due(&app, now_ms()).await;
    db_round(&app, t, true).await;
    assert_eq!(
        db_and_window(&app).await,
        ("operational".into(), "scheduled".into())
    );

    // The rounds' clock passes the start, then the end: no operator acts.
    db_round(&app, t + hour + 1_000, false).await;
    assert_eq!(
        db_and_window(&app).await,
        ("under_maintenance".into(), "in_progress".into()),
        "a failing check inside the window reads as maintenance"
    );
    let summary = get_json(&app, "/api/v2/summary.json").await;
    assert_eq!(summary["status"]["indicator"], "maintenance");
    db_round(&app, t + hour + 2_000, true).await;
    db_round(&app, t + 2 * hour + 1_000, true).await;
    assert_eq!(
        db_and_window(&app).await,
        ("operational".into(), "completed".into())
    );

    sends_what_is_due(&app, now_ms()).await;
    let got = receiver.got("/hook");
    let events: Vec<(String, String)> = got
        .iter()
        .map(|r| {
            let json = r.json();
            (
                json["event"].as_str().unwrap_or_default().to_owned(),
                json["maintenance"]["status"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            )
        })
        .collect();
    assert_eq!(
        events,
        [
            ("maintenance.scheduled".into(), "scheduled".into()),
            ("maintenance.updated".into(), "in_progress".into()),
            ("maintenance.completed".into(), "completed".into()),
        ],
        "one delivery for the start and one for the end"
    );
    let feed = app.get_text("/status/feed.atom").await;
    assert!(feed.contains("The maintenance window started."), "{feed}");
    assert!(feed.contains("The maintenance window ended."), "{feed}");
    let entries: Vec<&str> = feed
        .split("<entry>")
        .filter(|e| e.contains("Database upgrade"))
        .collect();
    assert_eq!(entries.len(), 3, "scheduled, started, ended: {feed}");
    assert!(entries[0].contains("(completed)") && entries[1].contains("(in progress)"));
    let (_, log) = get_as(&app, &ops, "/api/status/operator/log").await;
    assert_eq!(log["entries"][0]["operator"], "clock", "{log}");
}
on_both_backends!(a_window_starts_and_ends_by_the_clock, with allow_private);

fn with_queue(config: &mut Config) {
    // A queue that refuses connections: checked, and found down.
    config.status.queue_url = Some("http://127.0.0.1:9/queue".into());
}

/// What the server says it checks: `not_configured`, the queue's status, and the components the
/// operator view offers.
async fn checked(app: &TestApp) -> (Value, Value, Vec<String>) {
    app.status.check_now(now_ms()).await;
    let summary = get_json(app, "/api/status").await;
    let queue = summary["components"]
        .as_array()
        .expect("components")
        .iter()
        .find(|c| c["id"] == "queue")
        .map_or(Value::Null, |c| c["status"].clone());
    let (status, view) = get_as(app, &operator(app), "/api/status/operator").await;
    assert_eq!(status, 200, "{view}");
    let offered = view["components"]
        .as_array()
        .expect("components")
        .iter()
        .map(|pair| pair[0].as_str().unwrap_or_default().to_owned())
        .collect();
    (summary["not_configured"].clone(), queue, offered)
}

/// Opens an incident on the queue: the status and the answer.
async fn incident_on_the_queue(app: &TestApp) -> (u16, Value) {
    let mut body = incident_body("Queue delays");
    body["components"] = json!(["queue"]);
    post(app, &operator(app), "/api/status/incidents", &body).await
}

async fn without_a_queue_url_the_queue_is_not_configured(app: TestApp) {
    assert_eq!(
        checked(&app).await,
        (
            json!(["queue"]),
            Value::Null,
            vec!["api".to_owned(), "db".to_owned()]
        )
    );
    // Nor can an incident name it.
    let (status, answer) = incident_on_the_queue(&app).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        answer["error"],
        "This deployment has no component 'queue': choose among API, Database."
    );
    assert_eq!(app.count_rows("status_notice_updates").await, 0);
}
on_sqlite!(without_a_queue_url_the_queue_is_not_configured);

async fn with_a_queue_url_the_queue_is_measured_and_offered(app: TestApp) {
    assert_eq!(
        checked(&app).await,
        (
            json!([]),
            json!("major_outage"),
            vec!["api".to_owned(), "db".to_owned(), "queue".to_owned()]
        )
    );
    let (status, answer) = incident_on_the_queue(&app).await;
    assert_eq!(status, 201, "{answer}");
}
on_sqlite!(with_a_queue_url_the_queue_is_measured_and_offered, with with_queue);

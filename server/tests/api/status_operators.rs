//! Status operators: only a session whose token grants `status-operator` may open, update and
//! resolve incidents and schedule maintenance (others 403, anonymous 401, nothing stored); what
//! they write is bounded, safe as HTML, and shows in the summary, the Statuspage JSON and the
//! feed, through any instance on the database; checks inside a window leave the uptime alone.

use serde_json::{json, Value};

use mg_server::{status::store::checks::RawCheck, time::now_ms};

use crate::{
    helpers::{spawn_beside, TestApp},
    status_webhooks::call,
};

const OPERATOR_ROLE: &str = "status-operator";

/// A session token for `sub` with `roles`.
pub fn token_with_roles(app: &TestApp, sub: &str, roles: &[&str]) -> String {
    let mut claims = app.identity.session_claims(sub);
    claims["roles"] = json!(roles);
    app.identity.sign(&claims)
}

pub fn operator(app: &TestApp) -> String {
    token_with_roles(app, "ops-1", &[OPERATOR_ROLE])
}

pub async fn get_json(app: &TestApp, path: &str) -> Value {
    let response = app.get(path).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.expect("JSON")
}

pub async fn post(app: &TestApp, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let response = app.post_with_token(path, token, body).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Posts a timeline update (`status`, `body`) to `path` as `token`.
async fn post_update(
    app: &TestApp,
    token: &str,
    path: &str,
    status: &str,
    body: &str,
) -> (u16, Value) {
    post(app, token, path, &json!({"status": status, "body": body})).await
}

/// Opens an incident titled `title` as `token`.
pub async fn open_incident(app: &TestApp, token: &str, title: &str) -> (u16, Value) {
    post(app, token, "/api/status/incidents", &incident_body(title)).await
}

/// `GET path` as `token`.
pub async fn get_as(app: &TestApp, token: &str, path: &str) -> (u16, Value) {
    call(app, "GET", path, Some(token), &Value::Null).await
}

async fn atom_feed(app: &TestApp) -> String {
    app.get_text("/status/feed.atom").await
}

pub fn incident_body(title: &str) -> Value {
    json!({
        "title": title,
        "impact": "major",
        "components": ["db"],
        "status": "investigating",
        "body": "We are **investigating** slow sign-ins. <script>alert(1)</script>",
    })
}

/// A maintenance window's body: from `start` to `end` (unix ms).
fn window_body(title: &str, components: &[&str], (start, end): (i64, i64), body: &str) -> Value {
    let at = mg_server::time::rfc3339;
    json!({"title": title, "components": components, "starts_at": at(start), "ends_at": at(end), "body": body})
}

/// A check of `component` at `at` taking a millisecond.
pub fn check(component: &str, at: i64, healthy: bool) -> RawCheck {
    crate::status_storage::made_up(component, at, healthy, 1_000)
}

/// Every operator endpoint, with a body that would be valid for an operator.
fn operator_calls() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("GET", "/api/status/operator", Value::Null),
        ("GET", "/api/status/operator/log", Value::Null),
        (
            "POST",
            "/api/status/incidents",
            incident_body("Slow sign-ins"),
        ),
        (
            "POST",
            "/api/status/incidents/abc/updates",
            json!({"status": "identified", "body": "Found it."}),
        ),
        (
            "POST",
            "/api/status/maintenances",
            json!({"title": "Upgrade", "components": ["db"], "starts_at": "2099-01-01T02:00:00Z",
                   "ends_at": "2099-01-01T03:00:00Z", "body": "Upgrading."}),
        ),
        (
            "POST",
            "/api/status/maintenances/abc/updates",
            json!({"status": "completed", "body": "Done."}),
        ),
    ]
}

async fn non_operators_get_403_and_anonymous_401(app: TestApp) {
    let plain = token_with_roles(&app, "user-1", &[]);
    let other_role = token_with_roles(&app, "user-2", &["admin", "status-operators"]);
    for (method, path, body) in operator_calls() {
        let (status, answer) = call(&app, method, path, None, &body).await;
        assert_eq!(status, 401, "{method} {path}: {answer}");
        assert_eq!(answer["code"], "unauthorized", "{method} {path}");
        for token in [&plain, &other_role] {
            let (status, answer) = call(&app, method, path, Some(token), &body).await;
            assert_eq!(status, 403, "{method} {path}: {answer}");
            assert_eq!(answer["code"], "forbidden", "{method} {path}");
            assert!(answer["error"]
                .as_str()
                .is_some_and(|e| e.contains(OPERATOR_ROLE)));
        }
    }
    // A `roles` claim of the wrong shape grants nothing either.
    let mut claims = app.identity.session_claims("user-3");
    claims["roles"] = json!(OPERATOR_ROLE);
    let odd = app.identity.sign(&claims);
    let (status, _) = open_incident(&app, &odd, "x").await;
    assert_eq!(status, 403);
    assert_eq!(app.count_rows("status_notice_updates").await, 0);
}
on_both_backends!(non_operators_get_403_and_anonymous_401);

async fn an_operator_opens_updates_and_resolves_an_incident(app: TestApp) {
    let ops = operator(&app);
    let view = get_as(&app, &ops, "/api/status/operator").await;
    assert_eq!(view.0, 200, "{}", view.1);
    assert_eq!(view.1["operator"], "ops-1");

    let (status, opened) = open_incident(&app, &ops, "Slow sign-ins").await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["id"].as_str().expect("id").to_owned();
    assert_eq!(opened["status"], "investigating");
    let html = opened["updates"][0]["body_html"].as_str().expect("html");
    assert!(html.contains("<strong>investigating</strong>"), "{html}");
    assert!(!html.contains("<script"), "{html}");

    // At once on this instance: the summary, the Statuspage JSON and the feed.
    let unresolved = get_json(&app, "/api/v2/incidents/unresolved.json").await;
    assert_eq!(
        unresolved["incidents"][0]["id"],
        id.as_str(),
        "{unresolved}"
    );
    assert_eq!(unresolved["incidents"][0]["impact"], "major");
    assert_eq!(unresolved["incidents"][0]["components"][0]["id"], "db");
    let summary = get_json(&app, "/api/v2/summary.json").await;
    assert_eq!(summary["incidents"][0]["name"], "Slow sign-ins");
    let feed = atom_feed(&app).await;
    assert!(
        feed.contains("Incident: Slow sign-ins (investigating)"),
        "{feed}"
    );
    assert!(
        !feed.contains("<script"),
        "the feed escapes the HTML: {feed}"
    );

    let path = format!("/api/status/incidents/{id}/updates");
    for (step, text) in [
        ("identified", "A full disk."),
        ("monitoring", "Disk grown; watching."),
    ] {
        let (status, answer) = post_update(&app, &ops, &path, step, text).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["status"], step);
    }
    let (status, resolved) =
        post_update(&app, &ops, &path, "resolved", "Fixed: the disk was full.").await;
    assert_eq!(status, 200, "{resolved}");
    assert_eq!(resolved["updates"].as_array().map(Vec::len), Some(4));
    assert!(resolved["resolved_at"].is_string());
    // Resolved is final.
    let (status, _) = post_update(&app, &ops, &path, "monitoring", "Again?").await;
    assert_eq!(status, 400);

    let unresolved = get_json(&app, "/api/v2/incidents/unresolved.json").await;
    assert_eq!(unresolved["incidents"], json!([]), "{unresolved}");
    let all = get_json(&app, "/api/v2/incidents.json").await;
    assert_eq!(all["incidents"][0]["status"], "resolved");
    assert_eq!(
        all["incidents"][0]["incident_updates"]
            .as_array()
            .map(Vec::len),
        Some(4)
    );
    let feed = atom_feed(&app).await;
    assert!(feed.contains("Slow sign-ins (resolved)"), "{feed}");

    // The page's HTML, and the page without JavaScript, say it too.
    for path in ["/status/notices/list", "/status/notices"] {
        let html = app.get_text(path).await;
        assert!(
            html.contains("Slow sign-ins") && html.contains("Resolved"),
            "{path}: {html}"
        );
        assert!(!html.contains("<script"), "{path}: {html}");
    }
    // Who did what, when.
    let log = get_as(&app, &ops, "/api/status/operator/log").await.1;
    let entries = log["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 4, "{log}");
    assert!(entries
        .iter()
        .all(|e| e["operator"] == "ops-1" && e["target"] == id.as_str()));
    assert_eq!(entries[0]["action"], "update incident (resolved)");
    assert_eq!(entries[3]["action"], "open incident");
    // An unknown incident, or a window's id on the incidents' path, is a 404.
    let (status, _) = post_update(
        &app,
        &ops,
        "/api/status/incidents/nope/updates",
        "identified",
        "x",
    )
    .await;
    assert_eq!(status, 404);
}
on_both_backends!(an_operator_opens_updates_and_resolves_an_incident);

async fn an_operator_schedules_and_completes_a_window(app: TestApp) {
    let ops = operator(&app);
    let now = now_ms();
    let body = window_body(
        "Database upgrade",
        &["db", "api"],
        (now + 3_600_000, now + 7_200_000),
        "PostgreSQL 17. Sign-ins may fail for a minute.",
    );
    let (status, window) = post(&app, &ops, "/api/status/maintenances", &body).await;
    assert_eq!(status, 201, "{window}");
    assert_eq!(window["status"], "scheduled");
    let id = window["id"].as_str().expect("id").to_owned();
    let summary = get_json(&app, "/api/v2/summary.json").await;
    assert_eq!(
        summary["scheduled_maintenances"][0]["id"],
        id.as_str(),
        "{summary}"
    );
    assert_eq!(
        summary["scheduled_maintenances"][0]["impact"],
        "maintenance"
    );
    let upcoming = get_json(&app, "/api/v2/scheduled-maintenances/upcoming.json").await;
    assert_eq!(
        upcoming["scheduled_maintenances"].as_array().map(Vec::len),
        Some(1)
    );
    let active = get_json(&app, "/api/v2/scheduled-maintenances/active.json").await;
    assert_eq!(active["scheduled_maintenances"], json!([]));
    let feed = atom_feed(&app).await;
    assert!(
        feed.contains("Maintenance: Database upgrade (scheduled)"),
        "{feed}"
    );

    let path = format!("/api/status/maintenances/{id}/updates");
    let (status, done) = post_update(&app, &ops, &path, "completed", "Cancelled.").await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["status"], "completed");
    let all = get_json(&app, "/api/v2/scheduled-maintenances.json").await;
    assert_eq!(all["scheduled_maintenances"][0]["status"], "completed");
    let summary = get_json(&app, "/api/v2/summary.json").await;
    assert_eq!(summary["scheduled_maintenances"], json!([]));
    // An incident's status on a window is refused.
    let (status, _) = post_update(&app, &ops, &path, "resolved", "x").await;
    assert_eq!(status, 400);
}
on_both_backends!(an_operator_schedules_and_completes_a_window);

async fn hostile_operator_input_is_a_clear_400_and_stores_nothing(app: TestApp) {
    let ops = operator(&app);
    let now = now_ms();
    let at = mg_server::time::rfc3339;
    let window = |start: i64, end: i64| {
        let body = window_body("W", &["db"], (start, end), "b");
        ("/api/status/maintenances", body)
    };
    // A valid incident but for the one field named.
    let incident_with = |field: &str, value: Value| {
        let mut body = json!({"title": "t", "impact": "minor", "components": ["db"], "status": "investigating", "body": "b"});
        body[field] = value;
        ("/api/status/incidents", body)
    };
    let bad = vec![
        incident_with("title", json!("x".repeat(121))),
        incident_with("title", json!("   ")),
        incident_with("title", json!("t\u{7}")),
        incident_with("title", json!(["t"])),
        incident_with("body", json!("b".repeat(4001))),
        incident_with("components", json!(["disk"])),
        incident_with("components", json!([])),
        incident_with("components", json!(["db", "db"])),
        incident_with("impact", json!("maintenance")),
        incident_with("impact", json!("huge")),
        incident_with("status", json!("resolved")),
        incident_with("status", json!("scheduled")),
        incident_with("check_incident", json!("db-1")),
        incident_with("extra", json!(1)),
        window(now + 7_200_000, now + 3_600_000),
        window(now + 3_600_000, now + 9 * 86_400_000),
        window(now + 100 * 86_400_000, now + 101 * 86_400_000),
        window(now - 3 * 86_400_000, now - 2 * 86_400_000),
        // Within the last day but already over: it would rewrite the uptime shown.
        window(now - 3 * 3_600_000, now - 3_600_000),
        (
            "/api/status/maintenances",
            json!({"title": "W", "components": ["db"], "starts_at": "tomorrow", "ends_at": at(now), "body": "b"}),
        ),
    ];
    for (path, body) in bad {
        let (status, answer) = post(&app, &ops, path, &body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| e.len() < 200),
            "{answer}"
        );
    }
    assert_eq!(app.count_rows("status_notice_updates").await, 0);
}
on_both_backends!(hostile_operator_input_is_a_clear_400_and_stores_nothing);

async fn operator_writes_are_rate_limited(app: TestApp) {
    // Twenty in a burst, then one more every 3 s (the bucket's arithmetic is unit-tested with its
    // clock in mg-status): a run that takes a few seconds gets a write or two past the burst. Each
    // incident is resolved by the next write, so however slow the machine, the cap of open notices
    // is never what answers.
    let started = now_ms();
    let ops = operator(&app);
    let mut writes = 0;
    let mut limited = None;
    let mut open: Option<String> = None;
    for i in 0..60 {
        let (status, answer) = match open.take() {
            Some(id) => {
                let path = format!("/api/status/incidents/{id}/updates");
                post_update(&app, &ops, &path, "resolved", "Fixed.").await
            }
            None => open_incident(&app, &ops, &format!("n{i}")).await,
        };
        match status {
            201 | 200 => {
                writes += 1;
                if status == 201 {
                    open = answer["id"].as_str().map(str::to_owned);
                }
            }
            429 => {
                limited = Some(answer);
                break;
            }
            other => panic!("{other}: {answer}"),
        }
    }
    let refilled = (now_ms() - started) / 3_000 + 1;
    assert!(
        (20..=20 + refilled).contains(&writes),
        "a burst of twenty writes, then one every 3 s: {writes}"
    );
    assert_eq!(
        limited.expect("the 21st is refused")["code"],
        "rate_limited"
    );
    // Another operator is not held back by the first.
    let other = token_with_roles(&app, "ops-2", &[OPERATOR_ROLE]);
    let (status, _) = open_incident(&app, &other, "other").await;
    assert_eq!(status, 201);
}
on_both_backends!(operator_writes_are_rate_limited);

async fn an_update_can_be_attached_to_an_incident_the_checks_opened(app: TestApp) {
    let now = now_ms();
    app.status
        .record(vec![check("db", now - 60_000, false)], now - 60_000)
        .await;
    app.status
        .record(vec![check("db", now - 30_000, false)], now - 30_000)
        .await;
    let status_now = get_json(&app, "/api/status").await;
    let check_id = status_now["open_incidents"][0]["id"]
        .as_str()
        .expect("the checks opened one")
        .to_owned();
    let mut body = incident_body("Database unreachable");
    body["check_incident"] = json!(check_id);
    let (status, opened) = post(&app, &operator(&app), "/api/status/incidents", &body).await;
    assert_eq!(status, 201, "{opened}");
    assert_eq!(opened["check_incident"], check_id.as_str());
    // The operator's incident speaks for the checks' one: listed once.
    let unresolved = get_json(&app, "/api/v2/incidents/unresolved.json").await;
    let listed = unresolved["incidents"].as_array().expect("incidents");
    assert_eq!(listed.len(), 1, "{unresolved}");
    assert_eq!(listed[0]["name"], "Database unreachable");
}
on_both_backends!(an_update_can_be_attached_to_an_incident_the_checks_opened);

async fn uptime_leaves_out_checks_inside_a_maintenance_window(app: TestApp) {
    let now = now_ms();
    let minute = 60_000;
    // Healthy checks three hours ago, failures half an hour ago.
    let mut checks: Vec<RawCheck> = (0..10)
        .map(|i| check("db", now - 3 * 3_600_000 + i * minute, true))
        .collect();
    checks.extend((0..10).map(|i| check("db", now - 40 * minute + i * minute, false)));
    for c in &checks {
        app.status.record(vec![c.clone()], c.checked_at).await;
    }
    app.status.record(vec![check("db", now, true)], now).await;
    let before = get_json(&app, "/api/status").await;
    let db = |summary: &Value| {
        summary["components"]
            .as_array()
            .expect("components")
            .iter()
            .find(|c| c["id"] == "db")
            .expect("db")
            .clone()
    };
    let day_before = db(&before)["uptime"]["24h"].as_f64().expect("uptime");
    assert!(day_before < 60.0, "ten of 21 minutes failed: {day_before}");

    // Entered late, for work under way since before the failures (a window already over is
    // refused: it would rewrite the uptime shown).
    let body = window_body(
        "Failover drill",
        &["db"],
        (now - 45 * minute, now + 25 * minute),
        "Under way.",
    );
    let (status, window) = post(&app, &operator(&app), "/api/status/maintenances", &body).await;
    assert_eq!(status, 201, "{window}");
    let after = get_json(&app, "/api/status").await;
    assert_eq!(db(&after)["uptime"]["24h"].as_f64(), Some(100.0), "{after}");
    // Other components keep their figures; the window is in progress.
    assert_eq!(after["notices"][0]["status"], "in_progress");
}
on_both_backends!(uptime_leaves_out_checks_inside_a_maintenance_window);

async fn two_instances_on_one_database_show_the_same_notices(app: TestApp) {
    let second = spawn_beside(&app, |config| {
        config.status = mg_server::status::StatusConfig::manual("second");
    })
    .await;
    let (status, opened) = open_incident(&app, &operator(&app), "Seen everywhere").await;
    assert_eq!(status, 201, "{opened}");
    // The second instance shows it after its next round.
    second.status.check_now(now_ms()).await;
    let there = get_json(&second, "/api/v2/incidents/unresolved.json").await;
    assert_eq!(there["incidents"][0]["id"], opened["id"], "{there}");
    // And an update posted through the second shows on the first after its round.
    let path = format!(
        "/api/status/incidents/{}/updates",
        opened["id"].as_str().expect("id")
    );
    let ops_there = operator(&second);
    let (status, _) = post_update(&second, &ops_there, &path, "resolved", "Done.").await;
    assert_eq!(status, 200);
    app.status.check_now(now_ms()).await;
    let here = get_json(&app, "/api/v2/incidents/unresolved.json").await;
    assert_eq!(here["incidents"], json!([]), "{here}");
}
on_both_backends!(two_instances_on_one_database_show_the_same_notices);

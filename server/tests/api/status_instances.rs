//! Every instance agrees: two servers on one PostgreSQL show the same incidents and maintenance
//! windows. A post through one is in the other's `/api/status`, `/api/status/page` and the page
//! that reads without JavaScript (`/status/notices`) after one round of the other's checks (each
//! round driven by the test, `status.check_now`), and so is an update posted back through the
//! other; then both answer the same notices.

use mg_server::{status::StatusConfig, time::now_ms};
use serde_json::{json, Value};

use crate::{
    helpers::{spawn_app_with, spawn_beside, TestApp, TestBackend},
    status_operators::{get_json, incident_body, operator},
};

async fn post(app: &TestApp, path: &str, body: &Value) -> Value {
    let response = app.post_with_token(path, &operator(app), body).await;
    let status = response.status().as_u16();
    let answer: Value = response.json().await.unwrap_or(Value::Null);
    assert!(matches!(status, 200 | 201), "{path}: {status} {answer}");
    answer
}

/// `(id, status)` of every notice `app` answers in `/api/status`, in its order.
async fn notices(app: &TestApp) -> Vec<(String, String)> {
    let summary = get_json(app, "/api/status").await;
    summary["notices"]
        .as_array()
        .expect("notices")
        .iter()
        .map(|n| {
            (
                n["id"].as_str().unwrap_or_default().to_owned(),
                n["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// Runs one round of `app`'s checks, then checks that it answers `(id, status)` in `/api/status`
/// and `/api/status/page` and shows `words` on `/status/notices`.
async fn shown_after_a_round(app: &TestApp, id: &str, status: &str, words: &str) {
    app.status.check_now(now_ms()).await;
    let listed = notices(app).await;
    assert!(
        listed.contains(&(id.to_owned(), status.to_owned())),
        "{id} not {status} on {}: {listed:?}",
        app.address
    );
    let page = get_json(app, "/api/status/page").await;
    let in_page = page["summary"]["notices"]
        .as_array()
        .is_some_and(|all| all.iter().any(|n| n["id"] == id && n["status"] == status));
    assert!(in_page, "{id} not {status} in {}'s page", app.address);
    let plain = app.get_text("/status/notices").await;
    assert!(
        plain.contains(words),
        "{words} not on {}'s notices",
        app.address
    );
}

#[tokio::test]
async fn two_instances_on_one_postgres_show_each_others_posts_within_one_round() {
    let Some(first) = spawn_app_with(TestBackend::Postgres, |_| {}).await else {
        return;
    };
    let second = spawn_beside(&first, |config| {
        config.status = StatusConfig::manual("second");
    })
    .await;
    // Each has read the notices (none yet) before either writes, so what it carries is current
    // until another instance writes: a round that reads them only after its own writes, or only
    // once, shows none of the other's posts.
    for app in [&first, &second] {
        app.status.check_now(now_ms()).await;
        assert_eq!(notices(app).await, vec![], "{}", app.address);
    }

    let incident = post(
        &first,
        "/api/status/incidents",
        &incident_body("Seen everywhere"),
    )
    .await;
    let incident_id = incident["id"].as_str().expect("id").to_owned();
    let now = now_ms();
    let at = mg_server::time::rfc3339;
    let window = post(
        &first,
        "/api/status/maintenances",
        &json!({"title": "Database upgrade everywhere", "components": ["db"],
                "starts_at": at(now - 60_000), "ends_at": at(now + 3_600_000),
                "body": "PostgreSQL 17."}),
    )
    .await;
    let window_id = window["id"].as_str().expect("id").to_owned();

    shown_after_a_round(&second, &incident_id, "investigating", "Seen everywhere").await;
    shown_after_a_round(
        &second,
        &window_id,
        "in_progress",
        "Database upgrade everywhere",
    )
    .await;

    // Posted back through the second: the first, which has read its own posts in a round since,
    // shows it after one of its rounds.
    shown_after_a_round(&first, &incident_id, "investigating", "Seen everywhere").await;
    for (notice, status, body) in [
        (
            format!("incidents/{incident_id}"),
            "resolved",
            "Fixed on the second.",
        ),
        (
            format!("maintenances/{window_id}"),
            "completed",
            "Done early.",
        ),
    ] {
        let update = json!({"status": status, "body": body});
        post(&second, &format!("/api/status/{notice}/updates"), &update).await;
    }
    shown_after_a_round(&first, &incident_id, "resolved", "Fixed on the second.").await;
    shown_after_a_round(&first, &window_id, "completed", "Done early.").await;

    // Both answer the same notices, in the same order, and the same Statuspage incidents.
    shown_after_a_round(&second, &window_id, "completed", "Done early.").await;
    assert_eq!(notices(&first).await, notices(&second).await);
    let incidents = "/api/v2/incidents.json";
    assert_eq!(
        get_json(&first, incidents).await["incidents"],
        get_json(&second, incidents).await["incidents"]
    );
    crate::helpers::drop_postgres_database(&first.database_url).await;
}

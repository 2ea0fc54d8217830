//! Every instance agrees: two servers on one PostgreSQL, each checking on its own schedule
//! (`STATUS_CHECK_INTERVAL`), show the same incidents and maintenance windows. A post through one
//! is in the other's `/api/status`, `/api/status/page` and the page that reads without JavaScript
//! (`/status/notices`) within one round of its checks, and so is an update posted back through the
//! other; then both answer the same notices.

use std::time::{Duration, Instant};

use mg_server::{status::StatusConfig, time::now_ms};
use serde_json::{json, Value};

use crate::{
    helpers::{spawn_app_with, spawn_beside, TestApp, TestBackend},
    status_operators::{get_json, incident_body, operator},
};

/// Short, so the test waits little; each server's own scheduler runs the rounds.
const INTERVAL: Duration = Duration::from_secs(3);

fn scheduled(instance: &str) -> StatusConfig {
    StatusConfig {
        check_interval: INTERVAL,
        scheduler: true,
        ..StatusConfig::manual(instance)
    }
}

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

/// Waits until `app` answers `(id, status)` in `/api/status`, `/api/status/page` and shows
/// `words` on `/status/notices`, and says how long after `started` that was. Fails after two rounds.
async fn shown(app: &TestApp, started: Instant, id: &str, status: &str, words: &str) -> Duration {
    loop {
        let listed = notices(app)
            .await
            .contains(&(id.to_owned(), status.to_owned()));
        let page = get_json(app, "/api/status/page").await;
        let in_page = page["summary"]["notices"]
            .as_array()
            .is_some_and(|all| all.iter().any(|n| n["id"] == id && n["status"] == status));
        let plain = app
            .get("/status/notices")
            .await
            .text()
            .await
            .unwrap_or_default();
        if listed && in_page && plain.contains(words) {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < 2 * INTERVAL + Duration::from_secs(3),
            "{id} not {status} on {} after {:?}",
            app.address,
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn two_instances_on_one_postgres_show_each_others_posts_within_one_round() {
    let Some(first) = spawn_app_with(TestBackend::Postgres, |config| {
        config.status = scheduled("first");
    })
    .await
    else {
        return;
    };
    let second = spawn_beside(&first, |config| config.status = scheduled("second")).await;
    // One round: the other's interval, and the time its round takes (reads and renders, well under
    // a second here); a post seen only at the round after would take two intervals.
    let one_round = INTERVAL + Duration::from_millis(1_500);

    let posted = Instant::now();
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

    let took = shown(
        &second,
        posted,
        &incident_id,
        "investigating",
        "Seen everywhere",
    )
    .await;
    assert!(
        took <= one_round,
        "the incident took {took:?} on the second"
    );
    let took = shown(
        &second,
        posted,
        &window_id,
        "in_progress",
        "Database upgrade everywhere",
    )
    .await;
    assert!(took <= one_round, "the window took {took:?} on the second");

    // Posted back through the second: the first shows it within one of its rounds.
    let posted = Instant::now();
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
    let took = shown(
        &first,
        posted,
        &incident_id,
        "resolved",
        "Fixed on the second.",
    )
    .await;
    assert!(took <= one_round, "the update took {took:?} on the first");
    let took = shown(&first, posted, &window_id, "completed", "Done early.").await;
    assert!(
        took <= one_round,
        "the completion took {took:?} on the first"
    );

    // Both answer the same notices, in the same order, and the same Statuspage incidents.
    shown(&second, posted, &window_id, "completed", "Done early.").await;
    assert_eq!(notices(&first).await, notices(&second).await);
    let incidents = "/api/v2/incidents.json";
    assert_eq!(
        get_json(&first, incidents).await["incidents"],
        get_json(&second, incidents).await["incidents"]
    );
    crate::helpers::drop_postgres_database(&first.database_url).await;
}

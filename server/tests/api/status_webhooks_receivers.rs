//! Receivers do not wait on each other: with nineteen webhooks whose receivers hold every request
//! until the sender gives up (ten seconds an attempt), a twentieth, answering at once, hears an
//! incident's four events within seconds, in order. (Real connections and the worker running on its
//! own, woken by the operator's writes, are the subject here, so the test waits on the clock.)

use std::time::{Duration, Instant};

use crate::{
    helpers::TestApp,
    status_operators::{incident_body, post, token_with_roles},
    status_webhooks::{add_webhook, with_worker},
    webhook_receiver::Receiver,
};

async fn a_hanging_receiver_holds_back_only_itself(app: TestApp) {
    let receiver = Receiver::start().await;
    for n in 0..19 {
        add_webhook(&app, &receiver.url(&format!("/hang-{n}")), "json").await;
    }
    add_webhook(&app, &receiver.url("/ok"), "json").await;
    // Another operator writes the incident: twenty adds are the first one's burst of writes.
    let ops = token_with_roles(&app, "ops-2", &["status-operator"]);
    let started = Instant::now();
    let (status, opened) = post(&app, &ops, "/api/status/incidents", &incident_body("Slow")).await;
    assert_eq!(status, 201);
    let path = format!(
        "/api/status/incidents/{}/updates",
        opened["id"].as_str().expect("id")
    );
    for body in ["Found it.", "Fixing.", "Watching."] {
        let update = serde_json::json!({"status": "identified", "body": body});
        assert_eq!(post(&app, &ops, &path, &update).await.0, 200);
    }
    let got = receiver.wait_for("/ok", 4, 8).await;
    let waited = started.elapsed();
    assert_eq!(got.len(), 4, "the good receiver heard {} of 4", got.len());
    assert!(
        waited < Duration::from_secs(8),
        "the good receiver waited {waited:?}"
    );
    let events: Vec<String> = got
        .iter()
        .map(|r| r.json()["incident"]["update"].to_string())
        .collect();
    assert_eq!(events, ["1", "2", "3", "4"], "in order");
    // Every hanging receiver was tried, each once so far.
    for n in 0..19 {
        assert!(
            receiver.got(&format!("/hang-{n}")).len() <= 1,
            "one attempt at a time per receiver"
        );
    }
}
on_both_backends!(a_hanging_receiver_holds_back_only_itself, with with_worker);

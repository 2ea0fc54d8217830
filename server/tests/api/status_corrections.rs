//! Operators correcting themselves: an update's text edited or the update deleted shows on every
//! surface (the summary, the Statuspage JSON, the feed), sends no webhook, and the operator log
//! keeps who changed what, when, and the old text; what a notice keeps (its first update, the one
//! that ended it) and bad text are refused and change nothing. A component's status set without an
//! incident combines with what the checks measure by the one rule (the worse wins) until cleared.

use serde_json::{json, Value};

use mg_server::time::now_ms;

use crate::{
    helpers::TestApp,
    status_operators::{get_as, get_json, incident_body, operator, token_with_roles},
    status_webhooks::{
        add_webhook, allow_private, call, db_round, declare, delivery_log, looks_at_the_queue,
        sends_what_is_due,
    },
    webhook_receiver::Receiver,
};

/// The text of every update of the notice `id` in `notices` (newest first), from `body_html`.
fn texts(notices: &Value, id: &str) -> Vec<String> {
    notices
        .as_array()
        .expect("notices")
        .iter()
        .find(|n| n["id"] == id)
        .map(|n| {
            n["updates"]
                .as_array()
                .expect("updates")
                .iter()
                .map(|u| u["body_html"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn error(answer: &Value) -> &str {
    answer["error"].as_str().unwrap_or_default()
}

async fn operators_edit_and_delete_their_updates(app: TestApp) {
    let receiver = Receiver::start().await;
    add_webhook(&app, &receiver.url("/hook"), "json").await;
    let ops = operator(&app);
    let mut body = incident_body("Slow sign-ins");
    body["body"] = json!("We are lokoing into it.");
    let (status, opened) = call(&app, "POST", "/api/status/incidents", Some(&ops), &body).await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["id"].as_str().expect("id").to_owned();
    let updates = format!("/api/status/incidents/{id}/updates");
    let identified =
        json!({"status": "identified", "body": "Wrong guess.", "component_status": "major_outage"});
    let (status, _) = call(&app, "POST", &updates, Some(&ops), &identified).await;
    assert_eq!(status, 200);
    sends_what_is_due(&app, now_ms()).await;

    // Edit the first update: the answer, the summary, the Statuspage JSON and the feed say it.
    let first = format!("{updates}/1");
    let fixed = json!({"body": "We are **looking** into it."});
    let (status, edited) = call(&app, "PATCH", &first, Some(&ops), &fixed).await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(
        texts(&json!([edited]), &id).last().map(String::as_str),
        Some("<p>We are <strong>looking</strong> into it.</p>\n")
    );
    let summary = get_json(&app, "/api/status").await;
    assert!(texts(&summary["notices"], &id)[1].contains("looking"));
    let incidents = get_json(&app, "/api/v2/incidents.json").await.to_string();
    assert!(incidents.contains("looking") && !incidents.contains("lokoing"));
    let feed = app
        .get("/status/feed.atom")
        .await
        .text()
        .await
        .expect("feed");
    assert!(
        feed.contains("looking") && !feed.contains("lokoing"),
        "{feed}"
    );

    // Delete the second: the timeline, the status and the declaration go back to the first.
    let second = format!("{updates}/2");
    let (status, deleted) = call(&app, "DELETE", &second, Some(&ops), &Value::Null).await;
    assert_eq!(status, 200, "{deleted}");
    assert_eq!(deleted["updates"].as_array().map(Vec::len), Some(1));
    assert_eq!(deleted["status"], "investigating");
    assert_eq!(deleted["component_status"], Value::Null);
    assert!(!get_json(&app, "/api/v2/incidents.json")
        .await
        .to_string()
        .contains("Wrong guess"));

    // Refused, changing nothing.
    let revisions = app.count_rows("status_update_revisions").await;
    let refusals = [
        (
            "DELETE",
            first.clone(),
            Value::Null,
            400,
            "An incident keeps its first update; edit it instead.",
        ),
        (
            "PATCH",
            first.clone(),
            json!({"body": "  "}),
            400,
            "The update must be 1 to 4000 characters (it has 0).",
        ),
        (
            "PATCH",
            first.clone(),
            json!({"body": "a\u{202e}b"}),
            400,
            "The update holds bidi embedding, override or isolate characters.",
        ),
        (
            "PATCH",
            first.clone(),
            json!({"body": "x", "status": "resolved"}),
            400,
            "",
        ),
        ("PATCH", second.clone(), json!({"body": "Back?"}), 404, ""),
        ("DELETE", second.clone(), Value::Null, 404, ""),
        (
            "PATCH",
            format!("{updates}/9"),
            json!({"body": "x"}),
            404,
            "",
        ),
        (
            "PATCH",
            format!("/api/status/maintenances/{id}/updates/1"),
            json!({"body": "x"}),
            404,
            "",
        ),
    ];
    for (method, path, body, code, words) in refusals {
        let (status, answer) = call(&app, method, &path, Some(&ops), &body).await;
        assert_eq!(status, code, "{method} {path}: {answer}");
        assert!(error(&answer).contains(words), "{answer}");
    }
    let bad = format!("{updates}/x"); // Not a number: a JSON 404, as for any unknown update.
    let (status, answer) = call(&app, "DELETE", &bad, Some(&ops), &Value::Null).await;
    assert_eq!(status, 404);
    assert_eq!(error(&answer), "There is nothing at this address.");
    let reader = token_with_roles(&app, "reader", &[]);
    let (status, _) = call(&app, "PATCH", &first, Some(&reader), &fixed).await;
    assert_eq!(status, 403);
    let (status, _) = call(&app, "DELETE", &first, None, &Value::Null).await;
    assert_eq!(status, 401);
    assert_eq!(app.count_rows("status_update_revisions").await, revisions);

    // The update that resolved it stays.
    let resolved = json!({"status": "resolved", "body": "Fixed."});
    let (status, _) = call(&app, "POST", &updates, Some(&ops), &resolved).await;
    assert_eq!(status, 200);
    let (status, answer) = call(
        &app,
        "DELETE",
        &format!("{updates}/3"),
        Some(&ops),
        &Value::Null,
    )
    .await;
    assert_eq!(
        (status, error(&answer)),
        (
            400,
            "An incident keeps the update that ended it; edit it instead."
        )
    );
    let (status, _) = call(
        &app,
        "PATCH",
        &format!("{updates}/3"),
        Some(&ops),
        &json!({"body": "Fixed: a full disk."}),
    )
    .await;
    assert_eq!(
        status, 200,
        "the text of a resolved incident can be corrected"
    );

    // The log keeps who, when and the old text; the view lists the texts as posted.
    let (status, log) = get_as(&app, &ops, "/api/status/operator/log").await;
    assert_eq!(status, 200);
    let entries = log["entries"].as_array().expect("entries");
    let entry = |action: &str| {
        entries
            .iter()
            .find(|e| e["action"] == action)
            .unwrap_or_else(|| panic!("{action} logged: {log}"))
            .clone()
    };
    assert_eq!(
        entry("edit incident update 1")["old_text"],
        "We are lokoing into it."
    );
    assert_eq!(
        entry("delete incident update 2")["old_text"],
        "Wrong guess."
    );
    assert_eq!(entry("edit incident update 3")["old_text"], "Fixed.");
    assert_eq!(
        entry("edit incident update 1")["operator"],
        entry("open incident")["operator"]
    );
    assert!(entry("edit incident update 1")["at"].is_string());
    let (_, view) = get_as(&app, &ops, "/api/status/operator").await;
    let posted = view["posted"]
        .as_array()
        .expect("posted")
        .iter()
        .find(|n| n["id"] == id.as_str())
        .expect("listed")
        .clone();
    assert_eq!(posted["updates"][0]["body"], "Fixed: a full disk.");
    assert_eq!(posted["updates"][1]["body"], "We are **looking** into it.");
    assert!(posted["updates"][1]["kept"].is_string());

    // No webhook for a correction: the opening's, the update's and the resolution's only, even after
    // the worker's later looks at the queue.
    sends_what_is_due(&app, now_ms()).await;
    looks_at_the_queue(&app).await;
    assert_eq!(delivery_log(&app).await.len(), 3);
}
on_both_backends!(operators_edit_and_delete_their_updates, with allow_private);

async fn status_of(app: &TestApp, component: &str) -> Value {
    let summary = get_json(app, "/api/status").await;
    summary["components"]
        .as_array()
        .expect("components")
        .iter()
        .find(|c| c["id"] == component)
        .map(|c| json!([c["status"], c["status_source"]]))
        .expect("listed")
}

async fn a_component_status_without_an_incident_combines_with_the_measure(app: TestApp) {
    let ops = operator(&app);
    let t = now_ms();
    db_round(&app, t, true).await;
    let (status, answer) = declare(&app, &ops, "db", json!("degraded_performance")).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["set"], "degraded_performance");
    assert_eq!(answer["status"], "degraded_performance");
    assert_eq!(
        status_of(&app, "db").await,
        json!(["degraded_performance", "declared"])
    );
    let statuspage = get_json(&app, "/api/v2/summary.json").await;
    assert_eq!(statuspage["status"]["indicator"], "minor");
    // Still in force after the next round of checks that see it up.
    db_round(&app, t + 30_000, true).await;
    assert_eq!(status_of(&app, "db").await[0], "degraded_performance");

    // An incident's declaration and the component's own: the worse wins.
    let mut body = incident_body("Partial");
    body["component_status"] = json!("partial_outage");
    let (status, opened) = call(&app, "POST", "/api/status/incidents", Some(&ops), &body).await;
    assert_eq!(status, 201);
    assert_eq!(status_of(&app, "db").await[0], "partial_outage");
    let resolved = json!({"status": "resolved", "body": "Done."});
    let id = opened["id"].as_str().expect("id");
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/status/incidents/{id}/updates"),
        Some(&ops),
        &resolved,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        status_of(&app, "db").await[0],
        "degraded_performance",
        "the component's own stays"
    );

    // It never hides what the checks see.
    let (status, _) = declare(&app, &ops, "db", json!("operational")).await;
    assert_eq!(status, 200);
    db_round(&app, t + 60_000, false).await;
    assert_eq!(status_of(&app, "db").await[0], "major_outage");

    // Cleared: the measure again.
    db_round(&app, t + 90_000, true).await;
    let (status, answer) = declare(&app, &ops, "db", Value::Null).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(status_of(&app, "db").await, json!(["operational", null]));

    // Refused, changing nothing.
    let rows = app.count_rows("status_component_declarations").await;
    let (status, answer) = declare(&app, &ops, "db", json!("under_maintenance")).await;
    assert_eq!(status, 400);
    assert!(
        error(&answer).contains("schedule a maintenance window"),
        "{answer}"
    );
    assert_eq!(declare(&app, &ops, "db", json!("on_fire")).await.0, 400);
    assert_eq!(
        declare(&app, &ops, "disk", json!("major_outage")).await.0,
        404
    );
    let reader = token_with_roles(&app, "reader", &[]);
    assert_eq!(
        declare(&app, &reader, "db", json!("major_outage")).await.0,
        403
    );
    assert_eq!(app.count_rows("status_component_declarations").await, rows);

    let (_, log) = get_as(&app, &ops, "/api/status/operator/log").await;
    let actions: Vec<&str> = log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["target"] == "component db")
        .filter_map(|e| e["action"].as_str())
        .collect();
    assert_eq!(
        actions,
        [
            "clear component status",
            "set component status (operational)",
            "set component status (degraded_performance)"
        ]
    );
    let (_, view) = get_as(&app, &ops, "/api/status/operator").await;
    assert!(view["component_settings"]
        .as_array()
        .expect("settings")
        .contains(&json!(["db", null])));
}
on_both_backends!(a_component_status_without_an_incident_combines_with_the_measure);

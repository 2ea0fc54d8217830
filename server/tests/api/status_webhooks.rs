//! The status page's webhooks: operators add them (the secret answered once), list and delete
//! them, and read the delivery log; others get 403, anonymous callers 401. A test receiver gets
//! each incident update and each component change once, signed; a failed attempt is retried with
//! the same delivery id; a redirect is not followed; loopback, private and link-local URLs are
//! refused unless the configuration allows them; a change inside a maintenance window is held.

use std::collections::HashSet;

use serde_json::{json, Value};

use mg_server::{
    config::Config,
    status::webhooks::{BACKOFF_SECS, LEASE_MS},
    time::now_ms,
};

use crate::{
    helpers::TestApp,
    status_operators::{check, get_as, open_incident, operator, post, token_with_roles},
    webhook_receiver::Receiver,
};

/// The webhooks' tests: receivers on 127.0.0.1. The worker does not run (test servers start
/// without it): the test drives its passes ([`sends_what_is_due`], [`looks_at_the_queue`]).
pub fn allow_private(config: &mut Config) {
    config.status.webhooks_allow_private = true;
}

/// [`allow_private`] with the worker running on its own, for the tests about the worker itself
/// (woken by a write, a hanging receiver beside the others).
pub fn with_worker(config: &mut Config) {
    allow_private(config);
    config.status.webhooks_worker = true;
}

/// `method path` as `token` (none: anonymous) with `body` (POST and PATCH): status and JSON answer.
pub async fn call(
    app: &TestApp,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
    let mut request = app
        .client
        .request(method.clone(), format!("{}{path}", app.address));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if method == reqwest::Method::POST || method == reqwest::Method::PATCH {
        request = request.json(body);
    }
    let response = request.send().await.expect("answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Sets `component`'s own status to `status` (`null` clears it) as `token`: status and JSON answer.
pub async fn declare(app: &TestApp, token: &str, component: &str, status: Value) -> (u16, Value) {
    let path = format!("/api/status/components/{component}");
    call(
        app,
        "PATCH",
        &path,
        Some(token),
        &json!({ "status": status }),
    )
    .await
}

/// Adds a webhook to `url` in `format` as the operator: its id and secret.
pub async fn add_webhook(app: &TestApp, url: &str, format: &str) -> (String, String) {
    let body = json!({"url": url, "format": format, "name": "Receiver"});
    let (status, added) = call(
        app,
        "POST",
        "/api/status/webhooks",
        Some(&operator(app)),
        &body,
    )
    .await;
    assert_eq!(status, 201, "{added}");
    let secret = added["secret"].as_str().expect("secret").to_owned();
    assert_eq!(secret.len(), 64, "32 bytes, hex");
    (
        added["webhook"]["id"].as_str().expect("id").to_owned(),
        secret,
    )
}

pub async fn delivery_log(app: &TestApp) -> Vec<Value> {
    let (status, log) = get_as(app, &operator(app), "/api/status/webhooks/deliveries").await;
    assert_eq!(status, 200, "{log}");
    log["deliveries"].as_array().expect("deliveries").clone()
}

/// The delivery of `event` in the log (the newest, when there are several).
pub async fn delivery_of(app: &TestApp, event: &str) -> Value {
    let log = delivery_log(app).await;
    let found = log.iter().find(|d| d["event"] == event).cloned();
    found.unwrap_or_else(|| panic!("no delivery of {event}: {log:?}"))
}

/// Passes of `app`'s webhooks worker at `at` until nothing more is due then, each waited for until
/// what it sent is done: each receiver gets the deliveries of its queue due at `at`, one a pass, in
/// order (a paused receiver none).
pub async fn sends_what_is_due(app: &TestApp, at: i64) {
    // More than a queue can hold of a test's events.
    for _ in 0..20 {
        let next = app.status.webhooks.pass_and_send(at).await;
        if next
            .expect("a pass over the queue")
            .is_none_or(|due| due > at)
        {
            return;
        }
    }
    panic!("deliveries still due at {at} after 20 passes: what is due is not sent");
}

/// Two passes of `app`'s webhooks worker, now and after every lease taken now has run out, each
/// waited for until what it sent is done: what the worker's own later passes would do.
pub async fn looks_at_the_queue(app: &TestApp) {
    for at in [now_ms(), now_ms() + LEASE_MS + 1] {
        app.status
            .webhooks
            .pass_and_send(at)
            .await
            .expect("a pass over the queue");
    }
}

/// Records a round at `at` with the `db` component `healthy`.
pub async fn db_round(app: &TestApp, at: i64, healthy: bool) {
    app.status
        .record(vec![check("db", at, healthy), check("api", at, true)], at)
        .await;
}

async fn incident_updates_reach_the_receiver_signed_and_once(app: TestApp) {
    let receiver = Receiver::start().await;
    let ops = operator(&app);
    let (_, secret) = add_webhook(&app, &receiver.url("/slow"), "json").await;
    add_webhook(&app, &receiver.url("/slack"), "slack").await;
    let (status, list) = get_as(&app, &ops, "/api/status/webhooks").await;
    assert_eq!(status, 200);
    assert_eq!(list["webhooks"].as_array().map(Vec::len), Some(2));
    assert!(
        !list.to_string().contains(&secret),
        "the secret is shown once"
    );

    let (status, opened) = open_incident(&app, &ops, "Slow").await;
    assert_eq!(status, 201);
    let id = opened["id"].as_str().expect("id");
    // Three updates in a row: the receiver (slow to answer) hears the four events one after
    // another, in the order they happened.
    let path = format!("/api/status/incidents/{id}/updates");
    for body in ["Found it.", "Fixing.", "Watching."] {
        let update = json!({"status": "identified", "body": body});
        assert_eq!(post(&app, &ops, &path, &update).await.0, 200);
    }

    sends_what_is_due(&app, now_ms()).await;
    let got = receiver.got("/slow");
    assert_eq!(got.len(), 4, "{got:?}");
    for request in &got {
        assert!(request.signed_with(&secret), "{request:?}");
        assert_eq!(request.header("content-type"), "application/json");
        assert_eq!(
            request.json()["delivery_id"],
            request.header("x-mg-delivery")
        );
        assert_eq!(request.json()["event"], request.header("x-mg-event"));
        assert_eq!(request.json()["incident"]["id"], id);
        assert!(request.json()["page_url"]
            .as_str()
            .expect("url")
            .ends_with("/apotheosis"));
    }
    let events: Vec<&str> = got.iter().map(|r| r.header("x-mg-event")).collect();
    assert_eq!(
        events,
        [
            "incident.opened",
            "incident.updated",
            "incident.updated",
            "incident.updated"
        ]
    );
    let numbers: Vec<Value> = got
        .iter()
        .map(|r| r.json()["incident"]["update"].clone())
        .collect();
    assert_eq!(
        numbers,
        [1, 2, 3, 4],
        "updates in the order they were posted"
    );
    assert_eq!(got[3].json()["incident"]["body"], "Watching.");
    let ids: HashSet<&str> = got.iter().map(|r| r.header("x-mg-delivery")).collect();
    assert_eq!(ids.len(), 4, "one delivery id per event");
    let slack = receiver.got("/slack");
    assert_eq!(slack.len(), 4, "{slack:?}");
    assert!(slack[0].json()["text"]
        .as_str()
        .expect("text")
        .contains("Slow"));
    assert!(
        !slack[0].signed_with(&secret),
        "each webhook has its own secret"
    );

    // Once: later looks at the queue send nothing more, even once every lease has run out.
    looks_at_the_queue(&app).await;
    assert_eq!(receiver.got("/slow").len(), 4);
    let log = delivery_log(&app).await;
    assert_eq!(log.len(), 8);
    assert!(
        log.iter()
            .all(|d| d["state"] == "delivered" && d["attempts"] == 1 && d["last_status"] == 200),
        "{log:?}"
    );
    let (_, actions) = get_as(&app, &ops, "/api/status/operator/log").await;
    assert!(actions.to_string().contains("add webhook"), "{actions}");
}
on_both_backends!(incident_updates_reach_the_receiver_signed_and_once, with allow_private);

/// A receiver with a webhook to its `path` in `format`, and an incident titled `title` opened.
async fn incident_sent_to(app: &TestApp, path: &str, format: &str, title: &str) -> Receiver {
    let receiver = Receiver::start().await;
    add_webhook(app, &receiver.url(path), format).await;
    assert_eq!(open_incident(app, &operator(app), title).await.0, 201);
    receiver
}

async fn a_failed_attempt_is_retried_with_the_same_delivery_id(app: TestApp) {
    let receiver = incident_sent_to(&app, "/fail-once", "discord", "Flaky").await;
    let now = now_ms();
    sends_what_is_due(&app, now).await;
    let pending = delivery_of(&app, "incident.opened").await;
    assert_eq!(
        (
            pending["state"].as_str(),
            pending["attempts"].as_i64(),
            pending["last_status"].as_i64()
        ),
        (Some("pending"), Some(1), Some(500)),
        "{pending}"
    );
    assert!(pending["next_attempt_at"].is_string());
    // Not again within the receiver's pause after a failure; once it is over, again.
    let pause = BACKOFF_SECS[0] * 1000;
    sends_what_is_due(&app, now + pause / 2).await;
    assert_eq!(
        receiver.got("/fail-once").len(),
        1,
        "sent again within its pause"
    );
    sends_what_is_due(&app, now + 2 * pause).await;
    let got = receiver.got("/fail-once");
    assert_eq!(got.len(), 2);
    assert_eq!(
        got[0].header("x-mg-delivery"),
        got[1].header("x-mg-delivery"),
        "the same delivery id every attempt"
    );
    assert_eq!(got[0].body, got[1].body, "the same body every attempt");
    assert_eq!(got[0].json()["allowed_mentions"]["parse"], json!([]));
    let delivered = delivery_of(&app, "incident.opened").await;
    assert_eq!(delivered["state"], "delivered", "{delivered}");
    assert_eq!(delivered["attempts"], 2);
}
on_both_backends!(a_failed_attempt_is_retried_with_the_same_delivery_id, with allow_private);

async fn a_redirect_is_not_followed(app: TestApp) {
    let receiver = incident_sent_to(&app, "/redirect", "json", "Moved").await;
    sends_what_is_due(&app, now_ms()).await;
    let pending = delivery_of(&app, "incident.opened").await;
    assert_eq!(pending["state"], "pending", "{pending}");
    assert_eq!(pending["last_status"], 302);
    assert!(pending["last_error"]
        .as_str()
        .expect("error")
        .contains("redirect"));
    assert!(receiver.got("/ok").is_empty(), "the redirect was followed");
}
on_sqlite!(a_redirect_is_not_followed, with allow_private);

async fn private_addresses_are_refused_by_default(app: TestApp) {
    let ops = operator(&app);
    for url in [
        "http://127.0.0.1:8080/hook",
        "http://[::1]:8080/hook",
        "http://10.0.0.1/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::ffff:192.168.1.1]/",
        "http://localhost:8080/",
        "http://100.64.0.1/",
    ] {
        let (status, answer) = post(
            &app,
            &ops,
            "/api/status/webhooks",
            &json!({"url": url, "format": "json"}),
        )
        .await;
        assert_eq!(status, 400, "{url}: {answer}");
        assert_eq!(answer["code"], "invalid_field", "{answer}");
        assert!(
            answer["error"]
                .as_str()
                .expect("message")
                .contains("public address"),
            "{answer}"
        );
    }
    assert_eq!(app.count_rows("status_webhooks").await, 0);
}
on_sqlite!(private_addresses_are_refused_by_default);

async fn what_an_operator_sends_is_bounded(app: TestApp) {
    let ops = operator(&app);
    let add = |body: Value| {
        let (app, ops) = (&app, ops.clone());
        async move { post(app, &ops, "/api/status/webhooks", &body).await }
    };
    let long = format!("http://127.0.0.1/{}", "a".repeat(2_000));
    for body in [
        json!({"url": "ftp://127.0.0.1/x", "format": "json"}),
        json!({"url": "http://u:p@127.0.0.1/x", "format": "json"}),
        json!({"url": long, "format": "json"}),
        json!({"url": "not a url", "format": "json"}),
        json!({"url": "http://127.0.0.1/x", "format": "xml"}),
        json!({"url": "http://127.0.0.1/x", "format": "json", "name": "x".repeat(101)}),
        json!({"url": "http://127.0.0.1/x", "format": "json", "name": "a\u{7}b"}),
        json!({"url": "http://127.0.0.1/x", "format": "json", "secret": "mine"}),
        json!({"format": "json"}),
    ] {
        let (status, answer) = add(body.clone()).await;
        assert!(status == 400 || status == 422, "{body}: {status} {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    assert_eq!(app.count_rows("status_webhooks").await, 0);
    // The form's refusals name its field by its label, in plain words.
    let (_, answer) = add(json!({"url": "not a url", "format": "json"})).await;
    assert_eq!(
        answer["error"],
        "The URL is not a web address: write it whole, starting with https://."
    );
    let (_, answer) = add(json!({"url": long, "format": "json"})).await;
    assert_eq!(
        answer["error"],
        "The URL must be 1 to 2000 characters (it has 2017)."
    );
    // 20 live at most; the rate limit (20 writes a minute per operator) is met first by one
    // operator, so two share the work.
    let other = token_with_roles(&app, "ops-2", &["status-operator"]);
    for i in 0..20 {
        let token = if i < 10 { &ops } else { &other };
        let body = json!({"url": format!("http://127.0.0.1:9/{i}"), "format": "json"});
        let (status, answer) = call(&app, "POST", "/api/status/webhooks", Some(token), &body).await;
        assert_eq!(status, 201, "{i}: {answer}");
    }
    let body = json!({"url": "http://127.0.0.1:9/x", "format": "json"});
    let (status, answer) = post(&app, &other, "/api/status/webhooks", &body).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(app.count_rows("status_webhooks").await, 20);
    // Deleting one makes room; a deleted one is gone from the list, twice is 404.
    let (_, list) = get_as(&app, &ops, "/api/status/webhooks").await;
    let id = list["webhooks"][0]["id"].as_str().expect("id").to_owned();
    let path = format!("/api/status/webhooks/{id}");
    let delete = || call(&app, "DELETE", &path, Some(&ops), &Value::Null);
    assert_eq!(delete().await.0, 204);
    assert_eq!(delete().await.0, 404, "twice");
    let (_, list) = get_as(&app, &ops, "/api/status/webhooks").await;
    assert_eq!(list["webhooks"].as_array().map(Vec::len), Some(19));
    let (_, actions) = get_as(&app, &ops, "/api/status/operator/log").await;
    assert!(actions.to_string().contains("delete webhook"), "{actions}");
    // Writes are rate limited per operator.
    let mut limited = false;
    for i in 0..25 {
        let body = json!({"url": format!("http://127.0.0.1:9/r{i}"), "format": "json"});
        if post(&app, &ops, "/api/status/webhooks", &body).await.0 == 429 {
            limited = true;
            break;
        }
    }
    assert!(limited, "an operator's writes are rate limited");
}
on_both_backends!(what_an_operator_sends_is_bounded, with allow_private);

async fn only_operators_reach_the_webhooks(app: TestApp) {
    let someone = token_with_roles(&app, "user-1", &[]);
    let body = json!({"url": "http://127.0.0.1:9/x", "format": "json"});
    for (method, path) in [
        ("GET", "/api/status/webhooks"),
        ("POST", "/api/status/webhooks"),
        ("GET", "/api/status/webhooks/deliveries"),
        ("DELETE", "/api/status/webhooks/abc"),
    ] {
        let (status, answer) = call(&app, method, path, Some(&someone), &body).await;
        assert_eq!(status, 403, "{method} {path}: {answer}");
        assert_eq!(answer["code"], "forbidden");
        let (status, _) = call(&app, method, path, None, &body).await;
        assert_eq!(status, 401, "{method} {path}");
    }
    assert_eq!(app.count_rows("status_webhooks").await, 0);
}
on_both_backends!(only_operators_reach_the_webhooks, with allow_private);

async fn a_component_change_is_told_and_held_inside_a_window(app: TestApp) {
    let receiver = Receiver::start().await;
    let (_, secret) = add_webhook(&app, &receiver.url("/ok"), "json").await;
    let t = now_ms();
    db_round(&app, t, true).await;
    db_round(&app, t + 1_000, false).await;
    db_round(&app, t + 2_000, false).await;
    sends_what_is_due(&app, t + 10_000).await;
    let got = receiver.got("/ok");
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].signed_with(&secret));
    assert_eq!(got[0].header("x-mg-event"), "component.down");
    assert_eq!(got[0].json()["component"]["id"], "db");
    db_round(&app, t + 3_000, false).await;
    db_round(&app, t + 4_000, true).await;
    sends_what_is_due(&app, t + 20_000).await;
    let got = receiver.got("/ok");
    assert_eq!(got[1].header("x-mg-event"), "component.up");
    // Inside a maintenance window on the database, the next outage is logged as held, not sent.
    let at = mg_server::time::rfc3339;
    let window = json!({"title": "Upgrade", "components": ["db"], "starts_at": at(t - 60_000),
        "ends_at": at(t + 3_600_000), "body": "Planned."});
    let ops = operator(&app);
    assert_eq!(
        post(&app, &ops, "/api/status/maintenances", &window)
            .await
            .0,
        201
    );
    sends_what_is_due(&app, t + 30_000).await;
    db_round(&app, t + 5_000, false).await;
    db_round(&app, t + 6_000, false).await;
    sends_what_is_due(&app, t + 40_000).await;
    let held = delivery_of(&app, "component.down").await;
    assert_eq!(held["state"], "held", "{held}");
    looks_at_the_queue(&app).await;
    let events: Vec<String> = receiver
        .got("/ok")
        .iter()
        .map(|r| r.header("x-mg-event").to_owned())
        .collect();
    // The window started before it was scheduled: the next round starts it by the clock (its
    // own `maintenance.updated`), and the outage inside it is held.
    assert_eq!(
        events,
        [
            "component.down",
            "component.up",
            "maintenance.scheduled",
            "maintenance.updated"
        ]
    );
}
on_both_backends!(a_component_change_is_told_and_held_inside_a_window, with allow_private);

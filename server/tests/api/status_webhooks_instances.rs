//! The webhooks through several instances on one PostgreSQL: an incident's updates posted on
//! either instance and a database outage the checks of both found are each delivered once; and
//! a delivery whose sending instance is killed (SIGKILL) while the receiver holds the request is
//! sent again, with the same delivery id, by another instance once the lease runs out. The test's
//! own servers run no worker: their passes are driven, both instances' side by side.

use std::collections::HashMap;

use serde_json::json;

use mg_server::{status::webhooks::LEASE_MS, time::now_ms};

use crate::{
    helpers::{
        free_port, healthy_within_10_s, server_command, spawn_app_with, spawn_beside, Process,
        TestApp, TestBackend,
    },
    status_operators::{get_as, incident_body, open_incident, operator},
    status_outage::wait_for_db_health,
    status_webhooks::{
        add_webhook, allow_private, call, delivery_log, delivery_of, looks_at_the_queue,
        sends_what_is_due,
    },
    webhook_receiver::Receiver,
};

#[tokio::test]
async fn two_instances_deliver_each_update_and_a_database_outage_once() {
    let Some(first) = spawn_app_with(TestBackend::Postgres, allow_private).await else {
        return;
    };
    let second = spawn_beside(&first, |config| {
        config.status = mg_server::status::StatusConfig {
            webhooks_allow_private: true,
            ..mg_server::status::StatusConfig::manual("second")
        };
    })
    .await;
    let receiver = Receiver::start().await;
    let (_, secret) = add_webhook(&first, &receiver.url("/ok"), "json").await;

    // An incident opened on the first instance, updated on the second.
    let (status, opened) = open_incident(&first, &operator(&first), "Both").await;
    assert_eq!(status, 201, "{opened}");
    let path = format!(
        "/api/status/incidents/{}/updates",
        opened["id"].as_str().expect("id")
    );
    let update = json!({"status": "monitoring", "body": "Watching."});
    assert_eq!(
        call(&second, "POST", &path, Some(&operator(&second)), &update)
            .await
            .0,
        200
    );

    // The database stops while both instances check; both find it down, and tell it once the
    // database (the queue) is back.
    let t = now_ms();
    first.status.check_now(t).await;
    second.status.check_now(t).await;
    crate::faults::postgres_connections(&first.database_url, false).await;
    for at in [t + 1_000, t + 2_000] {
        first.status.check_now(at).await;
        second.status.check_now(at).await;
    }
    crate::faults::postgres_connections(&first.database_url, true).await;
    wait_for_db_health(&first).await;
    wait_for_db_health(&second).await;
    first.status.check_now(t + 3_000).await;
    second.status.check_now(t + 3_000).await;

    // Both instances pass over the queue at once: each event is enqueued and sent by one of them.
    // (One stops at a delivery the other has in flight: then each passes once more, in turn.)
    let now = now_ms();
    tokio::join!(
        sends_what_is_due(&first, now),
        sends_what_is_due(&second, now)
    );
    for app in [&first, &second] {
        sends_what_is_due(app, now).await;
    }
    let got = receiver.got("/ok");
    // More looks at the queue by both instances add nothing.
    for app in [&first, &second, &first, &second] {
        looks_at_the_queue(app).await;
    }
    let got_now = receiver.got("/ok");
    assert_eq!(got_now.len(), got.len());
    let mut events: HashMap<String, usize> = HashMap::new();
    for request in &got_now {
        assert!(request.signed_with(&secret), "{request:?}");
        *events
            .entry(request.header("x-mg-event").to_owned())
            .or_default() += 1;
    }
    let expected: HashMap<String, usize> = [
        "incident.opened",
        "incident.updated",
        "component.down",
        "component.up",
    ]
    .into_iter()
    .map(|e| (e.to_owned(), 1))
    .collect();
    assert_eq!(events, expected, "each event once: {got_now:?}");
    let down = got_now
        .iter()
        .find(|r| r.header("x-mg-event") == "component.down")
        .expect("down");
    assert_eq!(down.json()["component"]["id"], "db");
    // Both instances show the same webhooks and deliveries.
    let (_, there) = get_as(&second, &operator(&second), "/api/status/webhooks").await;
    assert_eq!(there["webhooks"].as_array().map(Vec::len), Some(1));
    assert_eq!(delivery_log(&second).await.len(), 4);
    crate::helpers::drop_postgres_database(&first.database_url).await;
}

/// A real server process beside `app`, allowed to reach the receiver on loopback.
fn instance(app: &TestApp, port: u16) -> Process {
    let child = server_command(app, port)
        .env("STATUS_WEBHOOKS_ALLOW_PRIVATE", "true")
        .env("INSTANCE_ID", format!("webhooks-{port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server starts");
    Process(child)
}

#[tokio::test]
async fn a_delivery_survives_a_kill_9_of_the_instance_sending_it() {
    // The test's own server takes requests but sends nothing by itself, so the process sending is
    // known.
    let Some(app) = spawn_app_with(TestBackend::Postgres, allow_private).await else {
        return;
    };
    let receiver = Receiver::start().await;
    let (_, secret) = add_webhook(&app, &receiver.url("/stall"), "json").await;
    let sending_port = free_port();
    let mut sending = instance(&app, sending_port);
    let base = format!("http://127.0.0.1:{sending_port}");
    assert!(healthy_within_10_s(&app.client, &base).await);
    // The incident is opened on the sending instance, whose write wakes its worker at once (an
    // event written by another instance waits for its next pass, up to `MAX_REST`).
    let opened = app
        .client
        .post(format!("{base}/api/status/incidents"))
        .bearer_auth(operator(&app))
        .json(&incident_body("Killed"))
        .send()
        .await
        .expect("the sending instance answers");
    assert_eq!(opened.status(), 201);
    // The receiver holds the first request; the instance sending it is killed meanwhile.
    let first = receiver.wait_for("/stall", 1, 20).await;
    assert_eq!(
        first.len(),
        1,
        "sent again while its first attempt holds the lease"
    );
    sending.kill();
    // Before the lease runs out, another instance (the test's own server, its pass driven) leaves
    // the delivery alone; once it has, that instance sends it again.
    sends_what_is_due(&app, now_ms()).await;
    assert_eq!(
        receiver.got("/stall").len(),
        1,
        "sent again within the lease"
    );
    sends_what_is_due(&app, now_ms() + LEASE_MS + 1).await;
    let both = receiver.got("/stall");
    let delivered = delivery_of(&app, "incident.opened").await;
    assert_eq!(delivered["state"], "delivered", "{delivered}");
    assert_eq!(both.len(), 2, "sent again after the kill");
    assert_eq!(
        both[0].header("x-mg-delivery"),
        both[1].header("x-mg-delivery")
    );
    assert_eq!(both[0].body, both[1].body);
    assert!(both.iter().all(|r| r.signed_with(&secret)));
    let log = delivery_log(&app).await;
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(delivered["attempts"].as_i64(), Some(2), "{delivered:?}");
    crate::helpers::drop_postgres_database(&app.database_url).await;
}

//! Status history through faults: checks held while the database is away and written when it
//! returns, an incident closed after a restart, and two instances as two viewpoints on one PostgreSQL.

use std::time::Duration;

use mg_server::status::StatusConfig;
use serde_json::Value;

use crate::{
    helpers::{spawn_app_with, spawn_beside, TestApp, TestBackend},
    status::{component, json, QueueDouble, INTERVAL, T0},
    status_storage::incident_span,
};

/// `(checked_at, healthy)` of every stored check of `component`.
async fn stored(app: &TestApp, component: &str) -> Vec<(i64, i64)> {
    sqlx::query_as(
        "SELECT checked_at, healthy FROM status_checks WHERE component = $1 ORDER BY checked_at",
    )
    .bind(component)
    .fetch_all(&mut app.connect_db().await)
    .await
    .expect("checks")
}

/// Waits up to 10 s for `/db-health` to answer 200 again.
pub async fn wait_for_db_health(app: &TestApp) {
    for _ in 0..100 {
        if app.get("/db-health").await.status() == 200 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the database did not come back");
}

/// Rounds during an outage are held, shown, and written when the database is back.
async fn outage_is_recorded(app: &TestApp, restore: impl std::future::Future<Output = ()>) {
    let during = [T0 + INTERVAL, T0 + 2 * INTERVAL];
    for at in during {
        let report = app.status.check_now(at).await;
        assert_eq!(report.written, 0, "nothing can be written at {at}");
    }
    let report = app.status.check_now(T0 + 3 * INTERVAL).await;
    assert_eq!(report.pending, 6, "{report:?}");
    // The answers still come, from memory, and show the outage.
    let (code, status) = json(app.get("/api/status").await).await;
    assert_eq!(code, 200);
    assert_eq!(component(&status, "db")["state"], "down");
    assert_eq!(component(&status, "api")["state"], "operational");
    assert_eq!(status["open_incidents"][0]["component"], "db");

    restore.await;
    wait_for_db_health(app).await;
    let report = app.status.check_now(T0 + 4 * INTERVAL).await;
    assert_eq!((report.written, report.pending), (8, 0), "{report:?}");
    assert_eq!(
        stored(app, "db").await,
        vec![
            (T0, 1),
            (T0 + INTERVAL, 0),
            (T0 + 2 * INTERVAL, 0),
            (T0 + 3 * INTERVAL, 0),
            (T0 + 4 * INTERVAL, 1)
        ],
        "the gap is recorded as failed checks, not missing"
    );
    assert_eq!(stored(app, "api").await.len(), 5);
    let incident: (i64, Option<i64>, String) = sqlx::query_as(
        "SELECT started_at, ended_at, first_error FROM status_incidents WHERE component = 'db'",
    )
    .fetch_one(&mut app.connect_db().await)
    .await
    .expect("the outage's incident is stored");
    assert_eq!(
        (incident.0, incident.1),
        (T0 + INTERVAL, Some(T0 + 4 * INTERVAL))
    );
    assert!(
        incident.2.starts_with("The database did not answer"),
        "{}",
        incident.2
    );
    let (_, status) = json(app.get("/api/status").await).await;
    assert_eq!(component(&status, "db")["state"], "operational");
    assert_eq!(status["recent_incidents"][0]["component"], "db");
    // Minute 12:00 half failed (12:00:00 up, 12:00:30 down), minute 12:01 all down, 12:02 up.
    assert_eq!(component(&status, "db")["uptime"]["24h"], 50.0);
}

#[tokio::test]
async fn checks_made_while_postgres_is_down_are_written_when_it_returns() {
    let Some(app) = spawn_app_with(TestBackend::Postgres, |_| {}).await else {
        return;
    };
    app.status.check_now(T0).await;
    crate::faults::postgres_connections(&app.database_url, false).await;
    outage_is_recorded(
        &app,
        crate::faults::postgres_connections(&app.database_url, true),
    )
    .await;
    crate::helpers::drop_postgres_database(&app.database_url).await;
}

#[tokio::test]
async fn checks_made_while_the_sqlite_file_is_broken_are_written_when_it_is_back() {
    let app = spawn_app_with(TestBackend::Sqlite, |_| {})
        .await
        .expect("SQLite always runs");
    app.status.check_now(T0).await;
    let path = app.data_dir.path().join("test.db");
    let saved: Vec<(std::path::PathBuf, Vec<u8>)> = ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| std::path::PathBuf::from(format!("{}{suffix}", path.display())))
        .filter(|p| p.exists())
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read");
            (p, bytes)
        })
        .collect();
    crate::health::take_database_away(&app).await;
    outage_is_recorded(&app, async move {
        for (file, bytes) in saved {
            std::fs::write(file, bytes).expect("restore");
        }
    })
    .await;
}

/// A second server on `app`'s database checking as `instance_id`, with its own queue.
async fn second_instance(app: &TestApp, instance_id: &str, queue_url: &str) -> TestApp {
    spawn_beside(app, |config| {
        config.status = StatusConfig {
            queue_url: Some(queue_url.to_owned()),
            ..StatusConfig::manual(instance_id)
        };
    })
    .await
}

#[tokio::test]
async fn two_instances_are_two_viewpoints_and_a_component_is_down_only_where_they_agree() {
    let (queue_a, queue_b) = (QueueDouble::start().await, QueueDouble::start().await);
    let Some(app) = queue_a.spawn_app(TestBackend::Postgres).await else {
        return;
    };
    let second = second_instance(&app, "second", &queue_b.url).await;

    // Minute 12:00: only the first instance cannot reach the queue.
    queue_a.answer(503);
    second.status.check_now(T0).await;
    app.status.check_now(T0 + 1).await;
    let (_, status) = json(app.get("/api/status").await).await;
    let viewpoints: Vec<&Value> = status["viewpoints"]
        .as_array()
        .expect("viewpoints")
        .iter()
        .collect();
    assert_eq!(viewpoints.len(), 2);
    assert_eq!(viewpoints[0]["instance_id"], "first");
    assert_eq!(viewpoints[1]["instance_id"], "second");
    let queue = component(&status, "queue");
    assert_eq!(queue["state"], "degraded", "{queue}");
    assert_eq!(queue["viewpoints"][0]["state"], "down");
    assert_eq!(queue["viewpoints"][1]["state"], "operational");
    assert_eq!(queue["uptime"]["24h"], 100.0, "no agreement, no downtime");
    assert_eq!(
        component(&status, "db")["viewpoints"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );

    // Minute 12:01: both see it down.
    queue_b.answer(503);
    second.status.check_now(T0 + 60_000).await;
    app.status.check_now(T0 + 60_001).await;
    let (_, status) = json(app.get("/api/status").await).await;
    let queue = component(&status, "queue");
    assert_eq!(queue["state"], "down");
    assert_eq!(queue["uptime"]["24h"], 50.0);
    // The first instance has failed twice: an incident seen from one viewpoint.
    assert_eq!(
        status["open_incidents"][0]["viewpoints"],
        serde_json::json!(["first"])
    );

    // The second instance fails again: its incident overlaps the first's and they are shown as one.
    second.status.check_now(T0 + 120_000).await;
    app.status.check_now(T0 + 120_001).await;
    let (_, status) = json(app.get("/api/status").await).await;
    let open = status["open_incidents"].as_array().expect("open");
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(
        open[0]["viewpoints"],
        serde_json::json!(["first", "second"])
    );
    assert_eq!(open[0]["started_at"], "2026-11-20T12:00:00.001Z");
    assert_eq!(app.count_rows("status_incidents").await, 2);
    // The second instance answers the same from the same database.
    let (_, from_second) = json(
        app.client
            .get(format!("{}/api/v2/summary.json", app.address))
            .send()
            .await
            .expect("answer"),
    )
    .await;
    assert_eq!(from_second["status"]["indicator"], "major");
    crate::helpers::drop_postgres_database(&app.database_url).await;
}

async fn a_restart_closes_the_incident_its_last_run_left_open(backend: TestBackend) {
    let queue = QueueDouble::start().await;
    let Some(app) = queue.spawn_app(backend).await else {
        return;
    };
    queue.answer(500);
    app.status.check_now(T0).await;
    app.status.check_now(T0 + INTERVAL).await;
    // The same instance starts again (same name, same database) and finds the queue healthy.
    let restarted = second_instance(&app, "first", &queue.url).await;
    queue.answer(200);
    restarted.status.check_now(T0 + 10 * INTERVAL).await;
    let ended = incident_span(&app, "component = 'queue'").await;
    assert_eq!(ended, (T0, Some(T0 + 10 * INTERVAL)));
    crate::helpers::drop_postgres_database(&app.database_url).await;
}

#[tokio::test]
async fn a_restarted_instance_closes_the_incident_it_left_open_on_sqlite() {
    a_restart_closes_the_incident_its_last_run_left_open(TestBackend::Sqlite).await;
}

#[tokio::test]
async fn a_restarted_instance_closes_the_incident_it_left_open_on_postgres() {
    a_restart_closes_the_incident_its_last_run_left_open(TestBackend::Postgres).await;
}

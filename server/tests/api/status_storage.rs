//! Status history in the database (issue 18): exact rollups, retention, the storage bound of a year,
//! checks held through a database outage, and two instances as two viewpoints on one PostgreSQL.

use std::{sync::Arc, time::Duration};

use mg_server::{
    config::Config,
    startup::Application,
    status::{
        rollup::percentile,
        store::{RawCheck, StorageBound, DAY_MS, HOUR_MS},
        StatusConfig, StatusService,
    },
};
use serde_json::Value;
use sqlx::Connection;

use crate::{
    helpers::{spawn_app_with, TestApp, TestBackend},
    status::{component, json, QueueDouble, INTERVAL, T0},
};

async fn connect(app: &TestApp) -> sqlx::AnyConnection {
    sqlx::any::install_default_drivers();
    sqlx::AnyConnection::connect(&app.database_url)
        .await
        .expect("test connects to its database")
}

async fn scalar(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql)
        .fetch_one(&mut connect(app).await)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

fn made_up(component: &str, at: i64, healthy: bool, latency_us: i64) -> RawCheck {
    RawCheck {
        component: component.into(),
        instance_id: "first".into(),
        checked_at: at,
        healthy: i64::from(healthy),
        latency_us,
        error: (!healthy).then(|| "made up".into()),
    }
}

/// Latency of the made-up check at `at`: varied, so percentiles mean something.
fn latency_at(at: i64) -> i64 {
    (at / 60_000 * 7919) % 5000 + 100
}

async fn rollups_are_exact_and_raw_checks_go_after_48_hours(app: TestApp) {
    let start = T0 - T0 % DAY_MS; // midnight UTC
    let step = 10 * 60_000;
    let end = start + 3 * DAY_MS;
    let mut fed = Vec::new();
    let mut at = start;
    while at < end {
        // The database fails every 7th check.
        let round = vec![
            made_up("api", at, true, latency_at(at)),
            made_up("db", at, (at / step) % 7 != 3, latency_at(at) * 2),
        ];
        fed.extend(round.clone());
        app.status.store_only(round, at).await;
        at += step;
    }
    let last = at - step;
    // Raw checks: only the last 48 hours are left.
    let oldest = scalar(&app, "SELECT MIN(checked_at) FROM status_checks").await;
    // Pruning runs once an hour: up to an hour more than 48 h can be left.
    assert!(oldest >= last - 49 * HOUR_MS, "{oldest} vs {last}");
    assert!(
        oldest <= last - 48 * HOUR_MS + 10 * 60_000,
        "48 hours are kept"
    );
    let kept = fed.iter().filter(|c| c.checked_at >= oldest).count() as i64;
    assert_eq!(app.count_rows("status_checks").await, kept);

    // The first hour of day 2 and day 2 itself, recomputed here from what was fed.
    for (resolution, from, length) in [
        ("hour", start + DAY_MS, HOUR_MS),
        ("day", start + DAY_MS, DAY_MS),
    ] {
        let group: Vec<&RawCheck> = fed
            .iter()
            .filter(|c| c.component == "db" && c.checked_at >= from && c.checked_at < from + length)
            .collect();
        let mut latencies: Vec<i64> = group.iter().map(|c| c.latency_us).collect();
        latencies.sort_unstable();
        let failures = group.iter().filter(|c| c.healthy == 0).count() as i64;
        let row: (i64, i64, i64, i64, i64) = sqlx::query_as(
            "SELECT checks, failures, latency_p50_us, latency_p95_us, latency_max_us FROM status_rollups \
             WHERE resolution = $1 AND bucket_start = $2 AND component = 'db' AND instance_id = 'first'",
        )
        .bind(resolution)
        .bind(from)
        .fetch_one(&mut connect(&app).await)
        .await
        .unwrap_or_else(|e| panic!("{resolution} rollup: {e}"));
        assert_eq!(
            row,
            (
                group.len() as i64,
                failures,
                percentile(&latencies, 50.0),
                percentile(&latencies, 95.0),
                *latencies.last().expect("checks"),
            ),
            "{resolution}"
        );
        assert!(failures > 0);
    }
    // Every finished hour and day has its rollup, per component.
    let hours = scalar(
        &app,
        "SELECT COUNT(*) FROM status_rollups WHERE resolution = 'hour'",
    )
    .await;
    assert_eq!(hours, 2 * (3 * 24 - 1));
    let days = scalar(
        &app,
        "SELECT COUNT(*) FROM status_rollups WHERE resolution = 'day'",
    )
    .await;
    assert_eq!(days, 2 * 2);
}
on_both_backends!(
    rollups_hold_exact_percentiles_and_raw_checks_are_pruned_after_48_hours,
    rollups_are_exact_and_raw_checks_go_after_48_hours
);

async fn a_year_stays_within_the_bound(app: TestApp) {
    // A year of rounds every 6 hours (the default's 30 s would take 1 million rounds); the bound's
    // formula is the same at every interval.
    let step = 6 * HOUR_MS;
    let start = T0 - T0 % DAY_MS - 365 * DAY_MS;
    let mut at = start;
    while at < start + 365 * DAY_MS {
        let round = ["api", "db", "queue"]
            .iter()
            .map(|c| made_up(c, at, true, latency_at(at)))
            .collect();
        app.status.store_only(round, at).await;
        at += step;
    }
    let last = at - step;
    let bound = StorageBound::per_instance(step, 3);
    let raw = app.count_rows("status_checks").await;
    let hourly = scalar(
        &app,
        "SELECT COUNT(*) FROM status_rollups WHERE resolution = 'hour'",
    )
    .await;
    let daily = scalar(
        &app,
        "SELECT COUNT(*) FROM status_rollups WHERE resolution = 'day'",
    )
    .await;
    assert!(raw <= bound.raw, "raw {raw} > {}", bound.raw);
    assert!(hourly <= bound.hourly, "hourly {hourly} > {}", bound.hourly);
    assert!(daily <= bound.daily, "daily {daily} > {}", bound.daily);
    // ... and the retention windows are full, not emptied: 48 h of raw, 90 days of rollups.
    assert_eq!(raw, 3 * 9, "48 hours of rounds, both ends included");
    assert!(daily >= 3 * 89, "{daily}");
    assert!(hourly >= 3 * 89 * 4, "{hourly}");
    let oldest = scalar(&app, "SELECT MIN(bucket_start) FROM status_rollups").await;
    assert!(
        oldest >= last - 90 * DAY_MS,
        "rollups older than 90 days are pruned"
    );

    // The documented bound at the default interval (README "Status history"): per instance, three
    // components every 30 s.
    let default = StorageBound::per_instance(30_000, 3);
    assert_eq!(
        (default.raw, default.hourly, default.daily),
        (17_643, 6_486, 273)
    );
    assert_eq!(default.rows(), 24_402);
}
on_both_backends!(
    a_year_of_checks_stays_within_the_documented_row_bound,
    a_year_stays_within_the_bound
);

/// The bytes of a full retention window at the default interval, as each engine stores it.
async fn a_full_window_at_the_default_interval_fits_the_documented_bytes(app: TestApp) {
    let now = T0;
    let mut checks = Vec::new();
    let mut at = now - 48 * HOUR_MS;
    while at <= now {
        for c in ["api", "db", "queue"] {
            checks.push(made_up(c, at, true, latency_at(at)));
        }
        at += INTERVAL;
    }
    let db = mg_server::db::Database::connect(&app.database_url, Some(2))
        .await
        .expect("database");
    db.insert_status_checks(&checks).await.expect("raw");
    let mut rollups = Vec::new();
    for (resolution, period, count) in [("hour", HOUR_MS, 90 * 24), ("day", DAY_MS, 90)] {
        for i in 0..count {
            for c in ["api", "db", "queue"] {
                rollups.push(mg_server::status::store::Rollup {
                    resolution: resolution.into(),
                    bucket_start: now - now % period - i * period,
                    component: c.into(),
                    instance_id: "first".into(),
                    checks: period / INTERVAL,
                    failures: 1,
                    latency_p50_us: 1234,
                    latency_p95_us: 56_789,
                    latency_max_us: 1_234_567,
                });
            }
        }
    }
    db.upsert_status_rollups(&rollups).await.expect("rollups");
    let rows = (checks.len() + rollups.len()) as i64;
    assert!(rows <= StorageBound::per_instance(INTERVAL, 3).rows());
    let bytes = if app.database_url.starts_with("sqlite") {
        let mut conn = connect(&app).await;
        sqlx::query("VACUUM")
            .execute(&mut conn)
            .await
            .expect("vacuum");
        let path = app.data_dir.path().join("test.db");
        std::fs::metadata(path).expect("file").len() as i64
    } else {
        scalar(
            &app,
            "SELECT (pg_total_relation_size('status_checks') + pg_total_relation_size('status_rollups'))::BIGINT",
        )
        .await
    };
    eprintln!(
        "{rows} status rows take {bytes} bytes ({} per row) on {}",
        bytes / rows,
        app.database_url.split(':').next().unwrap_or_default()
    );
    // README: about 1.5 MB per instance on SQLite (the whole file here), 4 MB on PostgreSQL.
    let limit = if app.database_url.starts_with("sqlite") {
        2 << 20
    } else {
        5 << 20
    };
    assert!(bytes <= limit, "{bytes} bytes > {limit}");
}
on_both_backends!(
    a_full_retention_window_at_the_default_interval_fits_the_documented_bytes,
    a_full_window_at_the_default_interval_fits_the_documented_bytes
);

/// `(checked_at, healthy)` of every stored check of `component`.
async fn stored(app: &TestApp, component: &str) -> Vec<(i64, i64)> {
    sqlx::query_as(
        "SELECT checked_at, healthy FROM status_checks WHERE component = $1 ORDER BY checked_at",
    )
    .bind(component)
    .fetch_all(&mut connect(app).await)
    .await
    .expect("checks")
}

async fn wait_for_db_health(app: &TestApp) {
    for _ in 0..50 {
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
    .fetch_one(&mut connect(app).await)
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
async fn second_instance(app: &TestApp, instance_id: &str, queue_url: &str) -> Arc<StatusService> {
    let mut config = Config::from_lookup(|_| None).expect("defaults");
    config.port = 0;
    config.data_dir = app.data_dir.path().to_path_buf();
    config.database_url = app.database_url.clone();
    config.database_max_connections = Some(4);
    config.static_dir = app.data_dir.path().join("dist");
    config.identity_project_id = Some(app.identity.project_id.clone());
    config.identity_base_url = Some(app.identity.base_url.clone());
    config.status = StatusConfig {
        queue_url: Some(queue_url.to_owned()),
        ..StatusConfig::manual(instance_id)
    };
    let second = Application::build(config).await.expect("second instance");
    let status = second.status();
    tokio::spawn(second.run_until_stopped());
    status
}

#[tokio::test]
async fn two_instances_are_two_viewpoints_and_a_component_is_down_only_where_they_agree() {
    let (queue_a, queue_b) = (QueueDouble::start().await, QueueDouble::start().await);
    let url = queue_a.url.clone();
    let Some(app) = spawn_app_with(TestBackend::Postgres, move |config| {
        config.status = StatusConfig {
            queue_url: Some(url),
            ..StatusConfig::manual("first")
        };
    })
    .await
    else {
        return;
    };
    let second = second_instance(&app, "second", &queue_b.url).await;

    // Minute 12:00: only the first instance cannot reach the queue.
    queue_a.answer(503);
    second.check_now(T0).await;
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
    second.check_now(T0 + 60_000).await;
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
    second.check_now(T0 + 120_000).await;
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
    let url = queue.url.clone();
    let Some(app) = spawn_app_with(backend, move |config| {
        config.status = StatusConfig {
            queue_url: Some(url),
            ..StatusConfig::manual("first")
        };
    })
    .await
    else {
        return;
    };
    queue.answer(500);
    app.status.check_now(T0).await;
    app.status.check_now(T0 + INTERVAL).await;
    // The same instance starts again (same name, same database) and finds the queue healthy.
    let restarted = second_instance(&app, "first", &queue.url).await;
    queue.answer(200);
    restarted.check_now(T0 + 10 * INTERVAL).await;
    let ended: (i64, Option<i64>) = sqlx::query_as(
        "SELECT started_at, ended_at FROM status_incidents WHERE component = 'queue'",
    )
    .fetch_one(&mut connect(&app).await)
    .await
    .expect("the incident");
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

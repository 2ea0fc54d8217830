//! Status history in the database: exact rollups, retention and the storage bound of a year.

use mg_server::{
    status::aggregate::percentile,
    status::store::{
        checks::{RawCheck, Resolution, StorageBound},
        StatusQueries,
    },
    time::{DAY_MS, HOUR_MS},
};

use crate::{
    helpers::TestApp,
    status::{INTERVAL, T0},
};

/// The server's own handle on the test database (two connections).
pub async fn database(app: &TestApp) -> mg_server::db::Database {
    mg_server::db::Database::connect(&app.database_url, Some(2))
        .await
        .expect("database")
}

/// `(started_at, ended_at)` of the one stored incident `which` (an SQL condition) names.
pub async fn incident_span(app: &TestApp, which: &str) -> (i64, Option<i64>) {
    let sql = format!("SELECT started_at, ended_at FROM status_incidents WHERE {which}");
    sqlx::query_as(&sql)
        .fetch_one(&mut app.connect_db().await)
        .await
        .expect("the incident")
}

/// A check of `component` by the instance `first` at `at`, as a round of checks records it.
pub fn made_up(component: &str, at: i64, healthy: bool, latency_us: i64) -> RawCheck {
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

async fn rollups_hold_exact_percentiles_and_raw_checks_are_pruned_after_48_hours(app: TestApp) {
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
    let oldest = app
        .scalar("SELECT MIN(checked_at) FROM status_checks")
        .await;
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
        .fetch_one(&mut app.connect_db().await)
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
    // Every finished hour and day has its rollup, per component; an hour also its rollup of every
    // viewpoint together, which the history reads.
    let hours = app.scalar("SELECT COUNT(*) FROM status_rollups WHERE resolution = 'hour' AND instance_id = 'first'",
    )
    .await;
    assert_eq!(hours, 2 * (3 * 24 - 1));
    let combined = app
        .scalar(
            "SELECT COUNT(*) FROM status_rollups WHERE resolution = 'hour' AND instance_id = '+'",
        )
        .await;
    assert_eq!(combined, hours);
    let days = app
        .scalar("SELECT COUNT(*) FROM status_rollups WHERE resolution = 'day'")
        .await;
    assert_eq!(days, 2 * 2);
}
on_both_backends!(rollups_hold_exact_percentiles_and_raw_checks_are_pruned_after_48_hours);

async fn a_year_of_checks_stays_within_the_documented_row_bound(app: TestApp) {
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
    let hourly = app
        .scalar("SELECT COUNT(*) FROM status_rollups WHERE resolution = 'hour'")
        .await;
    let daily = app
        .scalar("SELECT COUNT(*) FROM status_rollups WHERE resolution = 'day'")
        .await;
    assert!(raw <= bound.raw, "raw {raw} > {}", bound.raw);
    assert!(hourly <= bound.hourly, "hourly {hourly} > {}", bound.hourly);
    assert!(daily <= bound.daily, "daily {daily} > {}", bound.daily);
    // ... and the retention windows are full, not emptied: 48 h of raw, 90 days of rollups.
    assert_eq!(raw, 3 * 9, "48 hours of rounds, both ends included");
    assert!(daily >= 3 * 89, "{daily}");
    assert!(hourly >= 3 * 89 * 4, "{hourly}");
    let oldest = app
        .scalar("SELECT MIN(bucket_start) FROM status_rollups")
        .await;
    assert!(
        oldest >= last - 90 * DAY_MS,
        "rollups older than 90 days are pruned"
    );

    // The documented bound at the default interval (docs/api.md "Status"): per instance, three
    // components every 30 s.
    let default = StorageBound::per_instance(30_000, 3);
    assert_eq!(
        (default.raw, default.hourly, default.daily),
        (17_643, 12_972, 273)
    );
    assert_eq!(default.rows(), 30_888);
}
on_both_backends!(a_year_of_checks_stays_within_the_documented_row_bound);

/// The bytes of a full retention window at the default interval, as each engine stores it.
async fn a_full_retention_window_at_the_default_interval_fits_the_documented_bytes(app: TestApp) {
    let now = T0;
    let mut checks = Vec::new();
    let mut at = now - 48 * HOUR_MS;
    while at <= now {
        for c in ["api", "db", "queue"] {
            checks.push(made_up(c, at, true, latency_at(at)));
        }
        at += INTERVAL;
    }
    let db = database(&app).await;
    db.status()
        .insert_status_checks(&checks)
        .await
        .expect("raw");
    let mut rollups = Vec::new();
    for (resolution, period, count) in [
        (Resolution::Hour, HOUR_MS, 90 * 24),
        (Resolution::Day, DAY_MS, 90),
    ] {
        // An hour has its own rollup and the one of every viewpoint together (`+`).
        let instances: &[&str] = match resolution {
            Resolution::Hour => &["first", "+"],
            Resolution::Day => &["first"],
        };
        for (i, instance) in (0..count).flat_map(|i| instances.iter().map(move |v| (i, v))) {
            for c in ["api", "db", "queue"] {
                rollups.push(mg_server::status::store::checks::Rollup {
                    resolution,
                    bucket_start: now - now % period - i * period,
                    component: c.into(),
                    instance_id: (*instance).into(),
                    checks: period / INTERVAL,
                    failures: 1,
                    latency_p50_us: 1234,
                    latency_p95_us: 56_789,
                    latency_max_us: 1_234_567,
                });
            }
        }
    }
    db.status()
        .upsert_status_rollups(&rollups)
        .await
        .expect("rollups");
    // A round over a full window (read 24 h of checks and 90 days of rollups, summarise, render
    // every answer) stays well inside the interval.
    let started = std::time::Instant::now();
    app.status.check_now(now + INTERVAL).await;
    let round = started.elapsed();
    eprintln!("a round over a full window took {round:?}");
    assert!(round < std::time::Duration::from_secs(5), "{round:?}");
    let (_, history) = crate::status::json(
        app.get("/api/status/history?component=queue&range=90d")
            .await,
    )
    .await;
    // Today's bar counts the hourly rollups (13 made-up hours of 120 checks, 00:00 to 12:00), which
    // stand for the raw checks of the same hours rather than adding to them.
    assert_eq!(history["points"][89]["checks"], 13 * 120);
    let rows = (checks.len() + rollups.len()) as i64;
    assert!(rows <= StorageBound::per_instance(INTERVAL, 3).rows());
    let bytes = if app.database_url.starts_with("sqlite") {
        let mut conn = app.connect_db().await;
        sqlx::query("VACUUM")
            .execute(&mut conn)
            .await
            .expect("vacuum");
        let path = app.data_dir.path().join("test.db");
        std::fs::metadata(path).expect("file").len() as i64
    } else {
        app.scalar("SELECT (pg_total_relation_size('status_checks') + pg_total_relation_size('status_rollups'))::BIGINT",
        )
        .await
    };
    eprintln!(
        "{rows} status rows take {bytes} bytes ({} per row) on {}",
        bytes / rows,
        app.database_url.split(':').next().unwrap_or_default()
    );
    // docs/api.md: about 3.6 MB per instance on SQLite (the whole file here), 6.1 MB on
    // PostgreSQL.
    let limit = if app.database_url.starts_with("sqlite") {
        4 << 20
    } else {
        13 << 19
    };
    assert!(bytes <= limit, "{bytes} bytes > {limit}");
}
on_both_backends!(a_full_retention_window_at_the_default_interval_fits_the_documented_bytes);

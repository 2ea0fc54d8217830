//! A round's cost does not grow with the viewpoints that are gone: a history written by 30 other
//! instances that stopped checking two days ago is read as the hours' combined and agreed rollups
//! (as many rows as one viewpoint's), and their raw checks are older than the day a round reads.
//! Counted in rows the round's summary is computed from (`RoundReport::rows_read`), not in time.

use mg_platform::{
    db::{seed::numbers, test_database, Database},
    time::{DAY_MS, HOUR_MS},
};
use mg_status::{store::checks::RawCheck, StatusConfig, StatusService};

/// 2026-11-20T12:00:00Z.
const NOW: i64 = 1_795_176_000_000;
/// Hours of history each gone viewpoint left (20 days).
const HOURS: i64 = 20 * 24;

/// Writes `viewpoints` gone instances' history: their hourly rollups of the three components for
/// [`HOURS`] hours ending two days ago, the hours' combined (`+`) and, with more than one, agreed
/// (`*`) rollups as the roll-up writes them, and a day of their raw checks before they stopped.
async fn seed_gone(db: &Database, viewpoints: i64) {
    let n = numbers(db.backend(), 0, HOURS * 3 - 1);
    let first = NOW - 2 * DAY_MS - HOURS * HOUR_MS;
    let mut instances: Vec<String> = (0..viewpoints).map(|v| format!("gone-{v}")).collect();
    instances.push("+".into());
    if viewpoints > 1 {
        instances.push("*".into());
    }
    for instance in instances {
        sqlx::query(&format!(
            "{n}INSERT INTO status_rollups (resolution, bucket_start, component, instance_id, \
                 checks, failures, latency_p50_us, latency_p95_us, latency_max_us) \
             SELECT 'hour', {first} + (i / 3) * {HOUR_MS}, \
                 CASE i % 3 WHEN 0 THEN 'api' WHEN 1 THEN 'db' ELSE 'queue' END, \
                 '{instance}', 120, 0, 900, 1200, 3000 FROM n"
        ))
        .execute(db.pool())
        .await
        .expect("seed rollups");
    }
    let raw = numbers(db.backend(), 0, 24 * 120 - 1);
    for v in 0..viewpoints {
        sqlx::query(&format!(
            "{raw}INSERT INTO status_checks (component, instance_id, checked_at, healthy, \
                 latency_us, error) \
             SELECT 'api', 'gone-{v}', {} + i * 30000, 1, 900, NULL FROM n",
            NOW - 3 * DAY_MS
        ))
        .execute(db.pool())
        .await
        .expect("seed checks");
    }
}

/// The live instance's rounds (three minutes of them, every 30 s) on a database with `gone` viewpoints'
/// history: the rows the last round's summary was computed from.
async fn rows_read_with(gone: i64) -> usize {
    let (_dir, db) = test_database().await;
    seed_gone(&db, gone).await;
    let service = StatusService::new(db, StatusConfig::manual("live"), "https://status.test");
    let mut last = 0;
    for round in 0..6 {
        let at = NOW + round * 30_000;
        let checks = ["api", "db", "queue"]
            .into_iter()
            .map(|component| RawCheck {
                component: component.into(),
                instance_id: "live".into(),
                checked_at: at,
                healthy: 1,
                latency_us: 800,
                error: None,
            })
            .collect();
        last = service.record(checks, at).await.rows_read;
    }
    last
}

#[tokio::test]
async fn a_round_reads_as_many_rows_with_thirty_gone_viewpoints_as_with_one() {
    let one = rows_read_with(1).await;
    let thirty = rows_read_with(30).await;
    // The combined and agreed hours: with one gone viewpoint no agreed rows were written.
    let agreed = (HOURS * 3) as usize;
    assert!(one > (HOURS * 3) as usize, "the history is read: {one}");
    assert_eq!(thirty, one + agreed, "one: {one}, thirty: {thirty}");
}

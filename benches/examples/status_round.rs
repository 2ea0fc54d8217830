//! The cost of a status round at the operators' limits and with many viewpoints: CPU time of the
//! whole process per round (the summary and every answer on the blocking pool included, read from
//! `/proc/self/stat`), wall time, the time the summary and answers took
//! (`RoundReport::render_time`), the stored rows the summary was computed from
//! (`RoundReport::rows_read`) and the raw checks the round read from the database
//! (`RoundReport::raw_read`: what was stored since the last read; the first round, left out of the
//! medians, reads the day whole). At 1, 10 and 31 live viewpoints (a day of raw checks each), and
//! one live beside 30 gone. On SQLite in a temporary directory, or on a fresh PostgreSQL database
//! with `DATABASE_URL`. `cargo run --release -p mg-benches --example status_round -- [rounds=20]`
//! (docs/performance.md, "Status answers and rounds at the operators' limits", has the figures).
//!
//! At the operators' limits (the first row), read on SQLite on a shared 2-core machine at a load
//! average of 30 to 45: whole answers made and compressed every round, 270 ms of CPU a round in the
//! release build (1,050 ms in the debug build); with the notices read again only when written and
//! the answers' compressed pieces reused from round to round, 50 ms in the release build (two runs
//! of 10 and 20 rounds; the clock counts in 10 ms ticks), at the bar rather than clearly under it.

use std::time::Instant;

use mg_server::{
    db::Database,
    status::{store::checks::RawCheck, StatusConfig, StatusService},
};

/// 2026-11-20T12:00:00Z.
const NOW: i64 = 1_795_176_000_000;
const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

/// CPU seconds this process used so far (user and system).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // After the command's `)`: state is field 0, utime 11, stime 12.
    (ticks(11) + ticks(12)) / 100.0
}

/// `live` other viewpoints checking now (a day of raw checks every 30 s) and `gone` ones that
/// stopped two days ago, each with 90 days of hourly rollups of the three components, and the hours'
/// combined and agreed rollups as the roll-up writes them.
async fn seed_viewpoints(db: &Database, live: i64, gone: i64) {
    let mut instances: Vec<String> = (0..live).map(|v| format!("live-{v}")).collect();
    instances.extend((0..gone).map(|v| format!("gone-{v}")));
    instances.extend(["+".to_owned(), "*".to_owned()]);
    db.seed_hourly_rollups(&instances, NOW - 90 * DAY, 90 * 24)
        .await
        .expect("seed rollups");
    for (v, instance) in instances.iter().take((live + gone) as usize).enumerate() {
        let end = if (v as i64) < live {
            NOW
        } else {
            NOW - 2 * DAY
        };
        db.seed_checks(instance, end, 2 * 2880)
            .await
            .expect("seed checks");
    }
}

async fn database(dir: &std::path::Path, name: &str) -> Database {
    let url = match std::env::var("DATABASE_URL") {
        Ok(base) => {
            let admin = Database::connect(&base, Some(1)).await.expect("server");
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
                .execute(admin.pool())
                .await;
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(admin.pool())
                .await
                .expect("create database");
            format!(
                "{}/{name}",
                base.rsplit_once('/').map_or(base.as_str(), |(b, _)| b)
            )
        }
        Err(_) => format!(
            "sqlite://{}?mode=rwc",
            dir.join(format!("{name}.db")).display()
        ),
    };
    Database::connect(&url, None).await.expect("database")
}

/// Runs `rounds` rounds of instance `me` (the other live viewpoints checking beside it) and prints
/// the median CPU and wall time per round, the median time the summary and answers took, the rows
/// the last round's summary was computed from and the raw checks it read from the database.
async fn measure(label: &str, db: Database, live: i64, rounds: i64) {
    let service = StatusService::new(db.clone(), StatusConfig::manual("me"), "https://s.test");
    let (mut cpu, mut wall, mut render) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = mg_server::status::RoundReport::default();
    for round in 0..rounds {
        let at = NOW + 1_000 + round * 30_000;
        let checks = std::iter::once("me".to_owned())
            .chain((0..live).map(|v| format!("live-{v}")))
            .flat_map(|instance| RawCheck::all_healthy(&instance, at))
            .collect();
        let (cpu0, wall0) = (cpu_seconds(), Instant::now());
        last = service.record(checks, at).await;
        // The first round reads the day's window whole (as after a restart): the median is of the
        // rounds after it.
        if round > 0 {
            cpu.push(cpu_seconds() - cpu0);
            wall.push(wall0.elapsed().as_secs_f64());
            render.push(last.render_time.as_secs_f64());
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0) * 1000.0
    };
    println!(
        "| {label} | {:.0} | {:.0} | {:.0} | {} | {} |",
        median(&mut cpu),
        median(&mut wall),
        median(&mut render),
        last.rows_read,
        last.raw_read,
    );
}

#[tokio::main]
async fn main() {
    let rounds: i64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let dir = tempfile::tempdir().expect("dir");
    println!(
        "| Round | CPU ms (median) | wall ms (median) | summary and answers ms (median) | rows read | raw checks read |"
    );
    println!("|---|--:|--:|--:|--:|--:|");
    let db = database(dir.path(), "round_notices").await;
    // 100 notices of 25 updates of 4,000 characters, the newest 30 open.
    db.seed_notices(NOW, 100, 30, 25, 4_000)
        .await
        .expect("seed notices");
    measure(
        "notices at the operators' limits, 1 viewpoint",
        db,
        0,
        rounds,
    )
    .await;
    for (live, gone) in [(0, 30), (0, 0), (9, 0), (30, 0)] {
        let db = database(dir.path(), &format!("round_{live}_{gone}")).await;
        seed_viewpoints(&db, live, gone).await;
        let label = format!(
            "{} viewpoints live, {gone} gone (90 days of history each)",
            live + 1
        );
        measure(&label, db, live, rounds).await;
    }
}

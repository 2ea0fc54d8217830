//! A round's cost does not grow with the viewpoints that are gone: a history written by 30 other
//! instances that stopped checking two days ago is read as the hours' combined and agreed rollups
//! (as many rows as one viewpoint's), and their raw checks are older than the day a round reads.
//! Counted in rows the round's summary is computed from (`RoundReport::rows_read`), not in time.
//! And the raw checks a round reads from the database (`RoundReport::raw_read`) are those stored
//! since its last read, however much history there is and however many viewpoints checked or are
//! gone: the day's window is read once, by a process's first round.

use mg_platform::{
    db::{testing::test_database, Database},
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
    let mut instances: Vec<String> = (0..viewpoints).map(|v| format!("gone-{v}")).collect();
    instances.push("+".into());
    if viewpoints > 1 {
        instances.push("*".into());
    }
    let stopped = NOW - 2 * DAY_MS;
    db.seed_hourly_rollups(&instances, stopped - HOURS * HOUR_MS, HOURS)
        .await
        .expect("seed rollups");
    for instance in instances.iter().take(viewpoints as usize) {
        db.seed_checks(instance, stopped - 30_000, 2880)
            .await
            .expect("seed checks");
    }
}

/// `live` viewpoints checking beside the live instance: a day of their raw checks every 30 s up to
/// now (what a round read whole before).
async fn seed_live(db: &Database, live: i64) {
    for v in 0..live {
        db.seed_checks(&format!("other-{v}"), NOW - 30_000, 2880)
            .await
            .expect("seed live checks");
    }
}

/// The raw checks each of eight rounds read, on a database with `gone` viewpoints' history and a
/// day of `live` other viewpoints' checks (each round stores their checks too, as they would).
async fn raw_read_with(gone: i64, live: i64) -> Vec<usize> {
    let (_dir, db) = test_database().await;
    seed_gone(&db, gone).await;
    seed_live(&db, live).await;
    let service = StatusService::new(db, StatusConfig::manual("live"), "https://status.test");
    let mut read = Vec::new();
    for round in 0..8 {
        let at = NOW + round * 30_000;
        let instances =
            std::iter::once("live".to_owned()).chain((0..live).map(|v| format!("other-{v}")));
        let checks = instances
            .flat_map(|instance| RawCheck::all_healthy(&instance, at))
            .collect();
        read.push(service.record(checks, at).await.raw_read);
    }
    read
}

#[tokio::test]
async fn a_round_reads_the_checks_stored_since_its_last_read_however_long_the_history() {
    let alone = raw_read_with(1, 0).await;
    let crowded = raw_read_with(30, 3).await;
    // The first read takes the day whole: its own checks, then a day of three others' as well (on
    // a loaded machine the debug build's first reads of 26,000 rows can run past the round's
    // database budget: a later round reads the day then).
    let first = |reads: &[usize]| reads.iter().position(|n| *n > 0).expect("a read");
    let (a, c) = (first(&alone), first(&crowded));
    assert!(a < 3 && c < 3, "alone: {alone:?}, crowded: {crowded:?}");
    assert!(crowded[c] > 3 * 2879 * 3, "crowded: {crowded:?}");
    // Then each round reads what the last two rounds stored (the read before its own is read
    // again, for a write that committed late): the same with 30 gone and 3 live viewpoints'
    // history as without, per viewpoint checking.
    for round in a + 2..8 {
        assert_eq!(alone[round], 2 * 3, "round {round}: {alone:?}");
    }
    for round in c + 2..8 {
        assert_eq!(crowded[round], 2 * 4 * 3, "round {round}: {crowded:?}");
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
        let checks = RawCheck::all_healthy("live", at);
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

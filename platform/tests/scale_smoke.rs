//! The account paths cost the same at 100,000 users as at 10,000: on SQLite and on PostgreSQL,
//! seeded with 10,000 users (three sessions each, a revoked binding and a not-before time), each
//! operation of `db::scale` is timed, then 90,000 users more are seeded and it is timed again. A
//! cost that grew more than twice (and by more than `NOISE`) fails: a lookup through an index
//! grows with the tree's depth, a read of a whole table ten times. The cost compared is the 10th
//! percentile of the calls: a whole-table read slows every call, the machine's other work only
//! some. The two engines run one after the other, so neither slows the other. `benches/scale` measures the
//! same at a million users (`make bench-scale`, docs/performance.md).

use std::time::Duration;

use mg_platform::db::{
    scale::{measure, Cost},
    testing::{on_test_postgres, test_database},
    Database,
};

/// Samples per operation and size.
const SAMPLES: i64 = 60;

/// What a cost may move by for reasons other than the data (other work on the shared machine,
/// which has added several milliseconds to a PostgreSQL write's 10th percentile): growth under
/// this is not counted. A read of the 300,000 sessions whole costs tens of milliseconds (ten times
/// its cost at 30,000), so it still fails.
const NOISE: Duration = Duration::from_millis(10);

/// Held by each test while it measures.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Times the operations at 10,000 and at 100,000 users and fails on any that grew.
async fn costs_stay_flat(db: &Database) {
    let _alone = ONE_AT_A_TIME.lock().await;
    db.seed_users(1, 10_000).await.expect("seed");
    let small = measure(db, 1..=10_000, SAMPLES).await.expect("measure");
    db.seed_users(10_001, 100_000).await.expect("seed");
    let large = measure(db, 10_001..=100_000, SAMPLES)
        .await
        .expect("measure");
    let mut grew = Vec::new();
    for (small, large) in small.iter().zip(&large) {
        let Cost { operation, p10, .. } = small;
        eprintln!(
            "{:?} {operation}: p10 {p10:?} -> {:?}, p50 {:?} -> {:?}, p99 {:?} -> {:?}",
            db.backend(),
            large.p10,
            small.p50,
            large.p50,
            small.p99,
            large.p99
        );
        if large.p10 > *p10 * 2 && large.p10 > *p10 + NOISE {
            grew.push(format!("{operation}: {p10:?} -> {:?}", large.p10));
        }
    }
    assert!(
        grew.is_empty(),
        "{:?}: from 10,000 to 100,000 users, these grew more than twice: {grew:?}",
        db.backend()
    );
}

#[tokio::test]
async fn account_paths_stay_flat_on_sqlite() {
    let (_dir, db) = test_database().await;
    costs_stay_flat(&db).await;
}

#[tokio::test]
async fn account_paths_stay_flat_on_postgres() {
    on_test_postgres(costs_stay_flat).await;
}

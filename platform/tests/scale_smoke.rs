//! The account paths cost the same at 100,000 users as at 10,000: on SQLite and on PostgreSQL,
//! seeded with 10,000 users (three sessions each, a revoked binding and a not-before time), each
//! operation of `db::scale` is timed, then 90,000 users more are seeded and it is timed again. A
//! median that grew more than twice (and by more than `NOISE`) fails: a lookup through an index
//! grows with the tree's depth, a read of a whole table ten times. `benches/scale` measures the
//! same at a million users (`make bench-scale`, docs/performance.md).

use std::time::Duration;

use mg_platform::db::{
    plans::{drop_test_postgres, test_postgres},
    scale::{measure, Cost},
    test_database, Database,
};

/// Samples per operation and size.
const SAMPLES: i64 = 60;

/// What a median may move by for reasons other than the data (other work on the machine):
/// growth under this is not counted. A whole-table read of the 300,000 sessions costs tens of
/// milliseconds even in a debug build.
const NOISE: Duration = Duration::from_millis(2);

/// Times the operations at 10,000 and at 100,000 users and fails on any that grew.
async fn costs_stay_flat(db: &Database) {
    db.seed_users(1, 10_000).await.expect("seed");
    let small = measure(db, 1..=10_000, SAMPLES).await.expect("measure");
    db.seed_users(10_001, 100_000).await.expect("seed");
    let large = measure(db, 10_001..=100_000, SAMPLES)
        .await
        .expect("measure");
    let mut grew = Vec::new();
    for (small, large) in small.iter().zip(&large) {
        let Cost { operation, p50, .. } = small;
        eprintln!(
            "{:?} {operation}: p50 {:?} -> {:?}, p99 {:?} -> {:?}",
            db.backend(),
            p50,
            large.p50,
            small.p99,
            large.p99
        );
        if large.p50 > *p50 * 2 && large.p50 > *p50 + NOISE {
            grew.push(format!("{operation}: {p50:?} -> {:?}", large.p50));
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
    let Some(url) = test_postgres().await else {
        return;
    };
    let db = Database::connect(&url, None).await.expect("database");
    costs_stay_flat(&db).await;
    db.pool().close().await;
    drop_test_postgres(&url).await;
}

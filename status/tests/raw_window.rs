//! The day of raw checks a process holds between rounds, brought up to date by reading only what
//! was stored since its last read, gives the summary a process reading the day whole gives: over
//! random arrivals of other viewpoints' checks (late ones among them, made hours before they are
//! stored, and re-sent ones), on both engines. A late check is counted once.

use mg_platform::{
    db::{
        testing::{drop_test_postgres, test_database, test_postgres},
        Database,
    },
    time::{DAY_MS, HOUR_MS},
};
use mg_status::{
    store::{checks::RawCheck, StatusQueries},
    StatusConfig, StatusService,
};
use proptest::prelude::*;

/// 2026-11-20T12:00:00Z.
const NOW: i64 = 1_795_176_000_000;
const ROUND_MS: i64 = 30_000;

/// Checks stored between two rounds: (viewpoint, component, how long before the round it was
/// made, healthy, latency).
type Arrival = (u8, u8, i64, bool, i64);

fn arrivals() -> impl Strategy<Value = Vec<Vec<Arrival>>> {
    let arrival = (
        0..4_u8,
        0..3_u8,
        // Mostly recent; some made up to 30 hours before they reach the database (held through
        // an outage), past the day the summary reads.
        prop_oneof![0..2 * ROUND_MS, 0..30 * HOUR_MS],
        any::<bool>(),
        100..5_000_i64,
    );
    prop::collection::vec(prop::collection::vec(arrival, 0..12), 4..7)
}

fn check(instance: &str, component: &str, checked_at: i64, healthy: bool, us: i64) -> RawCheck {
    RawCheck {
        component: component.into(),
        instance_id: instance.into(),
        checked_at,
        healthy: i64::from(healthy),
        latency_us: us,
        error: (!healthy).then(|| "down".into()),
    }
}

/// The summary a fresh process (reading the day whole) computes at `now`, with its instance's
/// name as `me` and without its updated time, to compare with the live one's.
async fn full_read_summary(db: &Database, now: i64) -> mg_domain::status::Summary {
    let fresh = StatusService::new(db.clone(), StatusConfig::manual("fresh"), "https://s.test");
    let report = fresh.record(Vec::new(), now).await;
    assert!(report.raw_read > 0 || report.rows_read == 0);
    let mut summary = fresh.published().page_summary().clone();
    summary.instance_id = "me".into();
    summary
}

/// Rounds of `me` at 30 s, each after `rounds[i]` arrived, compared with a full read.
async fn incremental_equals_full(db: Database, rounds: &[Vec<Arrival>]) {
    let me = StatusService::new(db.clone(), StatusConfig::manual("me"), "https://s.test");
    for (round, arrived) in rounds.iter().enumerate() {
        let now = NOW + round as i64 * ROUND_MS;
        let stored: Vec<RawCheck> = arrived
            .iter()
            .map(|(viewpoint, component, age, healthy, us)| {
                let component = ["api", "db", "queue"][usize::from(*component)];
                let at = now - 1 - age;
                check(&format!("other-{viewpoint}"), component, at, *healthy, *us)
            })
            .collect();
        // Each batch is stored twice (a re-sent batch changes nothing).
        for _ in 0..2 {
            db.status()
                .insert_status_checks(&stored)
                .await
                .expect("store arrivals");
        }
        let own = ["api", "db"]
            .map(|c| check("me", c, now, true, 800))
            .to_vec();
        me.record(own, now).await;
        let incremental = me.published().page_summary().clone();
        let full = full_read_summary(&db, now).await;
        assert_eq!(incremental, full, "round {round}");
    }
}

fn run(test: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(test);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn the_incremental_day_summarises_as_a_full_read_on_sqlite(rounds in arrivals()) {
        run(async {
            let (_dir, db) = test_database().await;
            incremental_equals_full(db, &rounds).await;
        });
    }

    #[test]
    fn the_incremental_day_summarises_as_a_full_read_on_postgres(rounds in arrivals()) {
        run(async {
            let Some(url) = test_postgres().await else {
                return;
            };
            let db = Database::connect(&url, None).await.expect("database");
            incremental_equals_full(db.clone(), &rounds).await;
            db.pool().close().await;
            drop_test_postgres(&url).await;
        });
    }
}

/// A check made an hour ago that reaches the database between two rounds (after the rounds read
/// past its time) is in the next round's picture, once: in the viewpoint's count of checks and in
/// the day's uptime.
#[tokio::test]
async fn a_late_check_is_counted_once() {
    let (_dir, db) = test_database().await;
    let me = StatusService::new(db.clone(), StatusConfig::manual("me"), "https://s.test");
    let own = |now| vec![check("me", "api", now, true, 800)];
    me.record(own(NOW), NOW).await;
    me.record(own(NOW + ROUND_MS), NOW + ROUND_MS).await;
    let late = check("other", "api", NOW - HOUR_MS, false, 900);
    db.status()
        .insert_status_checks(std::slice::from_ref(&late))
        .await
        .expect("late");
    for round in 2..5 {
        let now = NOW + round * ROUND_MS;
        let report = me.record(own(now), now).await;
        let summary = me.published().page_summary().clone();
        let api = &summary.components[0];
        assert_eq!(api.id, "api");
        let other = api.viewpoints.iter().find(|v| v.instance_id == "other");
        assert!(other.is_some(), "round {round}: the late check is seen");
        // Three own checks of the day and the late one: the summary's day counts it once (a
        // duplicate would weigh its failure twice among the buckets).
        assert_eq!(summary, full_read_summary(&db, now).await, "round {round}");
        assert!(
            report.raw_read <= 3,
            "round {round}: read {}",
            report.raw_read
        );
    }
    // It is gone from the day once the day has passed it.
    let later = NOW - HOUR_MS + DAY_MS + ROUND_MS;
    me.record(own(later), later).await;
    let summary = me.published().page_summary().clone();
    assert!(summary.components[0]
        .viewpoints
        .iter()
        .all(|v| v.instance_id != "other"));
}

//! The worker's passes driven with the time given, against a real database and no receiver
//! (an address nothing listens on): what is enqueued once, claimed, paused and pruned.

use mg_domain::webhooks::WebhookFormat;
use mg_platform::db::testing::test_database;

use super::*;
use crate::store::{notices::UpdateRow, webhooks::WebhookRow};

const T0: i64 = 1_800_000_000_000;
/// A time just after the notice update `with_webhook_and_update` stores (at `T0 + 1_000`).
const AFTER_UPDATE: i64 = T0 + 2_000;

async fn with_webhook_and_update() -> (tempfile::TempDir, Arc<Webhooks>) {
    let (dir, db) = test_database().await;
    let store = db.status();
    let hook = WebhookRow {
        id: "w1".into(),
        name: "dead".into(),
        // A port nothing listens on: every attempt fails at once.
        url: "http://127.0.0.1:9/hook".into(),
        format: WebhookFormat::Json,
        secret: "00".repeat(32),
        created_at: T0,
        created_by: "ops".into(),
        deleted_at: None,
        deleted_by: None,
    };
    assert!(store.insert_webhook(&hook, 20).await.expect("webhook"));
    let update = UpdateRow {
        created_at: T0 + 1_000,
        ..UpdateRow::first_for_tests("n1")
    };
    assert!(store.insert_notice(&update, 30).await.expect("notice"));
    (dir, Arc::new(Webhooks::new(db, "https://mg.example", true)))
}

#[tokio::test]
async fn a_dead_receiver_is_paused_and_tried_once_a_pause() {
    let (_dir, worker) = with_webhook_and_update().await;
    let now = now_ms();
    worker.pass(now).await.expect("pass");
    worker.idle().await;
    let store = worker.db.status();
    let log = store.delivery_log(10).await.expect("log");
    assert_eq!((log.len(), log[0].attempts), (1, 1), "{log:?}");
    // Paused for the first wait: passes before it attempt nothing, and say when to look.
    let next = worker.pass(now + 1_000).await.expect("pass");
    worker.idle().await;
    assert_eq!(store.delivery_log(10).await.expect("log")[0].attempts, 1);
    let first_wait = BACKOFF_SECS[0] * 1000;
    assert!(next.is_some_and(|at| at >= now + first_wait), "{next:?}");
    assert!(rest_until(next, now + 1_000) >= Duration::from_millis(8_000));
}

#[tokio::test]
async fn an_event_is_enqueued_once_whatever_is_pruned_or_restarted() {
    let (_dir, worker) = with_webhook_and_update().await;
    let store = worker.db.status();
    worker.pass(AFTER_UPDATE).await.expect("pass");
    worker.idle().await;
    let first = store.delivery_log(10).await.expect("log");
    assert_eq!(first.len(), 1, "{first:?}");
    // The delivery ended; the log keeps none of the finished ones past the enqueue window,
    // but this one is inside it and stays.
    sqlx::query("UPDATE status_webhook_deliveries SET state = 'delivered'")
        .execute(worker.db.pool())
        .await
        .expect("delivered");
    let pruned = store
        .prune_deliveries(
            AFTER_UPDATE - DELIVERY_RETENTION_MS,
            0,
            AFTER_UPDATE - ENQUEUE_WINDOW_MS,
        )
        .await
        .expect("prune");
    assert_eq!(pruned, 0);
    // A restart (a new worker looks at the whole window) and later passes add nothing.
    let restarted = Arc::new(Webhooks::new(worker.db.clone(), "https://mg.example", true));
    restarted.pass(AFTER_UPDATE + 1_000).await.expect("pass");
    worker.pass(AFTER_UPDATE + 2_000).await.expect("pass");
    let after = store.delivery_log(10).await.expect("log");
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(after[0].id, first[0].id, "one id per event and webhook");
    // Past the window the finished delivery may go, and its event is no longer enqueued.
    let later = AFTER_UPDATE + ENQUEUE_WINDOW_MS + 1;
    let pruned = store
        .prune_deliveries(later - DELIVERY_RETENTION_MS, 0, later - ENQUEUE_WINDOW_MS)
        .await
        .expect("prune");
    assert_eq!(pruned, 1);
    restarted.pass(later).await.expect("pass");
    assert!(store.delivery_log(10).await.expect("log").is_empty());
}

#[tokio::test]
async fn an_update_that_keeps_the_declaration_carries_the_status_in_effect() {
    use crate::store::notices::NewUpdate;
    use mg_domain::{component_status::ComponentStatus, notices::NoticeStatus};

    let (_dir, worker) = with_webhook_and_update().await;
    let store = worker.db.status();
    let update = |seq: i64, status, component_status| NewUpdate {
        id: "n1",
        kind: mg_domain::notices::NoticeKind::Incident,
        status,
        body: "More.",
        at: T0 + 1_000 + seq,
        author: "ops",
        component_status,
    };
    let declared = update(
        2,
        NoticeStatus::Identified,
        Some(ComponentStatus::MajorOutage),
    );
    let kept = update(3, NoticeStatus::Monitoring, None);
    let resolved = update(4, NoticeStatus::Resolved, None);
    for next in [declared, kept, resolved] {
        assert!(store
            .append_notice_update(&next, 25)
            .await
            .expect("q")
            .is_some());
    }
    worker.pass(AFTER_UPDATE).await.expect("pass");
    worker.idle().await;
    let bodies: Vec<String> =
        sqlx::query_scalar("SELECT body FROM status_webhook_deliveries ORDER BY event_key")
            .fetch_all(worker.db.pool())
            .await
            .expect("bodies");
    let in_effect: Vec<serde_json::Value> = bodies
        .iter()
        .map(|body| {
            let event: serde_json::Value = serde_json::from_str(body).expect("json");
            event["incident"]["component_status"].clone()
        })
        .collect();
    assert_eq!(
        in_effect,
        [
            serde_json::Value::Null,
            "major_outage".into(),
            "major_outage".into(),
            serde_json::Value::Null
        ],
        "opened without one, declared, kept by the next update, removed by resolving"
    );
}

#[tokio::test]
async fn a_delivery_in_flight_holds_its_queue_until_its_lease_ends() {
    // Before: the next due time was the claimed delivery's own, already past, so the worker passed
    // again at once, over and over, for as long as the delivery was being sent.
    let (_dir, worker) = with_webhook_and_update().await;
    let store = worker.db.status();
    worker.enqueue(AFTER_UPDATE).await.expect("enqueue");
    assert_eq!(
        store.next_delivery_due().await.expect("due"),
        Some(AFTER_UPDATE)
    );
    let claimed = store
        .claim_deliveries(AFTER_UPDATE, AFTER_UPDATE + LEASE_MS, 10)
        .await
        .expect("claim");
    assert_eq!(claimed.len(), 1);
    let due = store.next_delivery_due().await.expect("due");
    assert_eq!(
        due,
        Some(AFTER_UPDATE + LEASE_MS),
        "due when the lease ends"
    );
}

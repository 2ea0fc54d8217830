//! Outgoing webhooks of the status page (docs/status-operators.md, "Webhooks"). Operators add
//! them (`routes/status_webhooks.rs`); they are stored in the database, which every instance
//! shares, and the database is the queue.
//!
//! Every instance runs [`Webhooks::run`]. A pass adds the deliveries missing for the events since
//! the last pass (an operator's update: its row in `status_notice_updates`; a component's state
//! change: its row in `status_component_events`, [`changes`]) to every live webhook added before
//! the event, one row per (event, webhook) whichever instance comes first (the table's unique key);
//! then claims what is due with a lease and starts sending it ([`sender`]) without waiting: each
//! receiver is sent one delivery at a time and in order, and a slow or hanging one holds only its
//! own queue and its own sending slot ([`MAX_IN_FLIGHT`]). A failed attempt pauses its webhook (the
//! next wait of [`BACKOFF_SECS`] by consecutive failures), so a dead receiver is tried once a pause.
//! Between passes the worker rests until the next delivery is due, a write wakes it, or
//! [`MAX_REST`] passes (to see other instances' events and leases that ran out).
//!
//! A process killed mid-delivery leaves its lease to run out, and the delivery is sent again, with
//! the same id, by whichever instance claims it next: every event reaches a receiver at least once,
//! and exactly once for one that drops the delivery ids it has seen. Pruning never deletes a
//! delivery added within the enqueue window, so an event is never enqueued twice.

pub mod changes;
pub mod guard;
pub mod limits;
pub mod payload;
pub mod sender;

use std::{
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use mg_domain::webhooks::DeliveryState;
use tokio::sync::{Notify, Semaphore};

pub use self::limits::*;

use crate::{
    store::{self, StatusQueries},
    store::{
        deliveries::{Claimed, NewDelivery},
        webhooks::WebhookRow,
    },
};
use mg_platform::{
    db::Database,
    time::{now_ms, DAY_MS, HOUR_MS},
};

/// Events older than this get no deliveries (a webhook added later, a long outage of every
/// instance).
const ENQUEUE_WINDOW_MS: i64 = DAY_MS;
/// The longest rest between two passes.
pub const MAX_REST: Duration = Duration::from_secs(30);
/// The rest after a pass the database refused.
const REST_AFTER_ERROR: Duration = Duration::from_secs(5);
/// Deliveries this instance sends at once, at most (each to another receiver): room for every
/// live webhook and as many just deleted whose last attempt is still under way, so a receiver that
/// hangs holds only its own slot and never another's.
pub const MAX_IN_FLIGHT: usize = 2 * MAX_WEBHOOKS as usize;
/// A pass looks this far behind the last one, for events another instance stored with an
/// earlier time than this instance's last pass.
const ENQUEUE_OVERLAP_MS: i64 = 60_000;

/// The webhooks' worker of one instance.
#[derive(Debug)]
pub struct Webhooks {
    db: Database,
    /// The status page's address in the bodies: `PUBLIC_URL` + `/apotheosis`.
    page_url: String,
    allow_private: bool,
    /// Woken after an operator's write, a component's change or a finished attempt.
    wake: Notify,
    /// The sending slots; a delivery holds one while it is sent.
    slots: Arc<Semaphore>,
    /// Events from this time on are looked at by the next pass (`None` before the first: then
    /// the whole enqueue window).
    enqueued_through: Mutex<Option<i64>>,
}

impl Webhooks {
    pub fn new(db: Database, public_url: &str, allow_private: bool) -> Self {
        Self {
            db,
            page_url: mg_status_formats::statuspage::page_url(public_url),
            allow_private,
            wake: Notify::new(),
            slots: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            enqueued_through: Mutex::new(None),
        }
    }

    pub fn allow_private(&self) -> bool {
        self.allow_private
    }

    /// Has the worker look at the queue now.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Passes over the queue, resting in between, forever.
    pub async fn run(self: Arc<Self>) {
        let mut last_prune: Option<i64> = None;
        loop {
            let now = now_ms();
            if last_prune.is_none_or(|at| now - at >= HOUR_MS) {
                match self.prune(now).await {
                    Ok(pruned) => {
                        tracing::debug!(pruned, "webhooks: pruned old deliveries");
                        last_prune = Some(now);
                    }
                    Err(error) => tracing::debug!(%error, "webhooks: prune waits"),
                }
            }
            let rest = match self.pass(now).await {
                Ok(next) => rest_until(next, now_ms()),
                Err(error) => {
                    tracing::debug!(%error, "webhooks: the queue waits for the database");
                    REST_AFTER_ERROR
                }
            };
            tokio::select! {
                () = tokio::time::sleep(rest) => {}
                () = self.wake.notified() => {}
            }
        }
    }

    /// One pass at `now`: add the missing deliveries, start sending those due (each webhook's
    /// oldest, side by side, without waiting for them); when the next delivery is due (`None`:
    /// nothing pending).
    pub async fn pass(self: &Arc<Self>, now: i64) -> Result<Option<i64>, sqlx::Error> {
        if self.db.status().count_live_webhooks().await? == 0 {
            return Ok(None);
        }
        self.enqueue(now).await?;
        let free = self.slots.available_permits();
        if free > 0 {
            let claimed = self
                .db
                .status()
                .claim_deliveries(now, now + LEASE_MS, free as i64)
                .await?;
            if !claimed.is_empty() {
                let webhooks = self.db.status().live_webhooks().await?;
                for delivery in claimed {
                    let Some(webhook) = webhooks.iter().find(|w| w.id == delivery.webhook_id)
                    else {
                        continue;
                    };
                    let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() else {
                        break;
                    };
                    let (worker, webhook) = (Arc::clone(self), webhook.clone());
                    tokio::spawn(async move {
                        deliver(&worker.db, &webhook, &delivery, worker.allow_private).await;
                        drop(slot);
                        // Its receiver's next delivery may be due now.
                        worker.wake();
                    });
                }
            }
        }
        self.db.status().next_delivery_due().await
    }

    /// Waits until no delivery of this worker is being sent.
    pub async fn idle(&self) {
        let all = u32::try_from(MAX_IN_FLIGHT).unwrap_or(u32::MAX);
        // The semaphore is never closed, so the acquisition only waits.
        if let Ok(every_slot) = self.slots.acquire_many(all).await {
            drop(every_slot);
        }
    }

    /// A pass at `now` ([`Self::pass`]), then the wait until the deliveries it started are sent
    /// ([`Self::idle`]): the tests' look at the queue at a time of their choosing, where they would
    /// otherwise wait for the worker's own passes. When the next delivery is due, once those are.
    pub async fn pass_and_send(self: &Arc<Self>, now: i64) -> Result<Option<i64>, sqlx::Error> {
        self.pass(now).await?;
        self.idle().await;
        self.db.status().next_delivery_due().await
    }

    /// Adds the deliveries missing for the events since the last pass (the whole enqueue window
    /// at the first).
    async fn enqueue(&self, now: i64) -> Result<(), sqlx::Error> {
        let last = *self
            .enqueued_through
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let window_start = now - ENQUEUE_WINDOW_MS;
        let since = last.map_or(window_start, |at| {
            (at - ENQUEUE_OVERLAP_MS).max(window_start)
        });
        let store = self.db.status();
        let webhooks = store.live_webhooks().await?;
        let known = store.delivery_keys_since(since).await?;
        let mut events: Vec<(payload::Event, String)> = Vec::new();
        for (update, webhook) in store.notice_updates_to_enqueue(since).await? {
            events.push((payload::notice_event(&update, &self.page_url), webhook));
        }
        for (change, webhook) in store.component_events_to_enqueue(since).await? {
            events.push((payload::component_event(&change, &self.page_url), webhook));
        }
        events.retain(|(event, webhook)| !known.contains(&(event.key.clone(), webhook.clone())));
        // In the order they happened: the ids made below keep it for the sending.
        events.sort_by_key(|(event, _)| event.at);
        for (event, webhook_id) in events {
            let Some(webhook) = webhooks.iter().find(|w| w.id == webhook_id) else {
                continue;
            };
            let id = delivery_id();
            let delivery = NewDelivery {
                body: payload::body(&event, webhook.format, &id, &self.page_url),
                id,
                webhook_id,
                event_key: event.key,
                event: event.name,
                state: if event.held {
                    DeliveryState::Held
                } else {
                    DeliveryState::Pending
                },
                at: now,
            };
            store.enqueue_delivery(&delivery).await?;
        }
        *self
            .enqueued_through
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(now);
        Ok(())
    }

    async fn prune(&self, now: i64) -> Result<u64, sqlx::Error> {
        let failed = self.db.status().fail_orphaned_deliveries(now).await?;
        let deliveries = self
            .db
            .status()
            .prune_deliveries(
                now - DELIVERY_RETENTION_MS,
                DELIVERIES_KEPT,
                now - ENQUEUE_WINDOW_MS,
            )
            .await?;
        let history = self
            .db
            .status()
            .prune_webhook_history(now - crate::store::notices::NOTICE_RETENTION_MS)
            .await?;
        Ok(failed + deliveries + history)
    }
}

/// Sends `delivery` to `webhook` once and records how it went.
async fn deliver(db: &Database, webhook: &WebhookRow, delivery: &Claimed, allow_private: bool) {
    let target = sender::Target {
        url: &webhook.url,
        secret: &webhook.secret,
        allow_private,
    };
    let outcome = sender::attempt(
        &target,
        &delivery.id,
        &delivery.event,
        &delivery.body,
        delivery.attempts,
        now_ms(),
    )
    .await;
    tracing::info!(
        delivery = %delivery.id,
        webhook = %webhook.id,
        event = %delivery.event,
        attempt = delivery.attempts,
        ?outcome,
        "webhooks: attempt"
    );
    let delivered = matches!(outcome, store::deliveries::Outcome::Delivered { .. });
    if let Err(error) = db
        .status()
        .record_receiver(&webhook.id, delivered, now_ms())
        .await
    {
        tracing::debug!(%error, webhook = %webhook.id, "webhooks: the receiver's pause waits");
    }
    match db
        .status()
        .mark_delivery(delivery, &outcome, now_ms())
        .await
    {
        Ok(true) => {}
        Ok(false) => tracing::warn!(
            delivery = %delivery.id,
            "webhooks: the lease ran out before the attempt ended; another instance sends it"
        ),
        Err(error) => tracing::warn!(
            %error,
            delivery = %delivery.id,
            "webhooks: the outcome was not stored; the delivery is sent again after its lease"
        ),
    }
}

/// How long to rest at `now` before a delivery due at `next` (`None`: nothing pending).
fn rest_until(next: Option<i64>, now: i64) -> Duration {
    let ms = next.map_or(i64::MAX, |at| at.saturating_sub(now)).max(0);
    Duration::from_millis(u64::try_from(ms).unwrap_or(u64::MAX)).min(MAX_REST)
}

/// A time-ordered (version 7) UUID: the id a receiver de-duplicates on. Ids made by one process
/// sort in the order they were made: a webhook's deliveries due at the same time go out in that
/// order.
pub fn delivery_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_rests_until_the_next_delivery_and_never_longer_than_its_bound() {
        assert_eq!(rest_until(Some(1_500), 1_000), Duration::from_millis(500));
        assert_eq!(rest_until(Some(500), 1_000), Duration::ZERO, "overdue");
        assert_eq!(rest_until(None, 1_000), MAX_REST, "nothing pending");
        assert_eq!(rest_until(Some(i64::MAX), 1_000), MAX_REST);
    }

    #[test]
    fn the_retries_last_more_than_an_hour_and_ids_are_uuids() {
        assert!(BACKOFF_SECS.iter().sum::<i64>() >= 3_600);
        let id = delivery_id();
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "7");
        let ids: Vec<String> = (0..1_000).map(|_| delivery_id()).collect();
        assert!(
            ids.windows(2).all(|w| w[0] < w[1]),
            "ids sort in creation order"
        );
    }
}

#[cfg(test)]
mod pass_tests;

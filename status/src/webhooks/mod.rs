//! Outgoing webhooks of the status page (docs/status-operators.md, "Webhooks"). Operators add
//! them (`routes/status_webhooks.rs`); they are stored in the database, which every instance
//! shares, and the database is the queue.
//!
//! Every instance runs [`Webhooks::run`]: each tick it adds the deliveries missing for the events
//! of the last day (an operator's update: its row in `status_notice_updates`; a component's state
//! change: its row in `status_component_events`, [`changes`]) to every live webhook added before
//! the event, one row per (event, webhook) whichever instance comes first; then claims the
//! deliveries due with a lease and sends them ([`sender`]). A process killed mid-delivery leaves
//! its lease to run out, and the delivery is sent again, with the same id, by whichever instance
//! claims it next: every event reaches a receiver at least once, and exactly once for one that
//! drops the delivery ids it has seen.

pub mod changes;
pub mod guard;
pub mod limits;
pub mod payload;
pub mod sender;

use std::{sync::Arc, time::Duration};

use mg_domain::webhooks::DeliveryState;
use tokio::sync::Notify;

pub use self::limits::*;

use crate::{
    store::StatusQueries,
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
/// Time between two looks at the queue.
const TICK: Duration = Duration::from_secs(1);
/// Deliveries claimed (and sent side by side, one per webhook) per look.
const CLAIM_BATCH: i64 = 8;

/// The webhooks' worker of one instance.
#[derive(Debug)]
pub struct Webhooks {
    db: Database,
    /// The status page's address in the bodies: `PUBLIC_URL` + `/apotheosis`.
    page_url: String,
    allow_private: bool,
    /// Woken after an operator's write, so its deliveries go out at once.
    wake: Notify,
}

impl Webhooks {
    pub fn new(db: Database, public_url: &str, allow_private: bool) -> Self {
        Self {
            db,
            page_url: super::statuspage::page_url(public_url),
            allow_private,
            wake: Notify::new(),
        }
    }

    pub fn allow_private(&self) -> bool {
        self.allow_private
    }

    /// Has the worker look at the queue now.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Looks at the queue every second (and when woken), forever.
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
            match self.tick(now).await {
                // A webhook's next delivery may be due already: look again at once.
                Ok(attempted) if attempted > 0 => continue,
                Ok(_) => {}
                Err(error) => tracing::debug!(%error, "webhooks: the queue waits for the database"),
            }
            tokio::select! {
                () = tokio::time::sleep(TICK) => {}
                () = self.wake.notified() => {}
            }
        }
    }

    /// One look: add the missing deliveries, then send those due (each webhook's oldest, side by
    /// side); how many were attempted.
    pub async fn tick(&self, now: i64) -> Result<usize, sqlx::Error> {
        if self.db.status().count_live_webhooks().await? == 0 {
            return Ok(0);
        }
        self.enqueue(now).await?;
        let claimed = self
            .db
            .status()
            .claim_deliveries(now, now + LEASE_MS, CLAIM_BATCH)
            .await?;
        if claimed.is_empty() {
            return Ok(0);
        }
        let webhooks = self.db.status().live_webhooks().await?;
        let mut sending = tokio::task::JoinSet::new();
        for delivery in claimed {
            let Some(webhook) = webhooks.iter().find(|w| w.id == delivery.webhook_id) else {
                continue;
            };
            let (db, webhook, allow_private) =
                (self.db.clone(), webhook.clone(), self.allow_private);
            sending.spawn(async move { deliver(&db, &webhook, &delivery, allow_private).await });
        }
        let attempted = sending.len();
        while sending.join_next().await.is_some() {}
        Ok(attempted)
    }

    /// Adds the deliveries missing for the events of the last day.
    async fn enqueue(&self, now: i64) -> Result<(), sqlx::Error> {
        let since = now - ENQUEUE_WINDOW_MS;
        let webhooks = self.db.status().live_webhooks().await?;
        let mut events: Vec<(payload::Event, String)> = Vec::new();
        for (update, webhook) in self.db.status().notice_updates_to_enqueue(since).await? {
            events.push((payload::notice_event(&update, &self.page_url), webhook));
        }
        for (change, webhook) in self.db.status().component_events_to_enqueue(since).await? {
            events.push((payload::component_event(&change, &self.page_url), webhook));
        }
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
            self.db.status().enqueue_delivery(&delivery).await?;
        }
        Ok(())
    }

    async fn prune(&self, now: i64) -> Result<u64, sqlx::Error> {
        let failed = self.db.status().fail_orphaned_deliveries(now).await?;
        let deliveries = self
            .db
            .status()
            .prune_deliveries(now - DELIVERY_RETENTION_MS, DELIVERIES_KEPT)
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

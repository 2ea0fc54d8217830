//! The webhooks' queue and delivery log, `status_webhook_deliveries`: one row per (event,
//! webhook), added by whichever instance sees the pair first (the unique key keeps one), claimed
//! by one instance at a time with a lease (`locked_until`; PostgreSQL's `FOR UPDATE SKIP LOCKED`
//! lets instances claim side by side, SQLite has one writer), then marked delivered, due again
//! later, or failed.

use sqlx::{any::AnyRow, FromRow, Row};

use std::collections::HashSet;

use mg_domain::webhooks::DeliveryState;

use super::{notices::UpdateRow, webhooks::ComponentEventRow, StatusStore};
use crate::webhooks::limits::BACKOFF_SECS;
use mg_platform::db::OptionalRow;

use mg_platform::db::prune::PerEngine;
pub use mg_platform::db::prune::PRUNE_BATCH;

/// Operator updates since `$1`, each with every live webhook added before it. An update's
/// `component_status` is the one in effect once it is posted: its own declaration, or else the
/// latest one of an earlier update of its notice that is not deleted; none once it resolves or
/// completes the notice without declaring one (resolving removes the declaration).
pub const NOTICE_UPDATES_TO_ENQUEUE: &str = "SELECT u.notice_id, u.seq, u.kind, u.title, \
         u.impact, u.components, u.check_incident, u.starts_at, u.ends_at, u.status, u.body, \
         u.created_at, u.author, \
         CASE WHEN u.component_status IS NOT NULL OR u.status IN ('resolved', 'completed') \
              THEN u.component_status \
              ELSE (SELECT p.component_status FROM status_notice_updates p \
                    WHERE p.notice_id = u.notice_id AND p.seq < u.seq \
                      AND p.component_status IS NOT NULL \
                      AND NOT EXISTS (SELECT 1 FROM status_update_revisions r \
                                      WHERE r.notice_id = p.notice_id AND r.seq = p.seq \
                                        AND r.body IS NULL) \
                    ORDER BY p.seq DESC LIMIT 1) END AS component_status, \
         w.id AS webhook_id \
     FROM status_notice_updates u JOIN status_webhooks w \
       ON w.deleted_at IS NULL AND u.created_at >= w.created_at \
     WHERE u.created_at >= $1 \
     ORDER BY u.created_at, u.notice_id, u.seq";

/// Component state changes stored since `$1`, each with every live webhook added before it.
pub const COMPONENT_EVENTS_TO_ENQUEUE: &str = "SELECT e.component, e.seq, e.state, e.incident, \
         e.at, e.held, e.created_at, w.id AS webhook_id \
     FROM status_component_events e JOIN status_webhooks w \
       ON w.deleted_at IS NULL AND e.created_at >= w.created_at \
     WHERE e.created_at >= $1 \
     ORDER BY e.created_at, e.component, e.seq";

/// The (event key, webhook id) of every delivery added since `$1`.
pub const DELIVERY_KEYS_SINCE: &str =
    "SELECT event_key, webhook_id FROM status_webhook_deliveries WHERE created_at >= $1";

/// Adds a delivery unless its (event, webhook) has one already.
pub const ENQUEUE_DELIVERY: &str = "INSERT INTO status_webhook_deliveries (id, webhook_id, \
         event_key, event, body, state, attempts, next_at, created_at, updated_at) \
     VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $7, $7) \
     ON CONFLICT (event_key, webhook_id) DO NOTHING";

/// Claims up to `$3` deliveries due at `$1` until `$2` (`claim_deliveries`); `$lock` locks the
/// rows picked on PostgreSQL.
macro_rules! claim_deliveries {
    ($lock:literal) => {
        concat!(
            "UPDATE status_webhook_deliveries SET locked_until = $2, attempts = attempts + 1, \
               updated_at = $1 \
             WHERE id IN (SELECT d.id FROM status_webhook_deliveries d \
               JOIN status_webhooks w ON w.id = d.webhook_id AND w.deleted_at IS NULL \
                 AND (w.paused_until IS NULL OR w.paused_until <= $1) \
               WHERE d.state = 'pending' AND d.next_at <= $1 \
                 AND (d.locked_until IS NULL OR d.locked_until <= $1) \
                 AND NOT EXISTS (SELECT 1 FROM status_webhook_deliveries e \
                   WHERE e.webhook_id = d.webhook_id AND e.state = 'pending' AND e.id <> d.id \
                     AND (e.locked_until > $1 \
                       OR (e.next_at <= $1 AND (e.next_at, e.id) < (d.next_at, d.id)))) \
               ORDER BY d.next_at, d.id LIMIT $3",
            $lock,
            ") RETURNING id, webhook_id, event, body, attempts, locked_until"
        )
    };
}

/// [`claim_deliveries!`]: SQLite has one writer, nothing to lock; on PostgreSQL instances claim
/// side by side.
pub const CLAIM_DELIVERIES: PerEngine = PerEngine {
    sqlite: claim_deliveries!(""),
    postgres: claim_deliveries!(" FOR UPDATE OF d SKIP LOCKED"),
};

/// Records how the attempt leased until `$2` of delivery `$1` ended (`mark_delivery`).
pub const MARK_DELIVERY: &str = "UPDATE status_webhook_deliveries SET state = $3, \
         last_status = $4, last_error = $5, next_at = COALESCE($6, next_at), \
         locked_until = NULL, updated_at = $7 \
     WHERE id = $1 AND locked_until = $2 RETURNING id";

/// Ends the pending deliveries of deleted webhooks, at `$1`.
pub const FAIL_ORPHANED_DELIVERIES: &str = "UPDATE status_webhook_deliveries SET \
         state = 'failed', last_error = 'The webhook was deleted.', locked_until = NULL, \
         updated_at = $1 \
     WHERE id IN (SELECT d.id FROM status_webhooks w \
       JOIN status_webhook_deliveries d ON d.webhook_id = w.id AND d.state = 'pending' \
       WHERE w.deleted_at IS NOT NULL)";

/// The latest `$1` deliveries, newest first, with their webhook's name.
pub const DELIVERY_LOG: &str = "SELECT d.id, d.webhook_id, w.name AS webhook_name, d.event, \
         d.state, d.attempts, d.last_status, d.last_error, d.created_at, d.updated_at, d.next_at \
     FROM status_webhook_deliveries d \
     LEFT JOIN status_webhooks w ON w.id = d.webhook_id \
     ORDER BY d.created_at DESC, d.id LIMIT $1";

/// A batch of the deliveries added before the cutoff (`mg_platform::db::prune`).
pub const PRUNE_OLD_DELIVERIES: PerEngine =
    mg_platform::prune_batch!("status_webhook_deliveries", "created_at < $1");

/// A batch of the finished deliveries added before the cutoff, beyond the newest `$3`.
pub const PRUNE_FINISHED_DELIVERIES: PerEngine = mg_platform::prune_batch!(
    "status_webhook_deliveries",
    "state <> 'pending' AND created_at < $1",
    " ORDER BY created_at DESC, id",
    " OFFSET $3"
);

/// Clears webhook `$1`'s failures (its receiver took a delivery).
pub const CLEAR_RECEIVER_FAILURES: &str =
    "UPDATE status_webhooks SET failures = 0, paused_until = NULL WHERE id = $1";

/// Each live webhook's pause, its oldest pending delivery's due time and its lease in flight.
pub const NEXT_DELIVERY_DUE: &str = "SELECT w.paused_until, (SELECT MIN(d.next_at) \
       FROM status_webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'pending'), \
     (SELECT MAX(d.locked_until) FROM status_webhook_deliveries d WHERE d.webhook_id = w.id \
       AND d.state = 'pending') FROM status_webhooks w WHERE w.deleted_at IS NULL";

/// A delivery to add (its body made for its id).
#[derive(Debug, Clone)]
pub struct NewDelivery {
    pub id: String,
    pub webhook_id: String,
    pub event_key: String,
    pub event: String,
    pub body: String,
    /// Pending, or held (never sent).
    pub state: DeliveryState,
    pub at: i64,
}

/// A delivery claimed for sending, with where it goes.
#[derive(Debug, Clone, FromRow)]
pub struct Claimed {
    pub id: String,
    pub webhook_id: String,
    pub event: String,
    pub body: String,
    /// Attempts so far, this one included.
    pub attempts: i64,
    /// The lease: marking the outcome needs it unchanged.
    pub locked_until: i64,
}

/// A row of the delivery log.
#[derive(Debug, Clone, FromRow)]
pub struct DeliveryRow {
    pub id: String,
    pub webhook_id: String,
    pub webhook_name: Option<String>,
    pub event: String,
    #[sqlx(try_from = "String")]
    pub state: DeliveryState,
    pub attempts: i64,
    pub last_status: Option<i64>,
    pub last_error: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub next_at: i64,
}

/// How an attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Delivered {
        status: i64,
    },
    /// Due again at `next_at`.
    Retry {
        status: Option<i64>,
        error: String,
        next_at: i64,
    },
    Failed {
        status: Option<i64>,
        error: String,
    },
}

impl StatusStore<'_> {
    /// Operator updates since `since`, each with every live webhook added before it: pairs of
    /// (update, webhook id). Which of them have a delivery already is `delivery_keys_since`'s.
    pub async fn notice_updates_to_enqueue(
        &self,
        since: i64,
    ) -> Result<Vec<(UpdateRow, String)>, sqlx::Error> {
        self.with_webhook_ids(NOTICE_UPDATES_TO_ENQUEUE, since)
            .await
    }

    /// Component state changes stored since `since`, each with every live webhook added before
    /// it: pairs of (change, webhook id).
    pub async fn component_events_to_enqueue(
        &self,
        since: i64,
    ) -> Result<Vec<(ComponentEventRow, String)>, sqlx::Error> {
        self.with_webhook_ids(COMPONENT_EVENTS_TO_ENQUEUE, since)
            .await
    }

    /// The rows an enqueue statement reads (`$1` its `since`), each with the `webhook_id` beside
    /// its own columns.
    async fn with_webhook_ids<R>(
        &self,
        sql: &'static str,
        since: i64,
    ) -> Result<Vec<(R, String)>, sqlx::Error>
    where
        R: for<'r> FromRow<'r, AnyRow>,
    {
        let rows = sqlx::query(sql).bind(since).fetch_all(self.pool()).await?;
        rows.iter()
            .map(|row| Ok((R::from_row(row)?, row.try_get("webhook_id")?)))
            .collect()
    }

    /// The (event key, webhook id) of every delivery added since `since`: every delivery of an
    /// event at or after `since` is among them (a delivery is added after its event), since
    /// pruning keeps whatever was added within the enqueue window.
    pub async fn delivery_keys_since(
        &self,
        since: i64,
    ) -> Result<HashSet<(String, String)>, sqlx::Error> {
        let rows = self
            .query_all::<(String, String)>(DELIVERY_KEYS_SINCE, (since,))
            .await?;
        Ok(rows.into_iter().collect())
    }

    /// Adds `delivery` unless its (event, webhook) has one already; whether it was added.
    pub async fn enqueue_delivery(&self, delivery: &NewDelivery) -> Result<bool, sqlx::Error> {
        let added = self
            .query_execute(
                ENQUEUE_DELIVERY,
                (
                    &delivery.id,
                    &delivery.webhook_id,
                    &delivery.event_key,
                    &delivery.event,
                    &delivery.body,
                    delivery.state.as_str(),
                    delivery.at,
                ),
            )
            .await?
            .rows_affected();
        Ok(added > 0)
    }

    /// Claims up to `limit` deliveries due at `now` (pending, not leased by a live instance, to a
    /// live webhook that is not paused) until `lease_until`, counting an attempt for each. A webhook gets one at a
    /// time, its oldest due (due time, then id, which is time-ordered), and none while one of its
    /// deliveries is out: a receiver hears its events in order unless one waits for a retry.
    pub async fn claim_deliveries(
        &self,
        now: i64,
        lease_until: i64,
        limit: i64,
    ) -> Result<Vec<Claimed>, sqlx::Error> {
        let statement = sqlx::query_as::<_, Claimed>(CLAIM_DELIVERIES.on(self.backend()))
            .bind(now)
            .bind(lease_until)
            .bind(limit);
        self.commit_returning_all(statement).await
    }

    /// Records how the attempt of `claimed` ended, at `now`; `false` when the lease was lost
    /// (another instance took the delivery over after it ran out), and nothing changed.
    pub async fn mark_delivery(
        &self,
        claimed: &Claimed,
        outcome: &Outcome,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        let (state, status, error, next_at) = match outcome {
            Outcome::Delivered { status } => (DeliveryState::Delivered, Some(*status), None, None),
            Outcome::Retry {
                status,
                error,
                next_at,
            } => (
                DeliveryState::Pending,
                *status,
                Some(error.as_str()),
                Some(*next_at),
            ),
            Outcome::Failed { status, error } => {
                (DeliveryState::Failed, *status, Some(error.as_str()), None)
            }
        };
        let statement = sqlx::query_as::<_, (String,)>(MARK_DELIVERY)
            .bind(&claimed.id)
            .bind(claimed.locked_until)
            .bind(state.as_str())
            .bind(status)
            .bind(error)
            .bind(next_at)
            .bind(now);
        Ok(self.commit_returning(statement).await.optional()?.is_some())
    }

    /// Ends the pending deliveries of webhooks deleted (they are never sent), at `now`.
    pub async fn fail_orphaned_deliveries(&self, now: i64) -> Result<u64, sqlx::Error> {
        Ok(self
            .query_execute(FAIL_ORPHANED_DELIVERIES, (now,))
            .await?
            .rows_affected())
    }

    /// The latest `limit` deliveries, newest first, with their webhook's name.
    pub async fn delivery_log(&self, limit: i64) -> Result<Vec<DeliveryRow>, sqlx::Error> {
        self.query_all(DELIVERY_LOG, (limit,)).await
    }

    /// Deletes deliveries added before `before`, and beyond the newest `keep` the finished ones
    /// (delivered, failed, held) added before `protect_from`; returns rows deleted. A delivery
    /// added since `protect_from` (the enqueue window) is never deleted, or its event would be
    /// enqueued again under a new id. Deletes [`PRUNE_BATCH`] rows a statement, so no statement
    /// holds SQLite's write lock for long.
    pub async fn prune_deliveries(
        &self,
        before: i64,
        keep: i64,
        protect_from: i64,
    ) -> Result<u64, sqlx::Error> {
        let old = self
            .delete_in_batches(&PRUNE_OLD_DELIVERIES, before, 0)
            .await?;
        let over = self
            .delete_in_batches(&PRUNE_FINISHED_DELIVERIES, protect_from, keep)
            .await?;
        Ok(old.rows + over.rows)
    }

    /// Records how an attempt at `webhook_id`'s receiver went, at `now`: a delivery clears its
    /// failures, a failed attempt pauses the webhook for the next wait of [`BACKOFF_SECS`] by
    /// consecutive failures, so a dead receiver is tried once a pause, whatever waits for it.
    pub async fn record_receiver(
        &self,
        webhook_id: &str,
        delivered: bool,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        if delivered {
            self.query_execute(CLEAR_RECEIVER_FAILURES, (webhook_id,))
                .await?;
            return Ok(());
        }
        let wait_by_failures: String = BACKOFF_SECS
            .iter()
            .enumerate()
            .map(|(failures, secs)| format!(" WHEN {failures} THEN {}", secs * 1000))
            .collect();
        let longest = BACKOFF_SECS.last().copied().unwrap_or(60) * 1000;
        let pause_sql = format!(
            "UPDATE status_webhooks SET failures = failures + 1, \
             paused_until = $2 + CASE failures{wait_by_failures} ELSE {longest} END WHERE id = $1"
        );
        sqlx::query(&pause_sql)
            .bind(webhook_id)
            .bind(now)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// When a delivery can next be claimed: over the live webhooks, the latest of each one's pause,
    /// oldest pending due time and lease in flight (its queue waits for it); `None`: nothing pending.
    pub async fn next_delivery_due(&self) -> Result<Option<i64>, sqlx::Error> {
        let rows: Vec<(Option<i64>, Option<i64>, Option<i64>)> =
            self.query_all(NEXT_DELIVERY_DUE, ()).await?;
        let due = |(paused, due, leased): (Option<i64>, Option<i64>, Option<i64>)| {
            due.map(|d| d.max(paused.unwrap_or(d)).max(leased.unwrap_or(d)))
        };
        Ok(rows.into_iter().filter_map(due).min())
    }
}

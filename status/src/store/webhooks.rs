//! The status page's webhooks (`status_webhooks`) and the components' state changes the checks
//! found (`status_component_events`), which the webhooks announce. Every write is one autocommit
//! statement, acknowledged after its commit ([`Database::commit_returning`]).

use sqlx::FromRow;

use mg_domain::webhooks::WebhookFormat;

use super::StatusStore;
use mg_platform::db::prune::PerEngine;
use mg_platform::db::OptionalRow;

/// A webhook as stored.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct WebhookRow {
    pub id: String,
    pub name: String,
    pub url: String,
    #[sqlx(try_from = "String")]
    pub format: WebhookFormat,
    /// Hex of the 32-byte signing key; never logged, never listed.
    pub secret: String,
    pub created_at: i64,
    pub created_by: String,
    pub deleted_at: Option<i64>,
    pub deleted_by: Option<String>,
}

/// A component's state change, as stored.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct ComponentEventRow {
    pub component: String,
    pub seq: i64,
    /// `down` or `up`.
    pub state: String,
    pub incident: String,
    pub at: i64,
    /// 1 when the component was inside a maintenance window.
    pub held: i64,
    pub created_at: i64,
}

/// The columns of `status_webhooks` that [`WebhookRow`] reads.
macro_rules! webhook_columns {
    () => {
        "id, name, url, format, secret, created_at, created_by, deleted_at, deleted_by"
    };
}

/// The columns of `status_component_events` that [`ComponentEventRow`] reads.
macro_rules! event_columns {
    () => {
        "component, seq, state, incident, at, held, created_at"
    };
}

/// Stores a webhook while fewer than `$8` are live.
pub const INSERT_WEBHOOK: &str = concat!(
    "INSERT INTO status_webhooks (",
    webhook_columns!(),
    ") SELECT $1, $2, $3, $4, $5, $6, $7, NULL, NULL \
     WHERE (SELECT COUNT(*) FROM status_webhooks WHERE deleted_at IS NULL) < $8 \
     RETURNING created_at"
);

/// Marks live webhook `$1` deleted at `$2` by `$3`.
pub const DELETE_WEBHOOK: &str = "UPDATE status_webhooks SET deleted_at = $2, deleted_by = $3 \
     WHERE id = $1 AND deleted_at IS NULL RETURNING id";

/// The live webhooks, oldest first.
pub const LIVE_WEBHOOKS: &str = concat!(
    "SELECT ",
    webhook_columns!(),
    " FROM status_webhooks WHERE deleted_at IS NULL ORDER BY created_at, id"
);

/// How many webhooks are live.
pub const COUNT_LIVE_WEBHOOKS: &str =
    "SELECT COUNT(*) FROM status_webhooks WHERE deleted_at IS NULL";

/// The latest `$1` webhooks added or deleted, newest change first.
pub const WEBHOOK_CHANGES: &str = concat!(
    "SELECT ",
    webhook_columns!(),
    " FROM status_webhooks ORDER BY COALESCE(deleted_at, created_at) DESC, id LIMIT $1"
);

/// Stores component `$1`'s change to state `$2` unless its last one is in that state or not older
/// (`record_component_event`).
pub const RECORD_COMPONENT_EVENT: &str = concat!(
    "INSERT INTO status_component_events (",
    event_columns!(),
    ") SELECT $1, COALESCE(last.seq, 0) + 1, $2, $3, $4, $5, $6 \
     FROM (SELECT 1 AS one) base LEFT JOIN ( \
       SELECT seq, state, at FROM status_component_events WHERE component = $1 \
       ORDER BY seq DESC LIMIT 1) last ON 1 = 1 \
     WHERE COALESCE(last.state, 'up') <> $2 AND COALESCE(last.at, -1) < $4 \
     ON CONFLICT (component, seq) DO NOTHING RETURNING seq"
);

/// Component state changes stored since `$1`, oldest first.
pub const COMPONENT_EVENTS_SINCE: &str = concat!(
    "SELECT ",
    event_columns!(),
    " FROM status_component_events WHERE created_at >= $1 ORDER BY created_at, component, seq"
);

/// A batch of the component changes stored before the cutoff, each component's last aside (the
/// next change is compared with it; `mg_platform::db::prune`).
pub const PRUNE_COMPONENT_EVENTS: PerEngine = mg_platform::prune_batch!(
    "status_component_events",
    "created_at < $1 AND seq < (SELECT MAX(later.seq) FROM status_component_events later \
     WHERE later.component = status_component_events.component)"
);

/// A batch of the webhooks deleted before the cutoff.
pub const PRUNE_DELETED_WEBHOOKS: PerEngine =
    mg_platform::prune_batch!("status_webhooks", "deleted_at < $1");

impl StatusStore<'_> {
    /// Stores `webhook` when fewer than `max_live` webhooks are live; `false` (nothing stored)
    /// when there are that many already.
    #[tracing::instrument(skip_all, fields(id = %webhook.id))]
    pub async fn insert_webhook(
        &self,
        webhook: &WebhookRow,
        max_live: i64,
    ) -> Result<bool, sqlx::Error> {
        let statement = sqlx::query_as::<_, (i64,)>(INSERT_WEBHOOK)
            .bind(&webhook.id)
            .bind(&webhook.name)
            .bind(&webhook.url)
            .bind(webhook.format.as_str())
            .bind(&webhook.secret)
            .bind(webhook.created_at)
            .bind(&webhook.created_by)
            .bind(max_live);
        Ok(self
            .commit_returning_capped("status_webhooks", statement)
            .await
            .optional()?
            .is_some())
    }

    /// Marks the live webhook `id` deleted by `who` at `at`; `false` when there is no such live
    /// webhook. Its deliveries are no longer sent (the queue reads live webhooks only).
    #[tracing::instrument(skip_all, fields(id))]
    pub async fn delete_webhook(&self, id: &str, who: &str, at: i64) -> Result<bool, sqlx::Error> {
        let statement = sqlx::query_as::<_, (String,)>(DELETE_WEBHOOK)
            .bind(id)
            .bind(at)
            .bind(who);
        Ok(self.commit_returning(statement).await.optional()?.is_some())
    }

    /// The live webhooks, oldest first.
    pub async fn live_webhooks(&self) -> Result<Vec<WebhookRow>, sqlx::Error> {
        self.query_all(LIVE_WEBHOOKS, ()).await
    }

    /// How many webhooks are live (a cheap look before the queue's work).
    pub async fn count_live_webhooks(&self) -> Result<i64, sqlx::Error> {
        sqlx::query_scalar(COUNT_LIVE_WEBHOOKS)
            .fetch_one(self.pool())
            .await
    }

    /// The latest `limit` webhooks added or deleted (live or not), newest change first: the
    /// operator log's webhook lines.
    pub async fn webhook_changes(&self, limit: i64) -> Result<Vec<WebhookRow>, sqlx::Error> {
        self.query_all(WEBHOOK_CHANGES, (limit,)).await
    }

    /// Stores `event` as the component's next state change, unless its last stored change is
    /// already in that state or happened at or after `event.at` (an instance that read the checks
    /// before another one stored a newer change). Its number, or `None` when nothing was stored:
    /// of two instances storing the same change, one stores it.
    #[tracing::instrument(skip_all, fields(component = %event.component, state = %event.state))]
    pub async fn record_component_event(
        &self,
        event: &ComponentEventRow,
    ) -> Result<Option<i64>, sqlx::Error> {
        let statement = sqlx::query_as::<_, (i64,)>(RECORD_COMPONENT_EVENT)
            .bind(&event.component)
            .bind(&event.state)
            .bind(&event.incident)
            .bind(event.at)
            .bind(event.held)
            .bind(event.created_at);
        self.committed_seq(statement).await
    }

    /// Component state changes stored since `since`, oldest first.
    pub async fn component_events_since(
        &self,
        since: i64,
    ) -> Result<Vec<ComponentEventRow>, sqlx::Error> {
        self.query_all(COMPONENT_EVENTS_SINCE, (since,)).await
    }

    /// Deletes component changes stored before `before` (but each component's last, which the
    /// next change is compared with) and webhooks deleted before it, in batches
    /// (`mg_platform::db::prune`); returns rows deleted.
    pub async fn prune_webhook_history(&self, before: i64) -> Result<u64, sqlx::Error> {
        let events = self
            .delete_in_batches(&PRUNE_COMPONENT_EVENTS, before, 0)
            .await?
            .rows;
        let webhooks = self
            .delete_in_batches(&PRUNE_DELETED_WEBHOOKS, before, 0)
            .await?
            .rows;
        Ok(events + webhooks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mg_platform::db::testing::test_database;

    use crate::store::StatusQueries;

    fn event(state: &str, at: i64) -> ComponentEventRow {
        ComponentEventRow {
            component: "db".into(),
            seq: 0,
            state: state.into(),
            incident: "db-1".into(),
            at,
            held: 0,
            created_at: at,
        }
    }

    #[tokio::test]
    async fn a_state_change_is_stored_once_and_only_after_a_different_older_one() {
        let (_dir, db) = test_database().await;
        let record = |e: ComponentEventRow| {
            let db = db.clone();
            async move { db.status().record_component_event(&e).await.expect("query") }
        };
        assert_eq!(
            record(event("up", 100)).await,
            None,
            "up is where it starts"
        );
        assert_eq!(record(event("down", 100)).await, Some(1));
        assert_eq!(record(event("down", 100)).await, None, "told once");
        assert_eq!(record(event("down", 90)).await, None);
        assert_eq!(record(event("up", 50)).await, None, "older than the change");
        assert_eq!(record(event("up", 200)).await, Some(2));
        assert_eq!(record(event("down", 300)).await, Some(3));
        assert_eq!(
            db.status()
                .component_events_since(0)
                .await
                .expect("read")
                .len(),
            3
        );
        assert_eq!(
            db.status()
                .prune_webhook_history(1_000)
                .await
                .expect("prune"),
            2
        );
        assert_eq!(record(event("down", 400)).await, None, "the last one stays");
    }

    #[tokio::test]
    async fn at_most_the_bound_of_webhooks_live_and_a_deleted_one_stays_in_the_log() {
        let (_dir, db) = test_database().await;
        let store = db.status();
        let hook = |id: &str| WebhookRow {
            id: id.into(),
            name: id.into(),
            url: "https://example.com/hook".into(),
            format: WebhookFormat::Json,
            secret: "00".into(),
            created_at: 1_000,
            created_by: "ops".into(),
            deleted_at: None,
            deleted_by: None,
        };
        assert!(store.insert_webhook(&hook("a"), 2).await.expect("insert"));
        assert!(store.insert_webhook(&hook("b"), 2).await.expect("insert"));
        assert!(!store.insert_webhook(&hook("c"), 2).await.expect("insert"));
        assert!(store
            .delete_webhook("a", "ops", 2_000)
            .await
            .expect("delete"));
        assert!(!store
            .delete_webhook("a", "ops", 2_000)
            .await
            .expect("delete"));
        assert!(store.insert_webhook(&hook("c"), 2).await.expect("insert"));
        assert_eq!(store.count_live_webhooks().await.expect("count"), 2);
        assert_eq!(store.webhook_changes(10).await.expect("log").len(), 3);
    }
}

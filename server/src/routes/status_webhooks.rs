//! `/api/status/webhooks*`: the status page's outgoing webhooks, managed by status operators
//! (docs/status-operators.md, "Webhooks"). Operator-only like every `/api/status/operator*`
//! endpoint (403 JSON for others, 401 without a session); each add and delete counts against the
//! operator's rate, is logged (who, what, when: the server's log and the operator log) and is
//! acknowledged after its commit. The signing secret is answered once, when a webhook is added,
//! and never listed or logged.

use std::sync::Arc;

use axum::{
    extract::{FromRef, Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{delete, get},
    Json, Router,
};
use serde::{Deserialize, Serialize};

use super::status_operator::{invalid, logged, take_write, text, StatusOperator};
use crate::{
    db::Database,
    error::AppError,
    extract::ApiJson,
    identity::{sessions::SessionStore, verify::SessionVerifier},
    status::{
        store::{deliveries::DeliveryRow, webhooks::WebhookRow, StatusQueries},
        webhooks::{
            guard, random_bytes, DELIVERIES_READ, DELIVERY_RETENTION_MS, MAX_NAME_CHARS,
            MAX_URL_CHARS, MAX_WEBHOOKS,
        },
        StatusService,
    },
    time::{now_ms, rfc3339},
};

/// Routes nested under `/api`.
pub fn api_router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Database: FromRef<S>,
    Arc<SessionStore>: FromRef<S>,
    Option<Arc<SessionVerifier>>: FromRef<S>,
    Arc<StatusService>: FromRef<S>,
{
    Router::new()
        .route("/status/webhooks", get(list).post(add))
        .route("/status/webhooks/deliveries", get(deliveries))
        .route("/status/webhooks/{id}", delete(remove))
}

/// What a webhook's bodies look like: the whole event as JSON, or one message for Slack's or
/// Discord's incoming webhooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum WebhookFormat {
    Json,
    Slack,
    Discord,
}

impl WebhookFormat {
    fn as_str(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Slack => "slack",
            Self::Discord => "discord",
        }
    }

    fn of(stored: &str) -> Self {
        match stored {
            "slack" => Self::Slack,
            "discord" => Self::Discord,
            _ => Self::Json,
        }
    }
}

/// `POST /api/status/webhooks`.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "AddWebhookRequest"))]
#[serde(deny_unknown_fields)]
pub struct AddWebhook {
    pub url: String,
    pub format: WebhookFormat,
    /// A label for the list and the delivery log (default: the URL's host).
    #[serde(default)]
    #[cfg_attr(test, ts(optional = nullable))]
    pub name: Option<String>,
}

/// A webhook as listed (never its secret).
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Webhook {
    pub id: String,
    pub name: String,
    pub url: String,
    pub format: WebhookFormat,
    pub created_at: String,
    pub created_by: String,
}

/// `POST /api/status/webhooks` answers 201 with the webhook and its signing secret, shown this
/// once: 64 hex digits, the HMAC-SHA256 key of the `X-MG-Signature` header.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AddedWebhook {
    pub webhook: Webhook,
    pub secret: String,
}

/// `GET /api/status/webhooks`.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WebhookList {
    pub webhooks: Vec<Webhook>,
    /// Live webhooks at most.
    pub max_webhooks: i64,
    pub max_url_chars: usize,
    pub max_name_chars: usize,
}

/// Where a delivery is: waiting for its (next) attempt, delivered (a 2xx answer), failed (every
/// attempt failed, or its webhook was deleted), or held (a component change inside a
/// maintenance window: logged, never sent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum DeliveryState {
    Pending,
    Delivered,
    Failed,
    Held,
}

/// One row of the delivery log.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Delivery {
    /// The `X-MG-Delivery` id, the same on every attempt.
    pub id: String,
    pub event: String,
    pub webhook_id: String,
    /// `None` once the webhook is gone.
    pub webhook_name: Option<String>,
    pub state: DeliveryState,
    pub attempts: i64,
    /// The receiver's last HTTP status.
    pub last_status: Option<i64>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// When a pending delivery is tried next.
    pub next_attempt_at: Option<String>,
}

/// `GET /api/status/webhooks/deliveries`: the latest 200, newest first.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DeliveryLog {
    pub deliveries: Vec<Delivery>,
    /// How long deliveries are kept, in days.
    pub kept_days: i64,
}

fn listed(row: WebhookRow) -> Webhook {
    Webhook {
        format: WebhookFormat::of(&row.format),
        created_at: rfc3339(row.created_at),
        id: row.id,
        name: row.name,
        url: row.url,
        created_by: row.created_by,
    }
}

async fn list(
    State(db): State<Database>,
    _operator: StatusOperator,
) -> Result<Json<WebhookList>, AppError> {
    let webhooks = db
        .status()
        .live_webhooks()
        .await?
        .into_iter()
        .map(listed)
        .collect();
    Ok(Json(WebhookList {
        webhooks,
        max_webhooks: MAX_WEBHOOKS,
        max_url_chars: MAX_URL_CHARS,
        max_name_chars: MAX_NAME_CHARS,
    }))
}

async fn add(
    State(db): State<Database>,
    State(status): State<Arc<StatusService>>,
    operator: StatusOperator,
    ApiJson(body): ApiJson<AddWebhook>,
) -> Result<Response, AppError> {
    let url = guard::parse(&body.url).map_err(|message| invalid(&message))?;
    let name = match &body.name {
        Some(name) if !name.trim().is_empty() => text(name, "name", MAX_NAME_CHARS, false)?,
        _ => url.host_str().unwrap_or_default().to_owned(),
    };
    guard::vet(&url, status.webhooks.allow_private())
        .await
        .map_err(|message| invalid(&message))?;
    let now = now_ms();
    let who = operator.who();
    take_write(&status, who, now)?;
    let secret = crate::hex::encode(&random_bytes::<32>());
    let row = WebhookRow {
        id: crate::hex::encode(&random_bytes::<16>()),
        name,
        url: url.to_string(),
        format: body.format.as_str().to_owned(),
        secret: secret.clone(),
        created_at: now,
        created_by: who.to_owned(),
        deleted_at: None,
        deleted_by: None,
    };
    if !db.status().insert_webhook(&row, MAX_WEBHOOKS).await? {
        return Err(invalid(&format!(
            "There are {MAX_WEBHOOKS} webhooks (the most): delete one first."
        )));
    }
    logged(who, "add webhook", &row.id);
    let webhook = listed(row);
    Ok((StatusCode::CREATED, Json(AddedWebhook { webhook, secret })).into_response())
}

async fn remove(
    State(db): State<Database>,
    State(status): State<Arc<StatusService>>,
    operator: StatusOperator,
    Path(id): Path<String>,
) -> Result<StatusCode, AppError> {
    let now = now_ms();
    let who = operator.who();
    take_write(&status, who, now)?;
    if !db.status().delete_webhook(&id, who, now).await? {
        return Err(AppError::NotFound);
    }
    logged(who, "delete webhook", &id);
    // Its pending deliveries are never claimed again; the log says so from the next prune on.
    if let Err(error) = db.status().fail_orphaned_deliveries(now).await {
        tracing::warn!(%error, "webhooks: the deleted webhook's deliveries end at the next prune");
    }
    Ok(StatusCode::NO_CONTENT)
}

async fn deliveries(
    State(db): State<Database>,
    _operator: StatusOperator,
) -> Result<Json<DeliveryLog>, AppError> {
    let deliveries = db
        .status()
        .delivery_log(DELIVERIES_READ)
        .await?
        .into_iter()
        .map(delivery)
        .collect();
    Ok(Json(DeliveryLog {
        deliveries,
        kept_days: DELIVERY_RETENTION_MS / crate::time::DAY_MS,
    }))
}

fn delivery(row: DeliveryRow) -> Delivery {
    let state = match row.state.as_str() {
        "delivered" => DeliveryState::Delivered,
        "failed" => DeliveryState::Failed,
        "held" => DeliveryState::Held,
        _ => DeliveryState::Pending,
    };
    Delivery {
        next_attempt_at: (state == DeliveryState::Pending).then(|| rfc3339(row.next_at)),
        id: row.id,
        event: row.event,
        webhook_id: row.webhook_id,
        webhook_name: row.webhook_name,
        state,
        attempts: row.attempts,
        last_status: row.last_status,
        last_error: row.last_error,
        created_at: rfc3339(row.created_at),
        updated_at: rfc3339(row.updated_at),
    }
}

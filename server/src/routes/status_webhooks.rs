//! `/api/status/webhooks*`: the status page's outgoing webhooks, managed by status operators
//! (docs/status-operators.md, "Webhooks"). Operator-only like every `/api/status/operator*`
//! endpoint (403 JSON for others, 401 without a session). The actions (the address rule, the cap,
//! the operator's rate, the log, the commit) are the status service's (`mg_status::operator`);
//! these handlers extract, call and answer. The signing secret is answered once, when a webhook is
//! added, and never listed or logged.

use axum::{
    extract::Path,
    http::StatusCode,
    routing::{delete, get},
    Json, Router,
};

use super::status_operator::StatusOperator;
use crate::{
    error::AppError,
    extract::ApiJson,
    state::AppState,
    status::operator::bodies::{AddWebhook, AddedWebhook, DeliveryLog, WebhookList},
};

/// Routes nested under `/api`.
pub fn api_router() -> Router<AppState> {
    Router::new()
        .route("/status/webhooks", get(list).post(add))
        .route("/status/webhooks/deliveries", get(deliveries))
        .route("/status/webhooks/{id}", delete(remove))
}

async fn list(operator: StatusOperator) -> Result<Json<WebhookList>, AppError> {
    Ok(Json(operator.actions().webhooks().await?))
}

async fn add(
    operator: StatusOperator,
    ApiJson(body): ApiJson<AddWebhook>,
) -> Result<(StatusCode, Json<AddedWebhook>), AppError> {
    let added = operator.actions().add_webhook(body).await?;
    Ok((StatusCode::CREATED, Json(added)))
}

async fn remove(operator: StatusOperator, Path(id): Path<String>) -> Result<StatusCode, AppError> {
    operator.actions().delete_webhook(&id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn deliveries(operator: StatusOperator) -> Result<Json<DeliveryLog>, AppError> {
    Ok(Json(operator.actions().deliveries().await?))
}

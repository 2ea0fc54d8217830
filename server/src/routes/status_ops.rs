//! `/api/status/operator*`, `/api/status/incidents*`, `/api/status/maintenances*`: what status
//! operators do on the status page. An operator is a signed-in person whose identity token grants
//! the `status-operator` role (docs/status-operators.md); anyone else gets 403 JSON, and a request
//! without a valid session 401 (`status_operator`). The actions themselves (their bounds, caps,
//! rate, log and commit) are the status service's (`mg_status::operator`); these handlers extract,
//! call and answer.

use std::sync::Arc;

use axum::{
    extract::{FromRef, FromRequestParts, Path},
    http::StatusCode,
    routing::{get, post, MethodRouter},
    Json, Router,
};
use mg_domain::notices::{Notice, NoticeKind};

use super::status_operator::StatusOperator;
use crate::{
    db::Database,
    error::AppError,
    extract::ApiJson,
    identity::{sessions::SessionStore, verify::SessionVerifier},
    status::{
        operator::bodies::{
            OpenIncident, OperatorLog, OperatorView, PostUpdate, ScheduleMaintenance,
        },
        StatusService,
    },
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
        .route("/status/operator", get(get_operator))
        .route("/status/operator/log", get(get_log))
        .route("/status/incidents", post(open_incident))
        .route(
            "/status/incidents/{id}/updates",
            update_route(NoticeKind::Incident),
        )
        .route("/status/maintenances", post(schedule_maintenance))
        .route(
            "/status/maintenances/{id}/updates",
            update_route(NoticeKind::Maintenance),
        )
}

async fn get_operator(operator: StatusOperator) -> Json<OperatorView> {
    Json(operator.actions().view())
}

async fn get_log(operator: StatusOperator) -> Result<Json<OperatorLog>, AppError> {
    Ok(Json(operator.actions().log().await?))
}

async fn open_incident(
    operator: StatusOperator,
    ApiJson(body): ApiJson<OpenIncident>,
) -> Result<(StatusCode, Json<Notice>), AppError> {
    let notice = operator.actions().open_incident(body).await?;
    Ok((StatusCode::CREATED, Json(notice)))
}

async fn schedule_maintenance(
    operator: StatusOperator,
    ApiJson(body): ApiJson<ScheduleMaintenance>,
) -> Result<(StatusCode, Json<Notice>), AppError> {
    let notice = operator.actions().schedule_maintenance(body).await?;
    Ok((StatusCode::CREATED, Json(notice)))
}

/// `POST /api/status/{incidents,maintenances}/{id}/updates`: an update to a notice of `kind`.
fn update_route<S>(kind: NoticeKind) -> MethodRouter<S>
where
    S: Clone + Send + Sync + 'static,
    StatusOperator: FromRequestParts<S, Rejection = AppError>,
{
    post(
        move |operator: StatusOperator,
              Path(id): Path<String>,
              ApiJson(body): ApiJson<PostUpdate>| async move {
            let notice = operator.actions().add_update(&id, kind, body).await?;
            Ok::<_, AppError>(Json(notice))
        },
    )
}

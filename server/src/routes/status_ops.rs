//! `/api/status/operator*`, `/api/status/incidents*`, `/api/status/maintenances*`: what status
//! operators do on the status page. An operator is a signed-in person whose identity token grants
//! the `status-operator` role (docs/status-operators.md); anyone else gets 403 JSON, and a request
//! without a valid session 401 (`status_operator`). The actions themselves (their bounds, caps,
//! rate, log and commit) are the status service's (`mg_status::operator`); these handlers extract,
//! call and answer.

use std::sync::Arc;

use axum::{
    extract::{FromRef, FromRequestParts, Path, State},
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
        operator::{
            bodies::{OpenIncident, OperatorLog, OperatorView, PostUpdate, ScheduleMaintenance},
            Operator,
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

async fn get_operator(
    State(db): State<Database>,
    State(status): State<Arc<StatusService>>,
    operator: StatusOperator,
) -> Json<OperatorView> {
    Json(Operator::new(&db, &status, operator.who()).view())
}

async fn get_log(
    State(db): State<Database>,
    State(status): State<Arc<StatusService>>,
    operator: StatusOperator,
) -> Result<Json<OperatorLog>, AppError> {
    Ok(Json(
        Operator::new(&db, &status, operator.who()).log().await?,
    ))
}

async fn open_incident(
    State(db): State<Database>,
    State(status): State<Arc<StatusService>>,
    operator: StatusOperator,
    ApiJson(body): ApiJson<OpenIncident>,
) -> Result<(StatusCode, Json<Notice>), AppError> {
    let notice = Operator::new(&db, &status, operator.who())
        .open_incident(body)
        .await?;
    Ok((StatusCode::CREATED, Json(notice)))
}

async fn schedule_maintenance(
    State(db): State<Database>,
    State(status): State<Arc<StatusService>>,
    operator: StatusOperator,
    ApiJson(body): ApiJson<ScheduleMaintenance>,
) -> Result<(StatusCode, Json<Notice>), AppError> {
    let notice = Operator::new(&db, &status, operator.who())
        .schedule_maintenance(body)
        .await?;
    Ok((StatusCode::CREATED, Json(notice)))
}

/// `POST /api/status/{incidents,maintenances}/{id}/updates`: an update to a notice of `kind`.
fn update_route<S>(kind: NoticeKind) -> MethodRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Database: FromRef<S>,
    Arc<StatusService>: FromRef<S>,
    StatusOperator: FromRequestParts<S, Rejection = AppError>,
{
    post(
        move |State(db): State<Database>,
              State(status): State<Arc<StatusService>>,
              operator: StatusOperator,
              Path(id): Path<String>,
              ApiJson(body): ApiJson<PostUpdate>| async move {
            let notice = Operator::new(&db, &status, operator.who())
                .add_update(&id, kind, body)
                .await?;
            Ok::<_, AppError>(Json(notice))
        },
    )
}

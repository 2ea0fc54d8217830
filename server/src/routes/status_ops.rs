//! `/api/status/operator*`, `/api/status/incidents*`, `/api/status/maintenances*`,
//! `/api/status/components/{id}`: what status
//! operators do on the status page. An operator is a signed-in person whose identity token grants
//! the `status-operator` role (docs/status-operators.md); anyone else gets 403 JSON, and a request
//! without a valid session 401 (`status_operator`). The actions themselves (their bounds, caps,
//! rate, log and commit) are the status service's (`mg_status::operator`); these handlers extract,
//! call and answer.

use axum::{
    extract::Path,
    http::StatusCode,
    routing::{get, patch, post, MethodRouter},
    Json, Router,
};
use mg_domain::notices::{Notice, NoticeKind};

use super::status_operator::StatusOperator;
use crate::{
    error::AppError,
    extract::ApiJson,
    state::AppState,
    status::operator::bodies::{
        ComponentSetting, EditUpdate, OpenIncident, OperatorLog, OperatorView, PostUpdate,
        ScheduleMaintenance, SetComponentStatus,
    },
};

/// Routes nested under `/api`.
pub fn api_router() -> Router<AppState> {
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
        .route(
            "/status/incidents/{id}/updates/{seq}",
            correction_route(NoticeKind::Incident),
        )
        .route(
            "/status/maintenances/{id}/updates/{seq}",
            correction_route(NoticeKind::Maintenance),
        )
        .route("/status/components/{id}", patch(set_component_status))
}

async fn get_operator(operator: StatusOperator) -> Json<OperatorView> {
    Json(operator.actions().view().await)
}

async fn set_component_status(
    operator: StatusOperator,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<SetComponentStatus>,
) -> Result<Json<ComponentSetting>, AppError> {
    Ok(Json(
        operator.actions().set_component_status(&id, body).await?,
    ))
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
fn update_route(kind: NoticeKind) -> MethodRouter<AppState> {
    post(
        move |operator: StatusOperator,
              Path(id): Path<String>,
              ApiJson(body): ApiJson<PostUpdate>| async move {
            let notice = operator.actions().add_update(&id, kind, body).await?;
            Ok::<_, AppError>(Json(notice))
        },
    )
}

/// `PATCH` and `DELETE /api/status/{incidents,maintenances}/{id}/updates/{seq}`: correct the text
/// of an update of a notice of `kind`, or delete it; both answer the notice as the page shows it.
fn correction_route(kind: NoticeKind) -> MethodRouter<AppState> {
    patch(
        move |operator: StatusOperator,
              Path((id, seq)): Path<(String, String)>,
              ApiJson(body): ApiJson<EditUpdate>| async move {
            let seq = update_number(&seq)?;
            let notice = operator.actions().edit_update(&id, kind, seq, body).await?;
            Ok::<_, AppError>(Json(notice))
        },
    )
    .delete(
        move |operator: StatusOperator, Path((id, seq)): Path<(String, String)>| async move {
            let seq = update_number(&seq)?;
            let notice = operator.actions().delete_update(&id, kind, seq).await?;
            Ok::<_, AppError>(Json(notice))
        },
    )
}

/// An update's number in a path: anything else names no update (404 in the API's JSON, where
/// axum's own refusal would be plain text).
fn update_number(seq: &str) -> Result<i64, AppError> {
    seq.parse().map_err(|_| AppError::NotFound)
}

//! Liveness (`/health`, `/api/health`) and database readiness (`/db-health`).

use std::time::Instant;

use axum::{
    extract::{FromRef, State},
    http::{header, HeaderValue, StatusCode},
    response::IntoResponse,
    routing::get,
    Json, Router,
};
use serde_json::{json, Value};

use crate::db::Database;

/// How long `/db-health` waits for `SELECT 1` before calling the database unhealthy.
pub use crate::db::PING_LIMIT as DB_PING_LIMIT;

/// Routes at the top level: `/health` and `/db-health`.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Database: FromRef<S>,
{
    Router::new()
        .route("/health", get(get_health))
        .route("/db-health", get(get_db_health))
}

/// Routes nested under `/api`: `/api/health`.
pub fn api_router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/health", get(get_health))
}

/// `{"status":"ok"}`, the same bytes every time (the request's span, made at the edge, covers it).
async fn get_health() -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        r#"{"status":"ok"}"#,
    )
}

#[tracing::instrument(skip(db))]
async fn get_db_health(State(db): State<Database>) -> (StatusCode, Json<Value>) {
    let started = Instant::now();
    let outcome = db.ping(DB_PING_LIMIT).await;
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    let backend = db.backend().name();
    match outcome {
        Ok(()) => (
            StatusCode::OK,
            Json(json!({ "status": "ok", "database": backend, "latency_ms": latency_ms })),
        ),
        Err(error) => {
            tracing::warn!(%error, "database health check failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({
                    "status": "unavailable",
                    "database": backend,
                    "error": "The database did not answer.",
                    "code": "database_unavailable",
                })),
            )
        }
    }
}

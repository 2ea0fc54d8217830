//! Liveness (`/health`, `/api/health`) and database readiness (`/db-health`).

use std::time::Instant;

use axum::{
    body::Body,
    extract::State,
    http::{header, HeaderValue, StatusCode},
    response::Response,
    routing::get,
    Json, Router,
};
use serde::Serialize;

use crate::db::{Backend, Database};
use crate::state::AppState;

/// How long each step of `/db-health`'s probe (a read, then a committed write) may take.
pub use crate::db::PING_LIMIT as DB_PING_LIMIT;

/// Routes at the top level: `/health` and `/db-health`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/health", get(get_health))
        .route("/db-health", get(get_db_health))
}

/// Routes nested under `/api`: `/api/health`.
pub fn api_router() -> Router<AppState> {
    Router::new().route("/health", get(get_health))
}

/// The body of `GET /health` and `GET /api/health`.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Health {
    #[cfg_attr(test, ts(type = r#""ok""#))]
    pub status: &'static str,
}

/// The body of `GET /db-health`: 200 with the latency of the probe (a read and a committed write,
/// `db/probe.rs`) in milliseconds, or 503 with the API's error fields, `error` saying which step
/// failed and why.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(untagged)]
pub enum DbHealth {
    // Fields in the order the answers have always had (alphabetical).
    Ok {
        database: Backend,
        latency_ms: f64,
        #[cfg_attr(test, ts(type = r#""ok""#))]
        status: &'static str,
    },
    Unavailable {
        #[cfg_attr(test, ts(type = r#""database_unavailable""#))]
        code: &'static str,
        database: Backend,
        error: &'static str,
        #[cfg_attr(test, ts(type = r#""unavailable""#))]
        status: &'static str,
    },
}

/// [`Health`] as sent, serialised once (a test holds the two equal).
const HEALTH_BODY: &str = r#"{"status":"ok"}"#;

/// The same bytes every time; the request's span, made at the edge, covers it. The headers are
/// sized for what the edge adds, so a probe's answer allocates its header map once.
async fn get_health() -> Response {
    let mut response = Response::new(Body::from(HEALTH_BODY));
    let headers = response.headers_mut();
    headers.reserve(16);
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

#[tracing::instrument(skip(db))]
async fn get_db_health(State(db): State<Database>) -> (StatusCode, Json<DbHealth>) {
    let started = Instant::now();
    let outcome = db.probe(DB_PING_LIMIT).await;
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    let database = db.backend();
    match outcome {
        Ok(()) => (
            StatusCode::OK,
            Json(DbHealth::Ok {
                database,
                latency_ms,
                status: "ok",
            }),
        ),
        // The probe logged the failure as an ERROR line with the driver's words.
        Err(failure) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(DbHealth::Unavailable {
                code: "database_unavailable",
                database,
                error: failure.message(),
                status: "unavailable",
            }),
        ),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The types give the bytes the `json!` trees gave before them (keys in alphabetical order).
    #[test]
    fn the_answers_keep_their_shape_byte_for_byte() {
        fn text(value: &impl Serialize) -> String {
            serde_json::to_string(value).expect("JSON")
        }
        assert_eq!(
            text(&Health { status: "ok" }),
            json!({ "status": "ok" }).to_string()
        );
        assert_eq!(text(&Health { status: "ok" }), HEALTH_BODY);
        assert_eq!(
            text(&DbHealth::Ok {
                database: Backend::Sqlite,
                latency_ms: 1.5,
                status: "ok",
            }),
            json!({ "status": "ok", "database": "sqlite", "latency_ms": 1.5 }).to_string()
        );
        assert_eq!(
            text(&DbHealth::Unavailable {
                code: "database_unavailable",
                database: Backend::Postgres,
                error: "The database did not answer.",
                status: "unavailable",
            }),
            json!({
                "status": "unavailable",
                "database": "postgres",
                "error": "The database did not answer.",
                "code": "database_unavailable",
            })
            .to_string()
        );
    }
}

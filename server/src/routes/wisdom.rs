//! `POST /api/wisdom`: a random quote from the database.

use axum::{
    extract::{FromRef, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::post,
    Json, Router,
};
use serde_json::json;

use crate::db::Database;

/// Routes nested under `/api`.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Database: FromRef<S>,
{
    Router::new().route("/wisdom", post(get_wisdom))
}

#[tracing::instrument(skip(db))]
async fn get_wisdom(State(db): State<Database>) -> Response {
    match db.random_wisdom().await {
        Ok(Some(wisdom)) => Json(json!({ "wisdom": wisdom })).into_response(),
        Ok(None) => {
            tracing::error!("the wisdom table is empty");
            wisdom_failure(
                StatusCode::INTERNAL_SERVER_ERROR,
                "wisdom_empty",
                "The wisdom table is empty.",
                "Restore the seeded quotes: run the server's migrations on a fresh database, \
                 or re-insert the rows of migrations/<backend>/0002_sessions_and_wisdom.sql.",
            )
        }
        Err(error) => {
            tracing::error!(%error, "wisdom query failed");
            wisdom_failure(
                StatusCode::SERVICE_UNAVAILABLE,
                "database_unavailable",
                "The database is unavailable.",
                "Check that the database in DATABASE_URL is running and reachable (GET /db-health \
                 tells), then try again. The server reconnects by itself.",
            )
        }
    }
}

/// The wisdom error shape the app reads (spec section 3): error, instructions, message, plus code.
fn wisdom_failure(
    status: StatusCode,
    code: &'static str,
    message: &'static str,
    instructions: &'static str,
) -> Response {
    (
        status,
        Json(json!({
            "error": "Wisdom is unavailable right now.",
            "message": message,
            "instructions": instructions,
            "code": code,
        })),
    )
        .into_response()
}

//! `POST /api/wisdom`: a random quote from the database.

use axum::{
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::post,
    Json, Router,
};
use serde::Serialize;

use crate::db::{wisdom::Wisdom, Database};
use crate::state::AppState;

/// Routes nested under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/wisdom", post(get_wisdom))
}

/// The body of a `POST /api/wisdom` that found a quote.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WisdomAnswer {
    pub wisdom: Wisdom,
}

/// The body of a `POST /api/wisdom` that found none (spec section 3): what failed for a person,
/// how to fix it for whoever runs the server, and the code a program reads.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WisdomFailure {
    // Fields in the order the answer has always had (alphabetical).
    /// `wisdom_empty` or `database_unavailable`.
    pub code: &'static str,
    /// Always 'Wisdom is unavailable right now.'
    pub error: &'static str,
    pub instructions: &'static str,
    pub message: &'static str,
}

#[tracing::instrument(skip(db))]
async fn get_wisdom(State(db): State<Database>) -> Response {
    match db.random_wisdom().await {
        Ok(Some(wisdom)) => Json(WisdomAnswer { wisdom }).into_response(),
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
        Json(WisdomFailure {
            code,
            error: "Wisdom is unavailable right now.",
            instructions,
            message,
        }),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The structs give the bytes the `json!` trees gave before them (keys in alphabetical order).
    #[test]
    fn the_answers_keep_their_shape_byte_for_byte() {
        let wisdom = Wisdom {
            orator: "O".into(),
            quote: "Q".into(),
        };
        assert_eq!(
            serde_json::to_string(&WisdomAnswer {
                wisdom: wisdom.clone()
            })
            .expect("JSON"),
            json!({ "wisdom": wisdom }).to_string()
        );
        let failure = WisdomFailure {
            code: "wisdom_empty",
            error: "Wisdom is unavailable right now.",
            instructions: "I",
            message: "M",
        };
        assert_eq!(
            serde_json::to_string(&failure).expect("JSON"),
            json!({
                "error": "Wisdom is unavailable right now.",
                "message": "M",
                "instructions": "I",
                "code": "wisdom_empty",
            })
            .to_string()
        );
    }
}

//! The one error type of the API: every failure answers JSON `{"error": "...", "code": "..."}`.

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};
use serde_json::json;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum AppError {
    #[error("not found")]
    NotFound,
    #[error("database unavailable")]
    DatabaseUnavailable(#[source] sqlx::Error),
}

impl AppError {
    fn status_and_body(&self) -> (StatusCode, &'static str, &'static str) {
        match self {
            AppError::NotFound => (
                StatusCode::NOT_FOUND,
                "not_found",
                "There is nothing at this address.",
            ),
            AppError::DatabaseUnavailable(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "database_unavailable",
                "The database is unavailable. Please try again shortly.",
            ),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, code, message) = self.status_and_body();
        if let AppError::DatabaseUnavailable(source) = &self {
            // The detail stays in the log; the client gets the human message only.
            tracing::error!(error = %source, "database error");
        }
        (status, Json(json!({ "error": message, "code": code }))).into_response()
    }
}

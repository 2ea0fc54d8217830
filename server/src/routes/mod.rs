//! The HTTP routes, one module per group, each with its own `router()`.

pub mod health;

use axum::Router;

use crate::{error::AppError, startup::AppState};

/// Everything under `/api`; unknown API paths answer 404 JSON, never the app's HTML.
pub fn api_router() -> Router<AppState> {
    Router::new()
        .merge(health::api_router())
        .fallback(api_not_found)
}

/// The answer for any path under `/api` that no route claims.
pub async fn api_not_found() -> AppError {
    AppError::NotFound
}

//! The HTTP routes, one module per group, each with its own `router()`.

pub mod auth;
pub mod health;
pub mod metrics;
pub mod status;
pub mod wisdom;

use axum::{middleware, Router};

use crate::{error::AppError, rate_limit, startup::AppState};

/// Everything under `/api`; unknown API paths answer 404 JSON, never the app's HTML.
/// Sign-in and wisdom routes are rate-limited per client IP.
pub fn api_router(state: AppState) -> Router<AppState> {
    let limited = Router::new()
        .nest("/auth", auth::router())
        .merge(wisdom::router())
        .route_layer(middleware::from_fn_with_state(
            state.rate_limiter.clone(),
            rate_limit::limit_by_ip,
        ));
    Router::new()
        .merge(health::api_router())
        .merge(status::api_router())
        .merge(limited)
        .fallback(api_not_found)
}

/// The answer for any path under `/api` that no route claims.
pub async fn api_not_found() -> AppError {
    AppError::NotFound
}

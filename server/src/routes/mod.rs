//! The HTTP routes, one module per group, each with its own `router()`.

pub mod account;
pub mod auth;
pub mod health;
pub mod metrics;
pub mod status;
pub mod status_operator;
pub mod status_ops;
pub mod status_webhooks;
pub mod wisdom;

use std::sync::Arc;

use axum::{middleware, Router};

use crate::{
    error::AppError,
    rate_limit::{self, RateLimiter},
    state::AppState,
};

/// Everything under `/api`; unknown API paths answer 404 JSON, never the app's HTML.
/// Sign-in and wisdom routes are rate-limited per client IP by `rate_limiter`.
pub fn api_router(rate_limiter: Arc<RateLimiter>) -> Router<AppState> {
    let limited = Router::new()
        .nest("/auth", auth::router().merge(account::router()))
        .merge(wisdom::router())
        .merge(status_ops::api_router())
        .merge(status_webhooks::api_router())
        .route_layer(middleware::from_fn_with_state(
            rate_limiter,
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

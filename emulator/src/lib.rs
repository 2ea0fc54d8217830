//! The local identity emulator: a development identity provider inside the server that speaks the
//! hosted provider's HTTP contract (`docs/identity.md`), so the real client SDK works against it
//! with `baseUrl` set to this server's origin.
//!
//! On only when no external identity provider is configured (`IDENTITY_BASE_URL` unset); otherwise
//! every route here answers 404. The server's `SessionVerifier` is then built from the emulator's
//! own keys ([`Emulator::jwks`]) instead of fetching them over HTTP from itself.

mod api;
pub mod error;
pub mod grants;
pub mod keys;
pub mod keystore;
mod page;
mod state;
pub mod tokens;
pub mod users;
#[cfg(test)]
mod verify_tests;

use std::sync::Arc;

use axum::{
    extract::FromRef,
    middleware,
    routing::{any, get, post},
    Router,
};

pub use self::state::{provider_name, Emu, Emulator, PAGE_PREFIX};
use mg_platform::{db::Database, rate_limit::RateLimiter};

/// The providers the product offers, with the names people know them by (shared with the app's
/// login modal through `mg-domain`).
pub use mg_domain::PROVIDERS;

/// Every emulator route. The calls that start, complete or renew a sign-in (authorize, the page's
/// form, exchange, refresh, try-refresh) share the per-client rate limit of `/api/auth/*`; keys,
/// me and logout do not.
pub fn router<S>(rate_limiter: Arc<RateLimiter>) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Option<Arc<Emulator>>: FromRef<S>,
    Database: FromRef<S>,
{
    let limited = Router::new()
        .route("/v1/auth/oauth/authorize", post(api::start_oauth))
        .route("/v1/auth/oauth/exchange", post(api::exchange_code))
        .route("/v1/auth/refresh", post(api::refresh_session))
        .route("/v1/auth/try-refresh", post(api::try_refresh_session))
        .route(
            &format!("{PAGE_PREFIX}/{{provider}}"),
            post(page::continue_sign_in),
        )
        .route_layer(middleware::from_fn_with_state(
            rate_limiter,
            limit_like_the_provider,
        ));
    Router::new()
        .route("/v2/keys/{project_id}", get(api::get_keys))
        .route("/v1/auth/logout", post(api::logout))
        .route("/v1/auth/logoutall", post(api::logout_all))
        .route("/v1/auth/me", get(api::get_me))
        .route(
            &format!("{PAGE_PREFIX}/{{provider}}"),
            get(page::show_provider_page),
        )
        // Unknown calls answer JSON (the SDK parses every body), never the app's HTML.
        .route("/v1/{*rest}", any(api::unknown_call))
        .route("/v2/{*rest}", any(api::unknown_call))
        .merge(limited)
        .method_not_allowed_fallback(api::method_not_allowed)
}

/// The per-client limit of `/api/auth/*` ([`mg_platform::rate_limit::limit_by_ip`]), its refusal
/// in the provider's error shape (which the SDK parses), `Retry-After` kept.
async fn limit_like_the_provider(
    limiter: axum::extract::State<Arc<RateLimiter>>,
    request: axum::extract::Request,
    next: middleware::Next,
) -> axum::response::Response {
    use axum::{http::header::RETRY_AFTER, response::IntoResponse};
    let answer = mg_platform::rate_limit::limit_by_ip(limiter, request, next).await;
    if answer.status() != axum::http::StatusCode::TOO_MANY_REQUESTS {
        return answer;
    }
    let mut refused = error::EmulatorError::rate_limited().into_response();
    if let Some(wait) = answer.headers().get(RETRY_AFTER) {
        refused.headers_mut().insert(RETRY_AFTER, wait.clone());
    }
    refused
}

/// Whether `path` is one of the emulator's (its errors then take the emulator's shape).
pub fn is_emulator_path(path: &str) -> bool {
    ["/v1/", "/v2/", "/emulator/"]
        .iter()
        .any(|prefix| path.starts_with(prefix))
}

/// The edge's early refusals on the emulator's paths, in its own error shape, which the identity
/// SDK reads (the edge's [`OwnRefusal`](crate::edge::frontline::OwnRefusal)).
pub fn own_refusal(
    path: &str,
    refusal: &mg_platform::error::AppError,
) -> Option<axum::response::Response> {
    use mg_platform::error::AppError;
    is_emulator_path(path).then(|| {
        axum::response::IntoResponse::into_response(match refusal {
            AppError::PayloadTooLarge => error::EmulatorError::payload_too_large(),
            AppError::BadRequest(message) => error::EmulatorError::bad_request(message.clone()),
            other => error::EmulatorError::rejected(other.status(), other.message()),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mg_platform::config::Config;

    fn emulator(origins: &[&str]) -> Emulator {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = Config::from_lookup(|_| None).expect("defaults");
        config.data_dir = dir.path().to_path_buf();
        config.allowed_origins = origins.iter().map(|o| (*o).to_owned()).collect();
        Emulator::start(&config, 3000).expect("starts")
    }

    #[test]
    fn redirects_go_only_to_allowed_origins() {
        let emulator = emulator(&["https://app.example.com"]);
        for allowed in [
            "http://localhost:3000/auth/callback",
            "http://127.0.0.1:3000/auth/callback?x=1",
            "https://app.example.com/auth/callback",
            "https://app.example.com:443/auth/callback",
        ] {
            assert!(emulator.allowed_redirect(allowed).is_some(), "{allowed}");
        }
        for refused in [
            "https://evil.example.com/auth/callback",
            "http://localhost:3001/auth/callback",
            "https://app.example.com.evil.com/",
            "http://app.example.com/auth/callback",
            "https://user@app.example.com/",
            "javascript:alert(1)",
            "//evil.example.com/x",
            "/auth/callback",
            "",
        ] {
            assert!(emulator.allowed_redirect(refused).is_none(), "{refused}");
        }
    }
}

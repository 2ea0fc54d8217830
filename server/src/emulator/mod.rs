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
pub mod tokens;

use std::sync::Arc;

use axum::{
    extract::{FromRef, FromRequestParts},
    http::request::Parts,
    middleware,
    routing::{any, get, post},
    Router,
};
use serde_json::Value;
use url::Url;

use crate::{
    config::Config,
    db::Database,
    rate_limit::{self, RateLimiter},
};
use error::EmulatorError;
use grants::Grants;
use tokens::TokenIssuer;

/// The providers the product offers, with the names people know them by (shared with the app's
/// login modal through `mg-domain`).
pub use mg_domain::PROVIDERS;

/// Where the provider pages live: `/emulator/oauth/{provider}?state=...`.
pub const PAGE_PREFIX: &str = "/emulator/oauth";

/// The emulator's state: its signing key, its short-lived grants, and where it may redirect.
#[derive(Debug)]
pub struct Emulator {
    pub issuer: TokenIssuer,
    pub grants: Grants,
    redirect_origins: Vec<String>,
}

impl Emulator {
    /// Loads (or creates) the signing key in `DATA_DIR` and allows redirects to the configured
    /// origins plus `http://localhost:{port}` and `http://127.0.0.1:{port}` (`port` as bound).
    pub fn start(config: &Config, port: u16) -> anyhow::Result<Self> {
        let project_id = config
            .effective_identity_project_id()
            .unwrap_or(crate::config::LOCAL_EMULATOR_PROJECT_ID);
        let key = keystore::load_or_create(&config.data_dir)?;
        let mut redirect_origins: Vec<String> = config
            .allowed_origins
            .iter()
            .filter_map(|origin| origin_of(origin))
            .collect();
        redirect_origins.push(format!("http://localhost:{port}"));
        redirect_origins.push(format!("http://127.0.0.1:{port}"));
        if config.identity_emulator_public {
            let banner = "!".repeat(78);
            tracing::warn!("{banner}");
            tracing::warn!(
                host = %config.host,
                "IDENTITY_EMULATOR=on: the local identity emulator runs on purpose, even on a \
                 non-loopback HOST. Anyone who reaches this server can sign in as any e-mail \
                 address. Never do this in production"
            );
            tracing::warn!("{banner}");
        }
        tracing::warn!(
            project_id,
            kid = key.kid(),
            redirect_origins = ?redirect_origins,
            "LOCAL IDENTITY EMULATOR ON: no IDENTITY_BASE_URL is set, so this server signs people \
             in itself. It is for development and tests only; set IDENTITY_BASE_URL and \
             IDENTITY_PROJECT_ID to use a real identity provider"
        );
        Ok(Self {
            issuer: TokenIssuer::new(project_id, key)?,
            grants: Grants::new(config.emulator_code_ttl),
            redirect_origins,
        })
    }

    /// The public keys, for the server's own verifier.
    pub fn jwks(&self) -> Value {
        self.issuer.jwks()
    }

    /// `url` if it is an http(s) URL on an allowed origin (no open redirect), else `None`.
    pub fn allowed_redirect(&self, url: &str) -> Option<Url> {
        let parsed = Url::parse(url).ok()?;
        if !matches!(parsed.scheme(), "http" | "https")
            || !parsed.username().is_empty()
            || parsed.password().is_some()
        {
            return None;
        }
        let origin = parsed.origin().ascii_serialization();
        self.redirect_origins.contains(&origin).then_some(parsed)
    }

    /// The origins a redirect may go to.
    pub fn redirect_origins(&self) -> &[String] {
        &self.redirect_origins
    }
}

/// `scheme://host[:port]` of `url`, default ports left out, or `None` if it is not a URL.
fn origin_of(url: &str) -> Option<String> {
    let origin = Url::parse(url).ok()?.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// The display name of a provider the emulator knows.
pub fn provider_name(provider: &str) -> Option<&'static str> {
    PROVIDERS
        .iter()
        .find(|(id, _)| *id == provider)
        .map(|(_, name)| *name)
}

/// A handler argument that is the running emulator; when it is off the request answers 404.
#[derive(Debug)]
pub struct Emu(pub Arc<Emulator>);

impl<S> FromRequestParts<S> for Emu
where
    S: Send + Sync,
    Option<Arc<Emulator>>: FromRef<S>,
{
    type Rejection = EmulatorError;

    async fn from_request_parts(_parts: &mut Parts, state: &S) -> Result<Self, EmulatorError> {
        Option::<Arc<Emulator>>::from_ref(state)
            .map(Emu)
            .ok_or_else(EmulatorError::not_found)
    }
}

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
            rate_limit::limit_by_ip,
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
    refusal: &crate::error::AppError,
) -> Option<axum::response::Response> {
    use crate::error::AppError;
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

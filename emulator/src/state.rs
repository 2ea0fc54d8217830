//! The running emulator: its signing key, its short-lived grants, where it may redirect, and the
//! handler argument that finds it (every emulator route answers 404 while it is off).

use std::sync::Arc;

use axum::{
    extract::{FromRef, FromRequestParts},
    http::request::Parts,
};
use mg_domain::PROVIDERS;
use serde_json::Value;
use url::Url;

use super::{error::EmulatorError, grants::Grants, keystore, tokens::TokenIssuer};
use mg_platform::config::Config;

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
            .unwrap_or(mg_platform::config::LOCAL_EMULATOR_PROJECT_ID);
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
            issuer: TokenIssuer::new(project_id, key)?
                .with_operators(config.status.emulator_operators.clone())
                .with_clock(config.clock.clone()),
            grants: Grants::new(config.emulator_code_ttl).with_clock(config.clock.clone()),
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
pub(super) fn origin_of(url: &str) -> Option<String> {
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

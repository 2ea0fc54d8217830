//! The application's shared state as plain data. Handlers and extractors take only the piece they
//! use (`State<Database>`, `State<Arc<SessionStore>>`, ...) through axum's `FromRef`, so no handler
//! depends on this struct or on the code that builds it (`startup.rs`); the route tables
//! (`Router<AppState>`) name it, the one state they are served with, instead of repeating each
//! piece's `FromRef` bound.

use std::sync::Arc;

use axum::extract::FromRef;

#[cfg(feature = "emulator")]
use crate::emulator::Emulator;
use crate::{
    config::Config,
    db::Database,
    identity::{sessions::SessionStore, verify::SessionVerifier},
    rate_limit::RateLimiter,
    request_metrics::Metrics,
    status::StatusService,
};

/// Everything the handlers share; cloning it clones a few pointers.
#[derive(Debug, Clone)]
pub struct AppState {
    pub db: Database,
    pub config: Arc<Config>,
    /// `None` when no identity project is known: signed-in routes then answer 503.
    pub verifier: Option<Arc<SessionVerifier>>,
    /// The local identity emulator, when no external identity provider is configured.
    #[cfg(feature = "emulator")]
    pub emulator: Option<Arc<Emulator>>,
    /// What this instance remembers of sessions: verified tokens and recorded sessions.
    pub sessions: Arc<SessionStore>,
    pub rate_limiter: Arc<RateLimiter>,
    pub metrics: Arc<Metrics>,
    /// The status checks and the status answers.
    pub status: Arc<StatusService>,
}

/// `impl FromRef<AppState> for <field type>` for each field: what `#[derive(FromRef)]` writes.
macro_rules! pieces {
    ($($field:ident: $piece:ty),+ $(,)?) => {
        $(
            impl FromRef<AppState> for $piece {
                fn from_ref(state: &AppState) -> Self {
                    state.$field.clone()
                }
            }
        )+
    };
}

pieces! {
    db: Database,
    config: Arc<Config>,
    verifier: Option<Arc<SessionVerifier>>,
    sessions: Arc<SessionStore>,
    rate_limiter: Arc<RateLimiter>,
    metrics: Arc<Metrics>,
    status: Arc<StatusService>,
}

#[cfg(feature = "emulator")]
pieces! {
    emulator: Option<Arc<Emulator>>,
}

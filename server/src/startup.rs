//! Builds the application (database, router, listener) so `main` and the tests start the same thing.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use axum::{extract::DefaultBodyLimit, Router};
use tokio::net::TcpListener;
use tower::Layer;

use crate::{
    config::{network::NetworkConfig, Config},
    db::Database,
    edge::{
        cors,
        frontline::{Frontline, FrontlineLayer},
        hardening::SecurityHeaders,
        own_errors::OwnErrors,
    },
    extract::BODY_LIMIT_BYTES,
    identity::{sessions::SessionStore, verify::SessionVerifier},
    rate_limit::RateLimiter,
    request_metrics::{Metrics, TrackLayer},
    routes, serve,
    site::static_files,
    state::AppState,
    status::StatusService,
};

/// The local identity emulator, when this build has it (the `emulator` feature); the production
/// build has none, and no value of this type exists there.
#[cfg(feature = "emulator")]
pub type EmulatorHandle = Arc<crate::emulator::Emulator>;
/// The local identity emulator, when this build has it (the `emulator` feature); the production
/// build has none, and no value of this type exists there.
#[cfg(not(feature = "emulator"))]
pub type EmulatorHandle = std::convert::Infallible;

/// The longest a request may take before it is answered 408 JSON.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The state for `config` on `db`. `emulator` must be given exactly when the configuration asks
/// for it (no `IDENTITY_BASE_URL`): the server then trusts the emulator's own keys.
pub fn build_state(db: Database, config: Config, emulator: Option<EmulatorHandle>) -> AppState {
    let verifier = match (
        &emulator,
        &config.identity_project_id,
        &config.identity_base_url,
    ) {
        #[cfg(feature = "emulator")]
        (Some(emulator), _, _) => Some(Arc::new(
            SessionVerifier::with_fixed_keys(emulator.issuer.project_id(), &emulator.jwks())
                .with_clock(config.clock.clone()),
        )),
        (None, Some(project), Some(base)) => Some(Arc::new(
            SessionVerifier::new(project, base)
                .with_audience(config.identity_audience.clone())
                .with_clock(config.clock.clone()),
        )),
        _ => {
            tracing::warn!(
                "IDENTITY_BASE_URL is set without IDENTITY_PROJECT_ID: \
                 signed-in routes answer 503"
            );
            None
        }
    };
    AppState {
        status: Arc::new(StatusService::new(
            db.clone(),
            config.status.clone(),
            &config.public_url,
        )),
        db,
        rate_limiter: Arc::new(RateLimiter::per_minute(
            config.rate_limit_per_minute,
            config.network.rate_limit_max_clients,
        )),
        config: Arc::new(config),
        verifier,
        #[cfg(feature = "emulator")]
        emulator,
        sessions: Arc::new(SessionStore::default()),
        metrics: Arc::new(Metrics::default()),
    }
}

/// A bound, ready-to-run server.
pub struct Application {
    listener: TcpListener,
    service: HttpService,
    status: Arc<StatusService>,
    limits: NetworkConfig,
    own_errors: Arc<OwnErrors>,
}

impl std::fmt::Debug for Application {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Application")
            .field("listener", &self.listener)
            .finish_non_exhaustive()
    }
}

impl Application {
    /// Connects the database, runs migrations and binds the port (0 picks a free one).
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let config = config
            .checked()?
            .runnable_with(cfg!(feature = "emulator"))?;
        let sqlite = crate::db::Backend::of_url(&config.database_url) == crate::db::Backend::Sqlite;
        if sqlite || config.identity_emulator_enabled() {
            crate::db::files::private_dir(&config.data_dir).map_err(|error| {
                anyhow::anyhow!(
                    "DATA_DIR {} cannot be made private: {error}",
                    config.data_dir.display()
                )
            })?;
        }
        let db = Database::connect(&config.database_url, config.database_max_connections)
            .await?
            .with_clock(config.clock.clone());
        let listener = TcpListener::bind(SocketAddr::new(config.host, config.port)).await?;
        tracing::info!(
            address = %listener.local_addr()?,
            database = db.backend().name(),
            static_dir = %config.static_dir.display(),
            "mg-server ready"
        );
        #[cfg(feature = "emulator")]
        let emulator = if config.identity_emulator_enabled() {
            let port = listener.local_addr()?.port();
            Some(Arc::new(crate::emulator::Emulator::start(&config, port)?))
        } else {
            None
        };
        #[cfg(not(feature = "emulator"))]
        let emulator = None;
        let limits = config.network.clone();
        let own_errors = Arc::new(OwnErrors::new(&SecurityHeaders::for_app(
            &config.static_dir,
            config.identity_base_url.as_deref(),
        )));
        let state = build_state(db, config, emulator);
        Ok(Self {
            listener,
            status: state.status.clone(),
            service: app(state),
            limits,
            own_errors,
        })
    }

    /// The port actually bound.
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// The status checker, so tests can run rounds of checks at chosen times.
    pub fn status(&self) -> Arc<StatusService> {
        self.status.clone()
    }

    /// Serves until Ctrl-C or SIGTERM, letting in-flight requests finish; connections are capped
    /// and timed out as `config.network` says (`serve.rs`). The status checks and the webhooks'
    /// deliveries (`status::webhooks`) run meanwhile, and
    /// stop as soon as stopping begins (so a restart's successor never sees a check of this
    /// process after its own start). Ends with an error, after the same graceful stop, when
    /// another live instance turns out to check this database under this `INSTANCE_ID` and this
    /// process started while it did (`status::duplicates`): the one sentence `main` prints.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let status = self.status.clone();
        let checks = status
            .config()
            .scheduler
            .then(|| tokio::spawn(status.clone().run_schedule()));
        let stop_checks = checks.as_ref().map(tokio::task::JoinHandle::abort_handle);
        let webhooks = status
            .config()
            .webhooks_worker
            .then(|| tokio::spawn(status.webhooks.clone().run()));
        let stop_webhooks = webhooks.as_ref().map(tokio::task::JoinHandle::abort_handle);
        let refusal = status.clone();
        // Listening for the signals starts here, before the first connection: a SIGTERM that
        // arrives while the accept loop is busy is a graceful stop, never the default kill.
        let signal = shutdown_signal();
        let stop = async move {
            tokio::select! {
                () = signal => {}
                refusal = refusal.refused() => {
                    tracing::error!(%refusal, "shutting down: finishing in-flight requests");
                }
            }
            if let Some(checks) = stop_checks {
                checks.abort();
            }
            if let Some(webhooks) = stop_webhooks {
                webhooks.abort();
            }
        };
        let served = serve::serve(
            self.listener,
            self.service,
            &self.limits,
            self.own_errors,
            stop,
        )
        .await;
        if let Some(checks) = checks {
            checks.abort();
        }
        if let Some(webhooks) = webhooks {
            webhooks.abort();
        }
        served?;
        match status.refusal() {
            Some(refusal) => Err(std::io::Error::other(refusal)),
            None => Ok(()),
        }
    }
}

/// The whole HTTP surface for a given state.
///
/// The frontline (request id, span, CORS, security headers, JSON errors) and the timeout wrap the
/// router as a whole rather than being layered onto each route, so a request does not clone them
/// on its way in. Compression sits on the routes that answer text worth compressing (the app's
/// files, `/metrics`), not on every small JSON answer.
pub fn app(state: AppState) -> HttpService {
    let static_dir = state.config.static_dir.clone();
    let security = SecurityHeaders::for_app(&static_dir, state.config.identity_base_url.as_deref());
    let cors = cors::Cors::new(&state.config.allowed_origins);
    let site = static_files::router(&state.config);
    let trusted_proxies = state.config.network.trusted_proxies.clone();
    let router = Router::new().merge(routes::health::router());
    #[cfg(feature = "emulator")]
    let router = router.merge(
        crate::emulator::router(state.rate_limiter.clone())
            .layer(DefaultBodyLimit::max(BODY_LIMIT_BYTES)),
    );
    let router = router
        .merge(routes::metrics::router())
        .merge(routes::status::router())
        // The request body cap sits on the routes that read a body (the API's and the emulator's),
        // not on every route: a layer here wraps each route it covers.
        .nest(
            "/api",
            routes::api_router(state.rate_limiter.clone())
                .layer(DefaultBodyLimit::max(BODY_LIMIT_BYTES)),
        )
        // `nest` does not cover the bare prefix: keep `/api` and `/api/` JSON too.
        .route("/api", axum::routing::any(routes::api_not_found))
        .route("/api/", axum::routing::any(routes::api_not_found))
        // Inside the router, so the matched route pattern is known.
        .layer(TrackLayer::new(state.metrics.clone()))
        .with_state(state)
        .fallback_service(site);
    // Outermost: every log line of a request carries its id, and the headers, the JSON error
    // shape and the request's time limit apply to everything below.
    let frontline = FrontlineLayer::new(security, cors, trusted_proxies, REQUEST_TIMEOUT);
    // The emulator answers its own paths' errors in its provider's shape.
    #[cfg(feature = "emulator")]
    let frontline = frontline.with_own_refusal(crate::emulator::own_refusal);
    frontline.layer(router)
}

/// The application as one service: the router inside the frontline.
pub type HttpService = Frontline<Router>;

fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    // Registered now (not when the future is first polled), so the signals are caught from here on.
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |listener: std::io::Result<tokio::signal::unix::Signal>,
                        name: &'static str| async move {
                match listener {
                    Ok(mut listener) => {
                        listener.recv().await;
                    }
                    Err(error) => {
                        tracing::error!(%error, "cannot listen for {name}");
                        std::future::pending::<()>().await;
                    }
                }
            };
            tokio::select! {
                () = wait(interrupt, "Ctrl-C") => {},
                () = wait(terminate, "SIGTERM") => {},
            }
        }
        #[cfg(not(unix))]
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
        tracing::info!("shutting down: finishing in-flight requests");
    }
}

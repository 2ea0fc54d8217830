//! Builds the application (database, router, listener) so `main` and the tests start the same thing.

use std::{net::SocketAddr, sync::Arc};

use axum::Router;
use tokio::net::TcpListener;
use tower_http::trace::TraceLayer;

use crate::{config::Config, db::Database, routes, static_files};

/// Shared, cheaply clonable state handed to every handler.
#[derive(Debug, Clone)]
pub struct AppState {
    pub db: Database,
    pub config: Arc<Config>,
}

/// A bound, ready-to-run server.
#[derive(Debug)]
pub struct Application {
    listener: TcpListener,
    router: Router,
}

impl Application {
    /// Connects the database, runs migrations and binds the port (0 picks a free one).
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let db = Database::connect(&config.database_url).await?;
        let listener = TcpListener::bind(SocketAddr::new(config.host, config.port)).await?;
        tracing::info!(
            address = %listener.local_addr()?,
            database = db.backend().name(),
            static_dir = %config.static_dir.display(),
            "mg-server ready"
        );
        let state = AppState {
            db,
            config: Arc::new(config),
        };
        Ok(Self {
            listener,
            router: app(state),
        })
    }

    /// The port actually bound.
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// Serves until Ctrl-C or SIGTERM, letting in-flight requests finish.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        axum::serve(
            self.listener,
            self.router
                .into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown_signal())
        .await
    }
}

/// The whole HTTP surface for a given state.
pub fn app(state: AppState) -> Router {
    let static_dir = state.config.static_dir.clone();
    Router::new()
        .merge(routes::health::router())
        .nest("/api", routes::api_router())
        // `nest` does not cover the bare prefix: keep `/api` and `/api/` JSON too.
        .route("/api", axum::routing::any(routes::api_not_found))
        .route("/api/", axum::routing::any(routes::api_not_found))
        .with_state(state)
        .fallback_service(static_files::router(&static_dir))
        .layer(TraceLayer::new_for_http())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing in-flight requests");
}

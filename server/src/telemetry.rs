//! Structured logging through `tracing`, filtered by `RUST_LOG`.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. Safe to call once per process.
pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info,sqlx=warn"));
    tracing_subscriber::fmt().with_env_filter(filter).init();
}

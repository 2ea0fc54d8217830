//! What every wing of the mg web server stands on: the configuration, the database (one pool, the
//! queries of the users, sessions, account and Wisdom, the migrations), session-token verification
//! and the session store, precomputed answers, request extraction, rate limits, metrics, logging, and
//! the leaves they share (the one error type, hex, HTML escaping, time, validated inputs, the
//! client's address). The status service (`mg-status`), the identity emulator (`mg-emulator`) and
//! the HTTP shell (`mg-server`) stand on it; it knows none of them, and the compiler keeps it so.

pub mod config;
pub mod db;
pub mod domain;
pub mod error;
pub mod extract;
pub mod forwarded;
pub mod hex;
pub mod identity;
pub mod precomputed;
pub mod random;
pub mod rate_limit;
pub mod request_metrics;
pub mod telemetry;
pub mod time;

/// HTML escaping is `mg-domain`'s: it does no I/O, so the status answers' formats
/// (`mg-status-formats`) share it without standing on this floor.
pub use mg_domain::html;

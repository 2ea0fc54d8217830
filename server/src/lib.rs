//! The mg web server as a library, so integration tests drive the real application.

pub mod app_routes;
pub mod config;
pub mod cors;
pub mod db;
pub mod domain;
pub mod error;
pub mod extract;
pub mod forwarded;
pub mod frontline;
pub mod hardening;
pub mod identity;
pub mod metrics;
pub mod network;
pub mod rate_limit;
pub mod routes;
pub mod serve;
pub mod startup;
pub mod static_files;
pub mod status;
pub mod telemetry;
pub mod time;

//! The mg web server as a library, so integration tests drive the real application.

pub mod config;
pub mod db;
pub mod error;
pub mod routes;
pub mod startup;
pub mod static_files;
pub mod telemetry;

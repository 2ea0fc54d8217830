//! The mg web server as a library, so integration tests drive the real application.

pub mod config;
pub mod db;
pub mod domain;
pub mod edge;
#[cfg(feature = "emulator")]
pub mod emulator;
pub mod error;
pub mod extract;
#[cfg(test)]
mod file_cycles;
pub mod forwarded;
pub mod hex;
pub mod html;
#[cfg(test)]
mod http_contract;
pub mod identity;
#[cfg(test)]
mod layers;
pub mod precomputed;
pub mod rate_limit;
pub mod request_metrics;
pub mod routes;
pub mod serve;
pub mod site;
pub mod startup;
pub mod state;
pub mod status;
pub mod telemetry;
pub mod time;

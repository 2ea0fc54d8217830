//! The mg web server's HTTP shell, as a library so integration tests drive the real application:
//! the edge every request passes, the routes (extract, call a service, answer), the built app's
//! pages, the accept loop and start-up. The floors it stands on are crates of their own
//! (docs/architecture.md): `mg-platform` (configuration, database, sessions, the one error type),
//! `mg-status` (the status service) and, in development builds only, `mg-emulator`.

// The floors under their old names, so a path reads the same in the shell and its tests.
#[cfg(feature = "emulator")]
pub use mg_emulator as emulator;
pub use mg_platform::{
    config, db, domain, error, extract, forwarded, hex, html, identity, precomputed, rate_limit,
    request_metrics, telemetry, time,
};
pub use mg_status as status;

pub mod edge;
#[cfg(test)]
mod file_cycles;
#[cfg(test)]
mod http_contract;
pub mod routes;
pub mod serve;
pub mod site;
#[cfg(test)]
mod source_files;
pub mod startup;
pub mod state;

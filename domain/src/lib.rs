//! The rules the server and the browser (core-wasm) must agree on, in one place: what a display name
//! may be, which identity providers the product offers, the deployment flags' defaults, how a
//! deployment's type and flags are read and reconciled, the status answers' bodies, and how an
//! uptime is written. One leaf is the server's alone: text escaped into the HTML and XML it writes
//! (`html`), here so that the status answers' formats (`mg-status-formats`) need no floor above.
//! Plain Rust with no I/O, so both a native server and a size-conscious `.wasm` can depend on it.

pub mod calendar;
pub mod component_status;
mod deployment;
mod display_name;
pub mod figures;
mod flags;
pub mod html;
pub mod notices;
mod providers;
pub mod status;
pub mod visible_text;
pub mod webhooks;
pub mod words;

pub use deployment::{
    effective_deployment_id, DeploymentType, ResolvedDeployment, DEFAULT_DEPLOYMENT_ID,
};
pub use display_name::{
    DisplayName, InvalidName, MAX_NAME_CHARS, NAME_BIDI_CONTROL, NAME_CONTROL_CHARACTERS,
    NAME_EMPTY, NAME_NOTHING_VISIBLE, NAME_TOO_LONG,
};
pub use flags::{DeploymentFlags, FLAG_DEFAULTS, FLAG_NAMES};
pub use providers::{provider_label, FALLBACK_PROVIDER, PROVIDERS};

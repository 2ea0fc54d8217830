//! The JavaScript facade: thin `#[wasm_bindgen]` classes over the plain-Rust modules.
//!
//! Two wasm packages are built from this one crate, chosen by cargo feature, so the decorative
//! graphics never weigh on a page's first load:
//! - `machines` (default): the state machines, timers and flag parsing every page's logic runs on
//!   (`pkg/`, imported by the app as `mg-core`);
//! - `graphics`: the widgets' geometry for the WebGL2 canvases, loaded after first paint
//!   (`pkg/graphics/`, imported as `mg-core-graphics`).
//!
//! The plain-Rust modules are always compiled (host tests and benches use them all); only what is
//! exported to JavaScript, and so kept in a `.wasm`, depends on the features.

#[cfg(feature = "machines")]
mod account;
#[cfg(feature = "machines")]
mod convert;
#[cfg(feature = "machines")]
mod demo;
#[cfg(feature = "graphics")]
mod graphics;
#[cfg(feature = "machines")]
mod status;
#[cfg(feature = "machines")]
mod theme;
#[cfg(feature = "machines")]
mod types;

#[cfg(feature = "machines")]
pub use account::{AuthCallbackMachine, LoginMachine, NameEditMachine};
#[cfg(feature = "machines")]
pub use demo::TelekinesisCounters;
#[cfg(feature = "graphics")]
pub use graphics::{
    vertex_stride, wasm_memory, HelixWidget, HypercubeWidget, IcosahedronWidget, MoleculeWidget,
};
#[cfg(feature = "machines")]
pub use status::{api_error_message, Deployment, HealthMachine, WisdomMachine};
#[cfg(feature = "machines")]
pub use theme::ThemeMachine;

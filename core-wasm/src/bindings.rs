//! The JavaScript facade: thin `#[wasm_bindgen]` classes over the plain-Rust modules, one file
//! per machine file (`src/wisdom.rs` is exported by `src/bindings/wisdom.rs`).
//!
//! Three `.wasm` files are built from this one crate, chosen by cargo feature, so the decorative
//! graphics and the status page never weigh on every page's first load; all ship in the npm package
//! `mg-core` (`make package`, core-wasm/npm/):
//! - `machines` (default): the state machines, timers and flag parsing every page's logic runs on
//!   (imported as `mg-core`);
//! - `status`: the status page's machine (imported as `mg-core/status` by /apotheosis only): its
//!   answers' readers and its wording are the size of the rest of the machines together, which no
//!   other page should download;
//! - `graphics`: the widgets' geometry for the WebGL2 canvases, loaded after first paint
//!   (imported as `mg-core/graphics`; built again with `simd128` as `mg-core/graphics/simd`), with
//!   the batched kernels the bench page times.
//!
//! The plain-Rust modules are always compiled (host tests and benches use them all); only what is
//! exported to JavaScript, and so kept in a `.wasm`, depends on the features. The TypeScript types
//! of the values that cross are generated from the Rust types (`#[derive(Tsify)]` in the plain
//! modules, under the `machines` feature).

#[cfg(feature = "machines")]
mod api;
#[cfg(feature = "machines")]
mod auth_callback;
#[cfg(any(feature = "machines", feature = "status"))]
mod convert;
#[cfg(feature = "machines")]
mod deployment;
#[cfg(feature = "graphics")]
mod graphics;
#[cfg(feature = "machines")]
mod health;
#[cfg(any(feature = "machines", feature = "status"))]
mod js_value;
#[cfg(feature = "graphics")]
mod kernels;
#[cfg(feature = "machines")]
mod login;
#[cfg(feature = "machines")]
mod name_edit;
#[cfg(feature = "status")]
mod status_page;
#[cfg(feature = "machines")]
mod telekinesis;
#[cfg(feature = "machines")]
mod theme;
#[cfg(feature = "machines")]
mod wisdom;

#[cfg(feature = "machines")]
pub use api::api_error_message;
#[cfg(feature = "machines")]
pub use auth_callback::AuthCallbackMachine;
#[cfg(feature = "machines")]
pub use deployment::Deployment;
#[cfg(feature = "graphics")]
pub use graphics::{
    vertex_stride, wasm_memory, HelixWidget, HypercubeWidget, IcosahedronWidget, MoleculeWidget,
};
#[cfg(feature = "machines")]
pub use health::{format_uptime, HealthMachine};
#[cfg(feature = "graphics")]
pub use kernels::{
    mat4_mul, mat4_mul_batch_copy, mat4_mul_vec4, mat4_mul_vec4_batch_copy, quat_rotate,
    quat_rotate_batch_copy, KernelBuffers,
};
#[cfg(feature = "machines")]
pub use login::{provider_label, LoginMachine};
#[cfg(feature = "machines")]
pub use name_edit::{max_name_chars, NameEditMachine};
#[cfg(feature = "status")]
pub use status_page::StatusPageMachine;
#[cfg(feature = "machines")]
pub use telekinesis::TelekinesisCounters;
#[cfg(feature = "machines")]
pub use theme::ThemeMachine;
#[cfg(feature = "machines")]
pub use wisdom::WisdomMachine;

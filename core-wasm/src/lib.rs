//! Client logic of the mg web app: plain-Rust state machines with a thin wasm-bindgen facade.
//!
//! Every module except [`bindings`] is ordinary Rust with no wasm imports, so it is tested with
//! `cargo test` on the host; `bindings` wraps it for JavaScript and is tested in headless Chromium
//! (`cargo test --target wasm32-unknown-unknown` through `wasm-bindgen-test-runner`).

pub mod api;
pub mod auth_callback;
pub mod bindings;
pub mod deployment;
pub mod graphics;
pub mod health;
mod input;
pub mod login;
pub mod name_edit;
pub mod status_page;
pub mod telekinesis;
mod text;
pub mod theme;
pub mod wisdom;

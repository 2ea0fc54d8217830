//! The login modal (`src/login.rs`) for JavaScript.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::convert::to_js;
use crate::login::{self, LoginProvider, LoginSnapshot};

/// The name people know an identity provider by ('GitHub' for `github`, any case); the id itself
/// when it is not one of the six.
#[wasm_bindgen(js_name = providerLabel)]
pub fn provider_label(id: &str) -> String {
    login::provider_label(id).to_owned()
}

/// The login modal: one provider loading at a time, the others disabled.
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct LoginMachine {
    inner: login::LoginMachine,
}

#[wasm_bindgen]
impl LoginMachine {
    #[wasm_bindgen(constructor)]
    pub fn new() -> LoginMachine {
        LoginMachine::default()
    }

    /// The six providers in display order, `{ id, label }`.
    pub fn providers() -> Vec<Ts<LoginProvider>> {
        login::providers()
            .map(|provider| to_js(&provider))
            .collect()
    }

    /// A provider was clicked; true when the caller must start its OAuth flow.
    pub fn choose(&mut self, provider: &str) -> bool {
        self.inner.choose(provider)
    }

    /// The start call answered: returns the URL to send the browser to, or undefined (error shown).
    pub fn started(&mut self, ok: bool, url: Option<String>) -> Option<String> {
        self.inner.started(ok, url.as_deref())
    }

    /// The start call threw.
    #[wasm_bindgen(js_name = startThrew)]
    pub fn start_threw(&mut self) {
        self.inner.start_threw();
    }

    /// True when `provider` must be disabled (another one is loading).
    #[wasm_bindgen(js_name = isDisabled)]
    pub fn is_disabled(&self, provider: &str) -> bool {
        self.inner.is_disabled(provider)
    }

    pub fn snapshot(&self) -> Ts<LoginSnapshot> {
        to_js(self.inner.snapshot())
    }
}

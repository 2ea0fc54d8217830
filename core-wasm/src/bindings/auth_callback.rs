//! The /auth/callback page (`src/auth_callback.rs`) for JavaScript.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::convert::{deadline, from_js, ms, opt_to_js, to_js};
use crate::auth_callback::{self, CallbackEffect, CallbackSnapshot, ExchangeOutcome};

/// The /auth/callback page. Every event returns the next effect for the caller to perform
/// (`exchange`, `readUser`, `updateProfile`, `navigate`) or undefined.
#[wasm_bindgen]
#[derive(Debug)]
pub struct AuthCallbackMachine {
    inner: auth_callback::AuthCallbackMachine,
}

#[wasm_bindgen]
impl AuthCallbackMachine {
    /// `onLocalhost`: show help instead of redirecting after an unrecognised exchange error.
    #[wasm_bindgen(constructor)]
    pub fn new(on_localhost: bool) -> AuthCallbackMachine {
        AuthCallbackMachine {
            inner: auth_callback::AuthCallbackMachine::new(on_localhost),
        }
    }

    /// The page opened with the query's `code`, `error` and `state` parameters; `expectedState` is
    /// the state this browser stored when it started the sign-in (undefined if none). The code is
    /// exchanged only when the two states are equal.
    pub fn start(
        &mut self,
        code: Option<String>,
        error: Option<String>,
        state: Option<String>,
        expected_state: Option<String>,
        now_ms: f64,
    ) -> Option<Ts<CallbackEffect>> {
        opt_to_js(self.inner.start(
            code.as_deref(),
            error.as_deref(),
            state.as_deref(),
            expected_state.as_deref(),
            ms(now_ms),
        ))
    }

    /// The SDK's exchange answered (`{ ok, user, errorCode, message }`).
    pub fn exchanged(
        &mut self,
        outcome: Ts<ExchangeOutcome>,
        now_ms: f64,
    ) -> Option<Ts<CallbackEffect>> {
        opt_to_js(self.inner.exchanged(from_js(outcome), ms(now_ms)))
    }

    /// The exchange threw `message`.
    #[wasm_bindgen(js_name = exchangeThrew)]
    pub fn exchange_threw(&mut self, message: &str, now_ms: f64) {
        self.inner.exchange_threw(message, ms(now_ms));
    }

    /// The current user was read; `storedName` is the API's name (undefined or empty: none).
    #[wasm_bindgen(js_name = userRead)]
    pub fn user_read(&mut self, stored_name: Option<String>) -> Option<Ts<CallbackEffect>> {
        opt_to_js(self.inner.user_read(stored_name.as_deref()))
    }

    /// The profile update succeeded.
    #[wasm_bindgen(js_name = profileUpdated)]
    pub fn profile_updated(&mut self) -> Option<Ts<CallbackEffect>> {
        opt_to_js(self.inner.profile_updated())
    }

    /// Reading the user or updating the profile failed with `message`.
    #[wasm_bindgen(js_name = stepFailed)]
    pub fn step_failed(&mut self, message: &str, now_ms: f64) {
        self.inner.step_failed(message, ms(now_ms));
    }

    /// Time passes: may time out, or return a due `navigate` effect.
    pub fn tick(&mut self, now_ms: f64) -> Option<Ts<CallbackEffect>> {
        opt_to_js(self.inner.tick(ms(now_ms)))
    }

    pub fn snapshot(&self) -> Ts<CallbackSnapshot> {
        to_js(self.inner.snapshot())
    }

    /// When to call `tick` next, or undefined.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }
}

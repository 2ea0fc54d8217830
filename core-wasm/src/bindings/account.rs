//! Classes for signing in and the dashboard: login providers, the OAuth callback, the name editor.

use wasm_bindgen::prelude::*;

use super::convert::{deadline, from_js, ms, opt_to_js, to_js};
use crate::{auth_callback, login, name_edit};

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
    #[wasm_bindgen(unchecked_return_type = "LoginProvider[]")]
    pub fn providers() -> JsValue {
        to_js(&login::ProviderList)
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

    #[wasm_bindgen(unchecked_return_type = "LoginSnapshot")]
    pub fn snapshot(&self) -> JsValue {
        to_js(self.inner.snapshot())
    }
}

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

    /// The page opened with the query's `code` and `error` parameters.
    #[wasm_bindgen(unchecked_return_type = "CallbackEffect | undefined")]
    pub fn start(&mut self, code: Option<String>, error: Option<String>, now_ms: f64) -> JsValue {
        opt_to_js(
            self.inner
                .start(code.as_deref(), error.as_deref(), ms(now_ms)),
        )
    }

    /// The SDK's exchange answered (`{ ok, user, errorCode, message }`).
    #[wasm_bindgen(unchecked_return_type = "CallbackEffect | undefined")]
    pub fn exchanged(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ExchangeOutcome")] outcome: JsValue,
        now_ms: f64,
    ) -> JsValue {
        let outcome = auth_callback::ExchangeOutcome::from_json(&from_js(&outcome));
        opt_to_js(self.inner.exchanged(outcome, ms(now_ms)))
    }

    /// The exchange threw `message`.
    #[wasm_bindgen(js_name = exchangeThrew)]
    pub fn exchange_threw(&mut self, message: &str, now_ms: f64) {
        self.inner.exchange_threw(message, ms(now_ms));
    }

    /// The current user was read; `storedName` is the API's name (undefined or empty: none).
    #[wasm_bindgen(js_name = userRead, unchecked_return_type = "CallbackEffect | undefined")]
    pub fn user_read(&mut self, stored_name: Option<String>) -> JsValue {
        opt_to_js(self.inner.user_read(stored_name.as_deref()))
    }

    /// The profile update succeeded.
    #[wasm_bindgen(js_name = profileUpdated, unchecked_return_type = "CallbackEffect | undefined")]
    pub fn profile_updated(&mut self) -> JsValue {
        opt_to_js(self.inner.profile_updated())
    }

    /// Reading the user or updating the profile failed with `message`.
    #[wasm_bindgen(js_name = stepFailed)]
    pub fn step_failed(&mut self, message: &str, now_ms: f64) {
        self.inner.step_failed(message, ms(now_ms));
    }

    /// Time passes: may time out, or return a due `navigate` effect.
    #[wasm_bindgen(unchecked_return_type = "CallbackEffect | undefined")]
    pub fn tick(&mut self, now_ms: f64) -> JsValue {
        opt_to_js(self.inner.tick(ms(now_ms)))
    }

    #[wasm_bindgen(unchecked_return_type = "CallbackSnapshot")]
    pub fn snapshot(&self) -> JsValue {
        to_js(self.inner.snapshot())
    }

    /// When to call `tick` next, or undefined.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }
}

/// The dashboard's display-name editor. `save`/`key` return the trimmed name to send, or undefined.
#[wasm_bindgen]
#[derive(Debug)]
pub struct NameEditMachine {
    inner: name_edit::NameEditMachine,
}

#[wasm_bindgen]
impl NameEditMachine {
    /// Starts in view mode showing `name`.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str) -> NameEditMachine {
        NameEditMachine {
            inner: name_edit::NameEditMachine::new(name),
        }
    }

    /// The stored name became known or changed (ignored while saving).
    #[wasm_bindgen(js_name = setName)]
    pub fn set_name(&mut self, name: &str) {
        self.inner.set_name(name);
    }

    /// Opens the input with the stored name.
    pub fn edit(&mut self) {
        self.inner.edit();
    }

    /// The input's text changed.
    pub fn input(&mut self, text: &str) {
        self.inner.input(text);
    }

    /// Closes the input without saving.
    pub fn cancel(&mut self) {
        self.inner.cancel();
    }

    /// Saves: the trimmed name to send, or undefined ('Name cannot be empty' is then shown for 5 s).
    pub fn save(&mut self, now_ms: f64) -> Option<String> {
        self.inner.save(ms(now_ms))
    }

    /// A key in the input (`KeyboardEvent.key`): Enter saves (returns the name to send), Escape cancels.
    pub fn key(&mut self, key: &str, now_ms: f64) -> Option<String> {
        self.inner.key(key, ms(now_ms))
    }

    /// The server stored `name`: 'Name updated successfully' for 3 s.
    pub fn saved(&mut self, name: &str, now_ms: f64) {
        self.inner.saved(name, ms(now_ms));
    }

    /// The update failed: `message`, or 'Failed to update name', for 5 s.
    pub fn failed(&mut self, message: Option<String>, now_ms: f64) {
        self.inner.failed(message.as_deref(), ms(now_ms));
    }

    /// Time passes; true when the message was cleared.
    pub fn tick(&mut self, now_ms: f64) -> bool {
        self.inner.tick(ms(now_ms))
    }

    #[wasm_bindgen(unchecked_return_type = "NameEditSnapshot")]
    pub fn snapshot(&self) -> JsValue {
        to_js(self.inner.snapshot())
    }

    /// When to call `tick` next, or undefined.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }
}

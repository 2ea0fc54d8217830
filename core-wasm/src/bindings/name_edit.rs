//! The dashboard's display-name editor (`src/name_edit.rs`) for JavaScript.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::convert::{deadline, ms, to_js};
use crate::name_edit::{self, NameEditSnapshot};

/// The most characters a display name may have (the server refuses longer ones).
#[wasm_bindgen(js_name = maxNameChars)]
pub fn max_name_chars() -> u32 {
    mg_domain::MAX_NAME_CHARS as u32
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

    pub fn snapshot(&self) -> Ts<NameEditSnapshot> {
        to_js(self.inner.snapshot())
    }

    /// When to call `tick` next, or undefined.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }
}

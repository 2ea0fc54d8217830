//! The site's colour theme (`src/theme.rs`) for JavaScript.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::convert::to_js;
use crate::theme::{self, Theme};

/// The site's colour theme ('cosmic' or 'void'). Create it from the stored preference,
/// call `toggle()` on a click, and persist `theme` after every change.
#[wasm_bindgen]
#[derive(Debug)]
pub struct ThemeMachine {
    inner: theme::ThemeMachine,
}

#[wasm_bindgen]
impl ThemeMachine {
    /// Starts from the value stored under the `theme` key; unknown or missing values read as 'cosmic'.
    #[wasm_bindgen(constructor)]
    pub fn new(stored: Option<String>) -> ThemeMachine {
        ThemeMachine {
            inner: theme::ThemeMachine::new(stored.as_deref()),
        }
    }

    /// The current theme: 'cosmic' or 'void'.
    #[wasm_bindgen(getter)]
    pub fn theme(&self) -> Ts<Theme> {
        to_js(&self.inner.theme())
    }

    /// Switches cosmic to void and anything else to cosmic; returns the new theme.
    pub fn toggle(&mut self) -> Ts<Theme> {
        to_js(&self.inner.toggle())
    }

    /// Adopts a value written elsewhere (a `storage` event from another tab); returns the theme.
    pub fn sync(&mut self, stored: Option<String>) -> Ts<Theme> {
        to_js(&self.inner.sync(stored.as_deref()))
    }

    /// The local-storage key of the preference: 'theme'.
    #[wasm_bindgen(js_name = storageKey)]
    pub fn storage_key() -> String {
        theme::STORAGE_KEY.to_owned()
    }
}

//! The site's colour theme (`src/theme.rs`) for JavaScript.

use wasm_bindgen::prelude::*;

use crate::theme;

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
    pub fn theme(&self) -> String {
        self.inner.theme().as_str().to_owned()
    }

    /// Switches cosmic to void and anything else to cosmic; returns the new theme.
    pub fn toggle(&mut self) -> String {
        self.inner.toggle().as_str().to_owned()
    }

    /// Adopts a value written elsewhere (a `storage` event from another tab); returns the theme.
    pub fn sync(&mut self, stored: Option<String>) -> String {
        self.inner.sync(stored.as_deref()).as_str().to_owned()
    }

    /// The local-storage key of the preference: 'theme'.
    #[wasm_bindgen(js_name = storageKey)]
    pub fn storage_key() -> String {
        theme::STORAGE_KEY.to_owned()
    }
}

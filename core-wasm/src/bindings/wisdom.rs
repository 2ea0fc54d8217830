//! The Wisdom button (`src/wisdom.rs`) for JavaScript.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::convert::{deadline, ms, read_json, to_js};
use crate::wisdom::{self, WisdomSnapshot};

/// The Wisdom button: idle -> testing -> success/error -> idle after 5 s (3 s after a network failure).
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct WisdomMachine {
    inner: wisdom::WisdomMachine,
}

#[wasm_bindgen]
impl WisdomMachine {
    #[wasm_bindgen(constructor)]
    pub fn new() -> WisdomMachine {
        WisdomMachine::default()
    }

    /// A click; true when the caller must POST /api/wisdom now.
    pub fn click(&mut self) -> bool {
        self.inner.click()
    }

    /// The API answered with `status` and the raw `body` text.
    pub fn answered(&mut self, status_code: u16, body: &str, now_ms: f64) {
        let body = read_json(body).unwrap_or_default();
        self.inner.answered(status_code, &body, ms(now_ms));
    }

    /// The request got no answer: shows 'Failed to connect to API' for 3 s.
    #[wasm_bindgen(js_name = networkFailed)]
    pub fn network_failed(&mut self, now_ms: f64) {
        self.inner.network_failed(ms(now_ms));
    }

    /// Time passes; true when the button went back to idle.
    pub fn tick(&mut self, now_ms: f64) -> bool {
        self.inner.tick(ms(now_ms))
    }

    /// True while a request is running (the button is disabled).
    #[wasm_bindgen(getter)]
    pub fn disabled(&self) -> bool {
        self.inner.disabled()
    }

    /// What the button shows.
    pub fn snapshot(&self) -> Ts<WisdomSnapshot> {
        to_js(self.inner.state())
    }

    /// When to call `tick` next, or undefined.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }
}

//! The telekinesis page's demonstration counters (`src/telekinesis.rs`) for JavaScript.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::convert::{deadline, ms, to_js};
use crate::telekinesis::{self, DemoCounters};

/// Made-up counters, deterministic from `seed`, redrawn every 3 s. Always label them as demo data.
#[wasm_bindgen]
#[derive(Debug)]
pub struct TelekinesisCounters {
    inner: telekinesis::TelekinesisCounters,
}

#[wasm_bindgen]
impl TelekinesisCounters {
    #[wasm_bindgen(constructor)]
    pub fn new(seed: u32, now_ms: f64) -> TelekinesisCounters {
        TelekinesisCounters {
            inner: telekinesis::TelekinesisCounters::new(u64::from(seed), ms(now_ms)),
        }
    }

    /// Time passes; true when new numbers were drawn.
    pub fn tick(&mut self, now_ms: f64) -> bool {
        self.inner.tick(ms(now_ms))
    }

    pub fn counters(&self) -> Ts<DemoCounters> {
        to_js(&self.inner.counters())
    }

    /// When to call `tick` next.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }

    /// The label to show beside the numbers.
    #[wasm_bindgen(js_name = demoLabel)]
    pub fn demo_label() -> String {
        telekinesis::DEMO_LABEL.to_owned()
    }
}

//! Health of the deployed stack (`src/health.rs`) for JavaScript.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::convert::{deadline, from_js, ms, opt_to_js, status, to_js};
use crate::health::{self, CheckPlan, HealthSnapshot, HealthValue};

/// The word a health value reads as on the cards ('Healthy', 'Unhealthy', 'Not applicable';
/// 'Checking' while a check is under way).
#[wasm_bindgen(js_name = healthLabel)]
pub fn health_label(value: Ts<HealthValue>) -> String {
    health::health_label(from_js(value), false).to_owned()
}

/// An uptime in percent as every page writes it ("99.98%": floored to two decimals, no trailing
/// zeros), the server's badges included; undefined without a figure.
#[wasm_bindgen(js_name = formatUptime)]
pub fn format_uptime(uptime: Option<f64>) -> Option<String> {
    mg_domain::figures::format_uptime(uptime)
}

/// API, database and queue health, polled every 30 000 ms. Call `poll(now)` on load and at
/// `nextDeadline()`; run the checks it asks for and report each status back with its round. A
/// round with `readUptime` also asks GET /api/status for the uptimes the cards show.
#[wasm_bindgen]
#[derive(Debug)]
pub struct HealthMachine {
    inner: health::HealthMachine,
}

impl HealthMachine {
    /// Reports `check`'s answer (`status_code`; none: it failed): the console message to log, if any.
    fn check_result(
        &mut self,
        round: u32,
        check: health::Check,
        status_code: Option<f64>,
    ) -> Option<String> {
        let log = self.inner.check_result(round, check, status(status_code));
        log.map(str::to_owned)
    }
}

#[wasm_bindgen]
impl HealthMachine {
    /// `ethereal` without `force` makes api and db 'n/a'; `queueKnown`: a queue URL is configured.
    #[wasm_bindgen(constructor)]
    pub fn new(ethereal: bool, force: bool, queue_known: bool) -> HealthMachine {
        HealthMachine {
            inner: health::HealthMachine::new(ethereal, force, queue_known),
        }
    }

    /// Starts a round if due: the checks to run, or undefined when it is not time yet.
    pub fn poll(&mut self, now_ms: f64) -> Option<Ts<CheckPlan>> {
        opt_to_js(self.inner.poll(ms(now_ms)))
    }

    /// GET /health answered `status` (undefined: it failed). Returns the console message to log, if any.
    #[wasm_bindgen(js_name = apiResult)]
    pub fn api_result(&mut self, round: u32, status_code: Option<f64>) -> Option<String> {
        self.check_result(round, health::Check::Api, status_code)
    }

    /// GET /db-health answered `status` (undefined: it failed). Returns the console message to log, if any.
    #[wasm_bindgen(js_name = dbResult)]
    pub fn db_result(&mut self, round: u32, status_code: Option<f64>) -> Option<String> {
        self.check_result(round, health::Check::Db, status_code)
    }

    /// Reading the queue configuration failed; returns 'Telekinesis health check failed' to log.
    #[wasm_bindgen(js_name = queueFailed)]
    pub fn queue_failed(&mut self) -> String {
        self.inner.queue_failed().to_owned()
    }

    /// The current values `{ api, db, queue }`.
    pub fn snapshot(&self) -> Ts<HealthSnapshot> {
        to_js(&self.inner.snapshot())
    }

    /// When to call `poll` next (ms, same clock as `now`), or undefined before the first poll.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }
}

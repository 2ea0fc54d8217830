//! Classes for the landing page: deployment info, health, the Wisdom button, the API error rule.

use wasm_bindgen::prelude::*;

use super::convert::{deadline, from_js, ms, status, to_js};
use crate::{api, deployment, health, wisdom};

/// The message a failed API call shows (spec 8), or `undefined` when `status` is 2xx.
/// Pass `status` undefined when no response arrived; `body` is the raw response text.
#[wasm_bindgen(js_name = apiErrorMessage)]
pub fn api_error_message(status_code: Option<f64>, body: Option<String>) -> Option<String> {
    api::error_message(status(status_code), body.as_deref())
}

/// This deployment's info and landing texts, built once from the build-time config.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Deployment {
    info: deployment::DeploymentInfo,
    warning: Option<&'static str>,
}

#[wasm_bindgen]
impl Deployment {
    /// Reads `config` (a `DeploymentConfig`; unknown shapes read as empty) at time `nowMs`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "DeploymentConfig")] config: JsValue,
        now_ms: f64,
    ) -> Deployment {
        let config = deployment::DeploymentConfig::from_json(&from_js(&config));
        let (info, warning) = deployment::DeploymentInfo::build(config, ms(now_ms));
        Deployment { info, warning }
    }

    /// The deployment info (id, name, type, flags, status 'active', created, github_repo, landing texts).
    #[wasm_bindgen(unchecked_return_type = "DeploymentInfo")]
    pub fn info(&self) -> JsValue {
        to_js(&self.info)
    }

    /// 'Failed to parse VITE_DEPLOYMENT_FLAGS' when the flags JSON was unreadable (log it), else undefined.
    #[wasm_bindgen(getter)]
    pub fn warning(&self) -> Option<String> {
        self.warning.map(str::to_owned)
    }
}

/// API, database and queue health, polled every 30 000 ms. Call `poll(now)` on load and at
/// `nextDeadline()`; run the checks it asks for and report each status back with its round.
#[wasm_bindgen]
#[derive(Debug)]
pub struct HealthMachine {
    inner: health::HealthMachine,
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
    #[wasm_bindgen(unchecked_return_type = "CheckPlan | undefined")]
    pub fn poll(&mut self, now_ms: f64) -> JsValue {
        super::convert::opt_to_js(self.inner.poll(ms(now_ms)))
    }

    /// GET /health answered `status` (undefined: it failed). Returns the console message to log, if any.
    #[wasm_bindgen(js_name = apiResult)]
    pub fn api_result(&mut self, round: u32, status_code: Option<f64>) -> Option<String> {
        let log = self
            .inner
            .check_result(round, health::Check::Api, status(status_code));
        log.map(str::to_owned)
    }

    /// GET /db-health answered `status` (undefined: it failed). Returns the console message to log, if any.
    #[wasm_bindgen(js_name = dbResult)]
    pub fn db_result(&mut self, round: u32, status_code: Option<f64>) -> Option<String> {
        let log = self
            .inner
            .check_result(round, health::Check::Db, status(status_code));
        log.map(str::to_owned)
    }

    /// Reading the queue configuration failed; returns 'Telekinesis health check failed' to log.
    #[wasm_bindgen(js_name = queueFailed)]
    pub fn queue_failed(&mut self) -> String {
        self.inner.queue_failed().to_owned()
    }

    /// The current values `{ api, db, queue }`.
    #[wasm_bindgen(unchecked_return_type = "HealthSnapshot")]
    pub fn snapshot(&self) -> JsValue {
        to_js(&self.inner.snapshot())
    }

    /// When to call `poll` next (ms, same clock as `now`), or undefined before the first poll.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }
}

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
        self.inner.answered(status_code, body, ms(now_ms));
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
    #[wasm_bindgen(unchecked_return_type = "WisdomSnapshot")]
    pub fn snapshot(&self) -> JsValue {
        to_js(self.inner.state())
    }

    /// When to call `tick` next, or undefined.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }
}

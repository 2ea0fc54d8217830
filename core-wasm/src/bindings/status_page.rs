//! The status page's machine (`src/status_page.rs`) for JavaScript.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use js_sys::JsString;

use super::convert::{deadline, ms, opt_to_js, read_json_text, status, to_js};
use crate::api::ErrorBody;
use crate::health::HealthSnapshot;
use crate::status_page::{self, LiveValue, RoundPlan, StatusView};

/// The status page: one round every 30 000 ms. Call `poll(now)` on load and at `nextDeadline()`;
/// run the requests the plan names and report each answer back with its round; re-read `live()`
/// when `version()` changed and `view()` when `viewVersion()` did.
#[wasm_bindgen]
#[derive(Debug)]
pub struct StatusPageMachine {
    inner: status_page::StatusPageMachine,
}

#[wasm_bindgen]
impl StatusPageMachine {
    /// `ethereal` without `force`: no API to ask. `queueUrl`: the Telekinesis queue, if known.
    #[wasm_bindgen(constructor)]
    pub fn new(ethereal: bool, force: bool, queue_url: Option<String>) -> StatusPageMachine {
        StatusPageMachine {
            inner: status_page::StatusPageMachine::new(ethereal, force, queue_url),
        }
    }

    /// Starts a round if due: the requests to make, or undefined when it is not time yet.
    pub fn poll(&mut self, now_ms: f64) -> Option<Ts<RoundPlan>> {
        opt_to_js(self.inner.poll(ms(now_ms)))
    }

    /// GET /health answered `status` (undefined: it failed). Returns the console message to log.
    #[wasm_bindgen(js_name = apiResult)]
    pub fn api_result(&mut self, round: u32, status_code: Option<f64>) -> Option<String> {
        let log = self.inner.api_result(round, status(status_code));
        log.map(str::to_owned)
    }

    /// GET /db-health answered `status` (undefined: it failed). Returns the console message to log.
    #[wasm_bindgen(js_name = dbResult)]
    pub fn db_result(&mut self, round: u32, status_code: Option<f64>) -> Option<String> {
        let log = self.inner.db_result(round, status(status_code));
        log.map(str::to_owned)
    }

    /// The queue URL answered `status` (undefined: it failed). Returns the console message to log.
    #[wasm_bindgen(js_name = queueResult)]
    pub fn queue_result(&mut self, round: u32, status_code: Option<f64>) -> Option<String> {
        let log = self.inner.queue_result(round, status(status_code));
        log.map(str::to_owned)
    }

    /// The status request answered `status` (undefined: it failed) with its `ETag` and body text.
    /// The text (56 KB with 90 days of history) stays a JavaScript string: it is parsed there,
    /// never copied into the .wasm.
    #[wasm_bindgen(js_name = statusResult)]
    pub fn status_result(
        &mut self,
        round: u32,
        status_code: Option<f64>,
        etag: Option<String>,
        body: Option<JsString>,
    ) {
        let code = status(status_code);
        let ok = code.is_some_and(crate::api::is_success);
        let body = body.as_ref();
        let page = if ok {
            body.and_then(read_json_text)
        } else {
            None
        };
        let error = if ok {
            None
        } else {
            body.and_then(read_json_text::<ErrorBody>)
        };
        self.inner.status_result(round, code, etag, page, error);
    }

    /// The operators' posts answered `status` (undefined: it failed) with its `ETag` and text.
    #[wasm_bindgen(js_name = noticesResult)]
    pub fn notices_result(
        &mut self,
        round: u32,
        status_code: Option<f64>,
        etag: Option<String>,
        text: Option<String>,
    ) {
        self.inner
            .notices_result(round, status(status_code), etag, text);
    }

    /// An operator posted: the next round, with the posts, is due at once (`nextDeadline()`).
    pub fn posted(&mut self, now_ms: f64) {
        self.inner.posted(now_ms.max(0.0) as u64);
    }

    /// Changes whenever `live()` may give something new.
    pub fn version(&self) -> u32 {
        self.inner.version()
    }

    /// Changes whenever `view()` may give something new (the server's answers, midnight UTC).
    #[wasm_bindgen(js_name = viewVersion)]
    pub fn view_version(&self) -> u32 {
        self.inner.view_version()
    }

    /// Each card's live value and the word shown for it.
    pub fn live(&self) -> Vec<Ts<LiveValue>> {
        self.inner.live().iter().map(to_js).collect()
    }

    /// Everything the page shows besides the live values.
    pub fn view(&self) -> Ts<StatusView> {
        to_js(&self.inner.view())
    }

    /// The live values `{ api, db, queue }`.
    pub fn health(&self) -> Ts<HealthSnapshot> {
        let (api, db, queue) = self.inner.health();
        to_js(&HealthSnapshot { api, db, queue })
    }

    /// When to call `poll` next (ms, same clock as `now`), or undefined before the first poll.
    #[wasm_bindgen(js_name = nextDeadline)]
    pub fn next_deadline(&self) -> Option<f64> {
        deadline(self.inner.next_deadline())
    }
}

//! The API client's error rule (`src/api.rs`) for JavaScript.

use wasm_bindgen::prelude::*;

use super::convert::{read_json, status};
use crate::api::{self, ErrorBody};

/// The message a failed API call shows (spec 8), or `undefined` when `status` is 2xx.
/// Pass `status` undefined when no response arrived; `body` is the raw response text.
#[wasm_bindgen(js_name = apiErrorMessage)]
pub fn api_error_message(status_code: Option<f64>, body: Option<String>) -> Option<String> {
    let body = body.as_deref().and_then(read_json::<ErrorBody>);
    api::error_message(status(status_code), body.as_ref())
}

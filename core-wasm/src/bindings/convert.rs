//! The one conversion layer between JavaScript values and the plain-Rust machines.

use wasm_bindgen::JsValue;

use crate::json::{self, ToJson, Value};

/// A JavaScript timestamp in milliseconds (Date.now() or performance.now()); negative or NaN reads as 0.
pub(crate) fn ms(now_ms: f64) -> u64 {
    // `as` saturates: NaN and negatives become 0, huge values u64::MAX.
    now_ms as u64
}

/// A deadline for setTimeout arithmetic in JavaScript.
pub(crate) fn deadline(at: Option<u64>) -> Option<f64> {
    at.map(|at| at as f64)
}

// Values cross as JSON text turned into objects by the browser's own JSON, written and read by
// the crate's small `json` module: this keeps serde, serde_json and serde-wasm-bindgen (visitors,
// float parsing and formatting) out of the .wasm. Snapshots cross only on events, so the extra
// parse is cheap.

/// A snapshot as a plain JavaScript object (`None` becomes `null`).
pub(crate) fn to_js(value: &dyn ToJson) -> JsValue {
    js_sys::JSON::parse(&json::to_string(value)).unwrap_or(JsValue::UNDEFINED)
}

/// A JavaScript value as JSON (`null` when it is not JSON-representable, e.g. undefined).
pub(crate) fn from_js(value: &JsValue) -> Value {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|text| text.as_string())
        .and_then(|text| json::parse(&text))
        .unwrap_or(Value::Null)
}

/// An optional value: `undefined` when absent.
pub(crate) fn opt_to_js<T: ToJson>(value: Option<T>) -> JsValue {
    value.map_or(JsValue::UNDEFINED, |v| to_js(&v))
}

/// An HTTP status from JavaScript (`undefined`: no response).
pub(crate) fn status(value: Option<f64>) -> Option<u16> {
    value.map(|s| {
        if (0.0..=999.0).contains(&s) {
            s as u16
        } else {
            0
        }
    })
}

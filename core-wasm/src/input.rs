//! How the core reads values it did not make (objects from JavaScript, JSON texts from a server or
//! the build): with serde, field by field and leniently, so one odd field never loses the rest.
//!
//! The machines take typed values. The bindings read JavaScript values into them through their
//! `Deserialize` (`bindings/js_value.rs`), JSON texts after the browser's own `JSON.parse` (see
//! `bindings/convert.rs`); the host tests read the same texts with serde_json ([`read_json`]).

use serde::{Deserialize, Deserializer};

/// Reads a field leniently: a value of the wrong type (or `null`) reads as the default, i.e.
/// absent, instead of failing the whole object.
pub(crate) fn lenient<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(T::deserialize(deserializer).unwrap_or_default())
}

/// The trimmed text, or `None` when it is missing or blank.
pub(crate) fn non_blank(value: Option<&str>) -> Option<String> {
    let text = value?.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// What the bindings do with a JSON text, on the host: parse it whole (`None` when it is not
/// JSON), then read the value into `T` (`None` when it is not a `T`). Parsing to a value first,
/// as `JSON.parse` does, keeps [`lenient`] fields independent of each other.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) fn read_json<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    T::deserialize(value).ok()
}

//! Reads a JavaScript value into one of the core's input types through its serde `Deserialize`:
//! a small serde `Deserializer` over `JsValue`, used instead of serde-wasm-bindgen's for inputs.
//!
//! Why not serde-wasm-bindgen's: its errors format serde's messages ("invalid type: floating
//! point `1.5`, expected a string"), which links Rust's float and string formatting into the
//! .wasm, about 23.6 KB gzip in all, the budget's 40 KB going to 51.9 KB (measured, see
//! core-wasm/README.md). The inputs only need "this field is unreadable", so the error here
//! carries no message and nothing is ever formatted. Outputs still go through serde-wasm-bindgen
//! (its serializer is small). Reading walks the value as it is: objects through their own
//! entries (an unknown key is seen, so a `Deserialize` can reject it), arrays by index.

use std::fmt;

use js_sys::{Array, Object};
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use wasm_bindgen::{JsCast, JsValue};

/// A value was not what the input type expects. No message, on purpose (see the module doc).
#[derive(Debug)]
pub(crate) struct Unreadable;

impl fmt::Display for Unreadable {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str("unreadable value")
    }
}

impl std::error::Error for Unreadable {}

impl de::Error for Unreadable {
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Unreadable
    }
}

/// A JavaScript value as a serde `Deserializer`.
pub(crate) struct JsValueReader(pub(crate) JsValue);

fn is_nullish(value: &JsValue) -> bool {
    value.is_null() || value.is_undefined()
}

/// Integers a double holds exactly (`Number.MAX_SAFE_INTEGER` and below).
const EXACT_INTEGERS: f64 = 9_007_199_254_740_991.0;

/// The value as a whole number, when it is a number without a fraction that a double holds exactly.
fn whole(value: &JsValue) -> Option<f64> {
    value
        .as_f64()
        .filter(|n| n.fract() == 0.0 && n.abs() <= EXACT_INTEGERS)
}

impl<'de> de::Deserializer<'de> for JsValueReader {
    type Error = Unreadable;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unreadable> {
        let value = self.0;
        if is_nullish(&value) {
            visitor.visit_unit()
        } else if let Some(flag) = value.as_bool() {
            visitor.visit_bool(flag)
        } else if let Some(number) = value.as_f64() {
            visitor.visit_f64(number)
        } else if let Some(text) = value.as_string() {
            visitor.visit_string(text)
        } else if Array::is_array(&value) {
            visitor.visit_seq(Items {
                items: value.unchecked_into(),
                next: 0,
            })
        } else if value.is_object() {
            visitor.visit_map(Members {
                entries: Object::entries(value.unchecked_ref()),
                next: 0,
                value: JsValue::UNDEFINED,
            })
        } else {
            Err(Unreadable)
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unreadable> {
        if is_nullish(&self.0) {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// A member no field reads (an SDK's extra fields): skipped without being walked, so its size
    /// and nesting cost nothing (a deeply nested one would otherwise exhaust the stack).
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unreadable> {
        visitor.visit_unit()
    }

    /// `JSON.parse` gives every number as a double, which `deserialize_any` hands over as one; an
    /// integer field reads it here, when it is whole (as serde_json reads `3` into an `i64`). Only
    /// the status answers have integer fields, so only their build carries this.
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unreadable> {
        match whole(&self.0) {
            Some(number) => visitor.visit_i64(number as i64),
            None => self.deserialize_any(visitor),
        }
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unreadable> {
        match whole(&self.0).filter(|number| *number >= 0.0) {
            Some(number) => visitor.visit_u64(number as u64),
            None => self.deserialize_any(visitor),
        }
    }

    /// A unit variant, written as its name (`"operational"`), as serde writes one in JSON.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Unreadable> {
        match self.0.as_string() {
            Some(name) => {
                visitor.visit_enum(IntoDeserializer::<'de, Unreadable>::into_deserializer(name))
            }
            None => Err(Unreadable),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i128 u8 u16 u32 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct identifier
    }
}

/// The elements of an array.
struct Items {
    items: Array,
    next: u32,
}

impl<'de> SeqAccess<'de> for Items {
    type Error = Unreadable;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Unreadable> {
        if self.next >= self.items.length() {
            return Ok(None);
        }
        let item = self.items.get(self.next);
        self.next += 1;
        seed.deserialize(JsValueReader(item)).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.length().saturating_sub(self.next) as usize)
    }
}

/// The own enumerable `[key, value]` entries of an object.
struct Members {
    entries: Array,
    next: u32,
    value: JsValue,
}

impl<'de> MapAccess<'de> for Members {
    type Error = Unreadable;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Unreadable> {
        if self.next >= self.entries.length() {
            return Ok(None);
        }
        let entry: Array = self.entries.get(self.next).unchecked_into();
        self.next += 1;
        self.value = entry.get(1);
        seed.deserialize(JsValueReader(entry.get(0))).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Unreadable> {
        let value = std::mem::replace(&mut self.value, JsValue::UNDEFINED);
        seed.deserialize(JsValueReader(value))
    }
}

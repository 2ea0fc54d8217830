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
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
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

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
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

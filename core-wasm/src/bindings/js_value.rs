//! Reads a JavaScript value into one of the core's input types through its serde `Deserialize`:
//! a small serde `Deserializer` over `JsValue`, used instead of serde-wasm-bindgen's for inputs.
//!
//! Why not serde-wasm-bindgen's: its errors format serde's messages ("invalid type: floating
//! point `1.5`, expected a string"), which links Rust's float and string formatting into the
//! .wasm, about 23.6 KB gzip in all, the budget's 40 KB going to 51.9 KB (measured, see
//! core-wasm/README.md). The inputs only need "this field is unreadable", so the error here
//! carries no message and nothing is ever formatted. Outputs still go through serde-wasm-bindgen
//! (its serializer is small). A struct is read field by field, each field by its name (members
//! no field names are never read); maps walk an object's own entries, lists go by index.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use js_sys::{Array, Object, Reflect};
use serde::de::value::StrDeserializer;
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
    value.is_null_or_undefined()
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
            visitor.visit_seq(Items(Walk::new(value.unchecked_into())))
        } else if value.is_object() {
            visitor.visit_map(MemberMap::new(Entries(Walk::new(Object::entries(
                value.unchecked_ref(),
            )))))
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

    /// A struct reads the fields it has, each by name (`Reflect.get`, with the name's JavaScript
    /// string made once per struct type), and skips a missing one so its `#[serde(default)]`
    /// applies; other members are never read. Walking the object's entries instead sent every
    /// key's text into the .wasm to be matched, which made reading the status page's answer
    /// (186 points of 8 fields per component) the slowest task of its load.
    /// Only an object reads as a struct (serde_json, on the host, would also take an array).
    /// `JSON.parse` gives plain objects, and no input type has a field named like a member of
    /// `Object.prototype` (`toString`, `constructor`), which `Reflect.get` would find.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Unreadable> {
        if !self.0.is_object() || Array::is_array(&self.0) {
            return Err(Unreadable);
        }
        visitor.visit_map(MemberMap::new(Fields {
            object: self.0,
            names: names_of(fields),
            next: 0,
        }))
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

    /// A number or a text field asks for its type first, so reading one takes one call into
    /// JavaScript rather than a call per type `deserialize_any` tries before it (a status answer
    /// has about 3,000 of them).
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unreadable> {
        match self.0.as_f64() {
            Some(number) => visitor.visit_f64(number),
            None => self.deserialize_any(visitor),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unreadable> {
        match self.0.as_string() {
            Some(text) => visitor.visit_string(text),
            None => self.deserialize_any(visitor),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unreadable> {
        self.deserialize_string(visitor)
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
        bool i8 i16 i32 i128 u8 u16 u32 u128 f32 char bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map identifier
    }
}

/// An array read from the front, one element at a time.
struct Walk {
    items: Array,
    next: u32,
}

impl Walk {
    fn new(items: Array) -> Self {
        Self { items, next: 0 }
    }

    /// The next element; `None` past the last.
    fn next(&mut self) -> Option<JsValue> {
        if self.next >= self.items.length() {
            return None;
        }
        self.next += 1;
        Some(self.items.get(self.next - 1))
    }
}

/// The elements of an array.
struct Items(Walk);

impl<'de> SeqAccess<'de> for Items {
    type Error = Unreadable;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Unreadable> {
        match self.0.next() {
            Some(item) => seed.deserialize(JsValueReader(item)).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.items.length().saturating_sub(self.0.next) as usize)
    }
}

thread_local! {
    /// Each struct type's field names with their JavaScript strings, by the address of its list:
    /// one entry per struct type the .wasm reads, never more.
    static NAMES: RefCell<Vec<(usize, Rc<[Name]>)>> = const { RefCell::new(Vec::new()) };
}

/// A field's name, and the same as a JavaScript string.
type Name = (&'static str, JsValue);

/// The field names with their JavaScript strings, made on a struct type's first read.
fn names_of(fields: &'static [&'static str]) -> Rc<[Name]> {
    let key = fields.as_ptr() as usize;
    NAMES.with_borrow_mut(|known| {
        if let Some((_, names)) = known.iter().find(|(at, _)| *at == key) {
            return Rc::clone(names);
        }
        let names: Rc<[Name]> = fields
            .iter()
            .map(|&name| (name, JsValue::from_str(name)))
            .collect();
        known.push((key, Rc::clone(&names)));
        names
    })
}

/// An object read as a map: its members one at a time from `M`, each value held from its key
/// until serde asks for it.
struct MemberMap<M> {
    members: M,
    value: JsValue,
}

impl<M> MemberMap<M> {
    fn new(members: M) -> Self {
        let value = JsValue::UNDEFINED;
        Self { members, value }
    }
}

/// Where a map's members come from: the next key, as serde reads it, with its value.
trait Members {
    type Key: for<'de> de::Deserializer<'de, Error = Unreadable>;

    fn next_member(&mut self) -> Result<Option<(Self::Key, JsValue)>, Unreadable>;
}

impl<'de, M: Members> MapAccess<'de> for MemberMap<M> {
    type Error = Unreadable;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Unreadable> {
        let Some((key, value)) = self.members.next_member()? else {
            return Ok(None);
        };
        self.value = value;
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Unreadable> {
        seed.deserialize(JsValueReader(std::mem::take(&mut self.value)))
    }
}

/// A struct's fields, read from an object by name; absent ones are skipped.
struct Fields {
    object: JsValue,
    names: Rc<[Name]>,
    next: usize,
}

impl Members for Fields {
    type Key = StrDeserializer<'static, Unreadable>;

    fn next_member(&mut self) -> Result<Option<(Self::Key, JsValue)>, Unreadable> {
        while let Some(&(name, ref key)) = self.names.get(self.next) {
            self.next += 1;
            let value = Reflect::get(&self.object, key).map_err(|_| Unreadable)?;
            if !value.is_undefined() {
                return Ok(Some((name.into_deserializer(), value)));
            }
        }
        Ok(None)
    }
}

/// The own enumerable `[key, value]` entries of an object.
struct Entries(Walk);

impl Members for Entries {
    type Key = JsValueReader;

    fn next_member(&mut self) -> Result<Option<(Self::Key, JsValue)>, Unreadable> {
        Ok(self.0.next().map(|entry| {
            let entry: Array = entry.unchecked_into();
            (JsValueReader(entry.get(0)), entry.get(1))
        }))
    }
}

#[cfg(all(test, target_arch = "wasm32", feature = "status"))]
mod tests;

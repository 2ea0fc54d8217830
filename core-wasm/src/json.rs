//! A small JSON reader and writer for the few JSON texts the core handles (deployment flags, API
//! error bodies, the SDK's exchange outcome, snapshots), in place of serde_json: it keeps serde's
//! visitors, float parsing and formatting, and sorted maps out of the .wasm (most of its size).
//!
//! The reader accepts exactly what `serde_json::from_str::<serde_json::Value>` accepts (same
//! grammar, same nesting limit, lone surrogates and out-of-range numbers rejected; see
//! [`parse`]) and never panics; the writer produces the text `serde_json::to_string` produced for
//! the same shapes. Both are checked against serde_json by the host tests.

/// A parsed JSON value. Numbers are checked but not kept: nothing reads one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Null,
    Bool(bool),
    Number,
    String(String),
    Array(Vec<Value>),
    /// Members in input order; when a key repeats, its last value counts (as in serde_json).
    Object(Vec<(String, Value)>),
}

/// How deep arrays and objects may nest: serde_json's recursion limit (128 levels fail).
pub const MAX_DEPTH: u32 = 127;

/// Read access shared by [`Value`] and, in tests, `serde_json::Value`, so the readers of
/// JavaScript objects work on either.
pub trait JsonRead {
    /// The member `key` of an object (its last occurrence); `None` for anything else.
    fn get(&self, key: &str) -> Option<&Self>;
    fn as_str(&self) -> Option<&str>;
    fn as_bool(&self) -> Option<bool>;
    /// The items of an array.
    fn items(&self) -> Option<&[Self]>
    where
        Self: Sized;
    fn is_object(&self) -> bool;
}

impl JsonRead for Value {
    fn get(&self, key: &str) -> Option<&Self> {
        match self {
            Self::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|m| &m.1),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(text) => Some(text),
            _ => None,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match self {
            Self::Bool(value) => Some(*value),
            _ => None,
        }
    }

    fn items(&self) -> Option<&[Self]> {
        match self {
            Self::Array(items) => Some(items),
            _ => None,
        }
    }

    fn is_object(&self) -> bool {
        matches!(self, Self::Object(_))
    }
}

#[cfg(test)]
impl JsonRead for serde_json::Value {
    fn get(&self, key: &str) -> Option<&Self> {
        self.get(key)
    }

    fn as_str(&self) -> Option<&str> {
        self.as_str()
    }

    fn as_bool(&self) -> Option<bool> {
        self.as_bool()
    }

    fn items(&self) -> Option<&[Self]> {
        self.as_array().map(Vec::as_slice)
    }

    fn is_object(&self) -> bool {
        self.is_object()
    }
}

/// A string member of an object; anything else reads as absent.
pub fn text_field<V: JsonRead>(value: &V, key: &str) -> Option<String> {
    value.get(key)?.as_str().map(str::to_owned)
}

/// Parses a whole JSON text (surrounding JSON whitespace allowed); `None` when it is not JSON,
/// nests deeper than [`MAX_DEPTH`], holds a lone UTF-16 surrogate escape, or holds a number
/// serde_json reads as out of range (see `Parser::number`).
pub fn parse(text: &str) -> Option<Value> {
    let mut parser = Parser {
        text,
        pos: 0,
        depth: 0,
    };
    let value = parser.value()?;
    parser.space();
    (parser.pos == text.len()).then_some(value)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    depth: u32,
}

/// 10^289 ..= 10^308: below 10^289 no u64 significand can overflow an f64.
const POW10_TOP: [f64; 20] = [
    1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, 1e300, 1e301,
    1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308,
];

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.pos += 1;
        Some(byte)
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Skips whitespace, then consumes `byte` if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        self.space();
        let found = self.peek() == Some(byte);
        if found {
            self.pos += 1;
        }
        found
    }

    fn value(&mut self) -> Option<Value> {
        self.space();
        match self.peek()? {
            b'n' => self.word("null", Value::Null),
            b't' => self.word("true", Value::Bool(true)),
            b'f' => self.word("false", Value::Bool(false)),
            b'"' => {
                self.pos += 1;
                self.string().map(Value::String)
            }
            b'[' | b'{' => self.container(),
            _ => self.number(),
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Option<Value> {
        let end = self.pos + word.len();
        (self.text.as_bytes().get(self.pos..end)? == word.as_bytes()).then(|| {
            self.pos = end;
            value
        })
    }

    fn container(&mut self) -> Option<Value> {
        let open = self.bump()?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let object = open == b'{';
        let close = if object { b'}' } else { b']' };
        let mut items = Vec::new();
        let mut members = Vec::new();
        if !self.eat(close) {
            loop {
                if object {
                    if !self.eat(b'"') {
                        return None;
                    }
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return None;
                    }
                    members.push((key, self.value()?));
                } else {
                    items.push(self.value()?);
                }
                if self.eat(close) {
                    break;
                }
                if !self.eat(b',') {
                    return None;
                }
            }
        }
        self.depth -= 1;
        Some(if object {
            Value::Object(members)
        } else {
            Value::Array(items)
        })
    }

    /// The rest of a string after its opening quote.
    fn string(&mut self) -> Option<String> {
        let mut out = String::new();
        loop {
            let start = self.pos;
            while self
                .peek()
                .is_some_and(|b| b != b'"' && b != b'\\' && b >= 0x20)
            {
                self.pos += 1;
            }
            // Stops only at ASCII bytes, so the run ends on a character boundary.
            out.push_str(self.text.get(start..self.pos)?);
            match self.bump()? {
                b'"' => return Some(out),
                b'\\' => {
                    let c = match self.bump()? {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return None,
                    };
                    out.push(c);
                }
                // A raw control character.
                _ => return None,
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let mut n = 0;
        for _ in 0..4 {
            n = n * 16 + char::from(self.bump()?).to_digit(16)?;
        }
        Some(n)
    }

    /// After `\u`: one character; a surrogate pair must be complete.
    fn unicode_escape(&mut self) -> Option<char> {
        let mut n = self.hex4()?;
        if (0xD800..0xDC00).contains(&n) {
            if self.bump()? != b'\\' || self.bump()? != b'u' {
                return None;
            }
            let low = self.hex4()?;
            if !(0xDC00..0xE000).contains(&low) {
                return None;
            }
            n = 0x1_0000 + ((n - 0xD800) << 10) + (low - 0xDC00);
        }
        // None for a lone trailing surrogate.
        char::from_u32(n)
    }

    fn digit(&mut self) -> Option<u64> {
        let byte = self.peek().filter(u8::is_ascii_digit)?;
        self.pos += 1;
        Some(u64::from(byte - b'0'))
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, rejected when serde_json (without its
    /// `float_roundtrip` feature) finds it out of range: its significand is the first digits that
    /// fit a u64 (further integer digits scale it, further fraction digits are dropped), and the
    /// value overflows when `significand as f64 * 10^exponent` is infinite.
    fn number(&mut self) -> Option<Value> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let grow = |s: u64, d: u64| s.checked_mul(10).and_then(|s| s.checked_add(d));
        let mut significand = 0;
        let mut exponent: i32 = 0;
        match self.digit()? {
            0 => {}
            first => {
                significand = first;
                while let Some(d) = self.digit() {
                    // Once a digit did not fit, every further one only scales.
                    match grow(significand, d).filter(|_| exponent == 0) {
                        Some(s) => significand = s,
                        None => exponent = exponent.saturating_add(1),
                    }
                }
            }
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            let mut any = false;
            let mut full = false;
            while let Some(d) = self.digit() {
                any = true;
                match grow(significand, d).filter(|_| !full) {
                    Some(s) => {
                        significand = s;
                        exponent = exponent.saturating_sub(1);
                    }
                    None => full = true,
                }
            }
            if !any {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            let negative = self.peek() == Some(b'-');
            if matches!(self.peek(), Some(b'-' | b'+')) {
                self.pos += 1;
            }
            let mut exp: Option<u64> = Some(self.digit()?);
            while let Some(d) = self.digit() {
                exp = exp
                    .and_then(|e| grow(e, d))
                    .filter(|&e| e <= i32::MAX as u64);
            }
            let Some(exp) = exp else {
                // An exponent beyond i32: zero, unless it makes a non-zero value huge.
                return (significand == 0 || negative).then_some(Value::Number);
            };
            let exp = exp as i32;
            exponent = if negative {
                exponent.saturating_sub(exp)
            } else {
                exponent.saturating_add(exp)
            };
        }
        let overflow = significand != 0
            && match exponent {
                309.. => true,
                289..=308 => POW10_TOP
                    .get((exponent - 289) as usize)
                    .is_some_and(|&pow| (significand as f64 * pow).is_infinite()),
                _ => false,
            };
        (!overflow).then_some(Value::Number)
    }
}

/// Something that writes itself as JSON (the snapshots and effects sent to JavaScript).
pub trait ToJson {
    fn write_json(&self, out: &mut Writer);
}

/// The JSON text of a value.
pub fn to_string(value: &dyn ToJson) -> String {
    let mut writer = Writer::default();
    value.write_json(&mut writer);
    writer.0
}

/// Builds compact JSON text (no spaces, as serde_json writes it).
#[derive(Debug, Default)]
pub struct Writer(String);

impl Writer {
    pub fn open(&mut self) -> &mut Self {
        self.0.push('{');
        self
    }

    pub fn close(&mut self) -> &mut Self {
        self.0.push('}');
        self
    }

    pub fn open_array(&mut self) -> &mut Self {
        self.0.push('[');
        self
    }

    pub fn close_array(&mut self) -> &mut Self {
        self.0.push(']');
        self
    }

    /// Starts an object member or an array item: a comma unless it is the first.
    fn separate(&mut self) {
        if !self.0.is_empty() && !self.0.ends_with(['{', '[']) {
            self.0.push(',');
        }
    }

    /// Starts the member `key` of an object; its value follows.
    pub fn key(&mut self, key: &str) -> &mut Self {
        self.separate();
        self.string(key);
        self.0.push(':');
        self
    }

    /// Starts an array item.
    pub fn item(&mut self) -> &mut Self {
        self.separate();
        self
    }

    /// A string, escaped as serde_json escapes it.
    pub fn string(&mut self, text: &str) -> &mut Self {
        self.0.push('"');
        let mut start = 0;
        for (at, byte) in text.bytes().enumerate() {
            let escape = match byte {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                0x08 => "\\b",
                0x0C => "\\f",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0..=0x1F => "\\u00",
                _ => continue,
            };
            // `at` is an ASCII byte, so both slices end on character boundaries.
            self.0.push_str(text.get(start..at).unwrap_or_default());
            self.0.push_str(escape);
            if escape.len() > 2 {
                for nibble in [byte >> 4, byte & 0xF] {
                    self.0
                        .push(char::from(b"0123456789abcdef"[usize::from(nibble)]));
                }
            }
            start = at + 1;
        }
        self.0.push_str(text.get(start..).unwrap_or_default());
        self.0.push('"');
        self
    }

    /// A string, or `null` when absent.
    pub fn opt_string(&mut self, text: Option<&str>) -> &mut Self {
        match text {
            Some(text) => self.string(text),
            None => {
                self.0.push_str("null");
                self
            }
        }
    }

    pub fn bool(&mut self, value: bool) -> &mut Self {
        self.0.push_str(if value { "true" } else { "false" });
        self
    }

    pub fn number(&mut self, value: u64) -> &mut Self {
        if value >= 10 {
            self.number(value / 10);
        }
        self.0.push(char::from(b'0' + (value % 10) as u8));
        self
    }

    /// A nested value.
    pub fn value(&mut self, value: &dyn ToJson) -> &mut Self {
        value.write_json(self);
        self
    }
}

// Host only: proptest and serde_json are not built for wasm32 tests here.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

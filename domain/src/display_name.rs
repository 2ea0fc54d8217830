//! A person's display name (spec 5): the server refuses what breaks the rule, and the dashboard's
//! name editor (core-wasm) says why before anything is sent, in the same words.

use crate::visible_text;

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 100;

pub const NAME_EMPTY: &str = "Name cannot be empty";
/// Spelled out rather than formatted from `MAX_NAME_CHARS` (a test keeps the two together): the
/// browser's `.wasm` carries no formatting machinery for it.
pub const NAME_TOO_LONG: &str = "Name must be at most 100 characters";
pub const NAME_CONTROL_CHARACTERS: &str =
    "Name cannot contain control characters (such as line breaks or tabs)";
pub const NAME_BIDI_CONTROL: &str =
    "Name cannot contain text-direction override or isolate characters";
pub const NAME_NOTHING_VISIBLE: &str =
    "Name cannot be made only of private-use or invisible characters";

/// Why a name was refused; `message()` is shown to people as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvalidName {
    /// Nothing visible: empty, white space, or only default-ignorable characters (U+200B, U+FEFF...).
    Empty,
    TooLong,
    ControlCharacters,
    /// Bidi embedding, override or isolate controls, which can make a name read as something else.
    BidiControl,
    /// Nothing with a standard glyph: private-use characters (U+E000...), noncharacters, mixed with
    /// nothing but blanks and invisible characters. Such a name renders as boxes or as nothing,
    /// depending on the reader's fonts.
    NothingVisible,
}

impl InvalidName {
    pub const fn message(self) -> &'static str {
        match self {
            Self::Empty => NAME_EMPTY,
            Self::TooLong => NAME_TOO_LONG,
            Self::ControlCharacters => NAME_CONTROL_CHARACTERS,
            Self::BidiControl => NAME_BIDI_CONTROL,
            Self::NothingVisible => NAME_NOTHING_VISIBLE,
        }
    }
}

impl std::fmt::Display for InvalidName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for InvalidName {}

/// A display name that passed the rule: trimmed, 1-100 characters, no control characters, something
/// visible (a character with a standard glyph), no bidi embedding, override or isolate controls (direction marks such as U+200F stay
/// allowed: mixed-script names need them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayName(String);

impl DisplayName {
    pub fn parse(raw: &str) -> Result<Self, InvalidName> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(InvalidName::Empty);
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(InvalidName::TooLong);
        }
        if name.chars().any(char::is_control) {
            return Err(InvalidName::ControlCharacters);
        }
        if name.chars().all(visible_text::is_blank) {
            return Err(InvalidName::Empty);
        }
        if name
            .chars()
            .all(|c| visible_text::is_blank(c) || visible_text::has_no_standard_glyph(c))
        {
            return Err(InvalidName::NothingVisible);
        }
        if name.chars().any(visible_text::steers_direction) {
            return Err(InvalidName::BidiControl);
        }
        Ok(Self(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of `names` is refused with `refusal`.
    fn assert_refused(names: &[&str], refusal: InvalidName) {
        for name in names {
            assert_eq!(DisplayName::parse(name), Err(refusal), "{name:?}");
        }
    }

    #[test]
    fn a_name_is_trimmed() {
        let name = DisplayName::parse("  Ada Lovelace \t").expect("valid");
        assert_eq!(name.as_str(), "Ada Lovelace");
    }

    #[test]
    fn an_empty_or_blank_name_is_empty() {
        assert_refused(&["", " ", "\t\n ", "\u{3000}"], InvalidName::Empty);
        assert_eq!(InvalidName::Empty.to_string(), "Name cannot be empty");
    }

    #[test]
    fn a_name_of_100_characters_is_fine_and_101_is_too_long() {
        assert!(DisplayName::parse(&"é".repeat(MAX_NAME_CHARS)).is_ok());
        let error = DisplayName::parse(&"é".repeat(MAX_NAME_CHARS + 1)).expect_err("too long");
        assert_eq!(error.message(), NAME_TOO_LONG);
        assert_eq!(
            NAME_TOO_LONG,
            format!("Name must be at most {MAX_NAME_CHARS} characters")
        );
    }

    #[test]
    fn names_of_only_private_use_or_invisible_characters_are_refused() {
        // Before: these passed (only whitespace and default-ignorable characters counted as
        // nothing), and the dashboard showed an empty or boxed name.
        assert_refused(
            &[
                "\u{E000}",
                "\u{F8FF}\u{E123}",
                "\u{E000}\u{200B}",
                " \u{2060}\u{E000}\u{FEFF} ",
                "\u{E000}\u{FE0F}\u{E0041}",
                "\u{F0000}",
                "\u{10FFFD}\u{200D}",
                "\u{FDD0}",
                "\u{FFFF}\u{1FFFE}",
                "\u{2800}\u{E000}",
            ],
            InvalidName::NothingVisible,
        );
        assert_eq!(
            InvalidName::NothingVisible.to_string(),
            "Name cannot be made only of private-use or invisible characters"
        );
        // The edges of the ranges: the characters just outside them are ordinary ones.
        for visible in ["\u{D7FB}", "\u{F900}", "\u{FDCF}", "\u{FDF0}", "\u{FFFD}"] {
            assert!(DisplayName::parse(visible).is_ok(), "{visible:?}");
        }
    }

    #[test]
    fn control_characters_inside_a_name_are_refused() {
        assert_refused(
            &["Ada\nLovelace", "Ada\u{7}", "A\u{0}da", "Ada\u{9B}x"],
            InvalidName::ControlCharacters,
        );
    }

    #[test]
    fn invisible_names_are_empty_and_bidi_controls_are_refused() {
        assert_refused(
            &[
                "\u{200B}",
                "\u{FEFF}\u{2060}",
                " \u{200B} \u{200C}\u{200D} ",
                "\u{00AD}",
                "\u{3164}",
                "\u{E0041}\u{E0042}",
                "\u{FE0F}",
                "\u{2800}",
                " \u{2800}\u{2800} ",
            ],
            InvalidName::Empty,
        );
        assert_refused(
            &[
                "Ada\u{202E}ecalevol",
                "\u{202D}Ada",
                "Ada \u{2066}x\u{2069}",
                "\u{2067}Ada",
                "\u{2068}Ada",
                "Ada\u{202A}",
                "Ada\u{202B}",
                "Ada\u{202C}",
            ],
            InvalidName::BidiControl,
        );
        for fine in [
            "Ada \u{E000}",
            "\u{F8FF} Ada",
            "Ada Lovelace",
            "\u{05D0}\u{05D3}\u{05D4}",
            "Zoë\u{200D}",
            "محمد\u{200F} Ali",
            "李小龍",
            "👩\u{200D}💻 Dev",
        ] {
            assert!(DisplayName::parse(fine).is_ok(), "{fine:?}");
        }
    }
}

//! Validated input types: a value of one of these has passed the rules, so handlers cannot forget them.

use icu_properties::{
    props::{BidiClass, DefaultIgnorableCodePoint},
    CodePointMapData, CodePointSetData,
};
use thiserror::Error;

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 100;
const MAX_PROFILE_TEXT_CHARS: usize = 200;
const MAX_AVATAR_URL_CHARS: usize = 2048;

/// A rule an input broke; the text is shown to people as is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct InvalidInput(pub String);

/// A person's display name: trimmed, 1-100 characters, no control characters, something visible
/// (not only default-ignorable characters such as U+200B), no bidi embedding, override or isolate
/// controls. The browser checks the same Unicode rule (core-wasm `name_edit::check_name`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayName(String);

impl DisplayName {
    pub fn parse(raw: &str) -> Result<Self, InvalidInput> {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Err(InvalidInput("Name cannot be empty".into()));
        }
        if trimmed.chars().count() > MAX_NAME_CHARS {
            return Err(InvalidInput(format!(
                "Name must be at most {MAX_NAME_CHARS} characters"
            )));
        }
        if trimmed.chars().any(char::is_control) {
            return Err(InvalidInput(
                "Name cannot contain control characters (such as line breaks or tabs)".into(),
            ));
        }
        check_unicode(trimmed).map_err(|message| InvalidInput(message.into()))?;
        Ok(Self(trimmed.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The Unicode half of the name rule, word for word core-wasm's `name_edit::check_name`: only
/// white space and default-ignorable characters (U+200B, U+FEFF, U+2060, ...) is an empty name;
/// bidi embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069) are refused,
/// direction marks (U+200E, U+200F) allowed.
fn check_unicode(name: &str) -> Result<(), &'static str> {
    let ignorable = CodePointSetData::new::<DefaultIgnorableCodePoint>();
    if name
        .chars()
        .all(|c| c.is_whitespace() || ignorable.contains(c))
    {
        return Err("Name cannot be empty");
    }
    let bidi = CodePointMapData::<BidiClass>::new();
    let steering = |c: char| {
        matches!(
            bidi.get(c),
            BidiClass::LeftToRightEmbedding
                | BidiClass::RightToLeftEmbedding
                | BidiClass::PopDirectionalFormat
                | BidiClass::LeftToRightOverride
                | BidiClass::RightToLeftOverride
                | BidiClass::LeftToRightIsolate
                | BidiClass::RightToLeftIsolate
                | BidiClass::FirstStrongIsolate
                | BidiClass::PopDirectionalIsolate
        )
    };
    if name.chars().any(steering) {
        return Err("Name cannot contain text-direction override or isolate characters");
    }
    Ok(())
}

/// An avatar address: an absolute `https://` URL with a host, no spaces or control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AvatarUrl(String);

impl AvatarUrl {
    pub fn parse(raw: &str) -> Result<Self, InvalidInput> {
        let invalid = || InvalidInput("Avatar must be an https:// URL".into());
        let rest = raw.strip_prefix("https://").ok_or_else(invalid)?;
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        if host.is_empty()
            || raw.chars().count() > MAX_AVATAR_URL_CHARS
            || raw.chars().any(|c| c.is_control() || c.is_whitespace())
        {
            return Err(invalid());
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A short free text from the provider profile (username, display name, provider name).
pub fn profile_text(field: &str, raw: &str) -> Result<String, InvalidInput> {
    if raw.chars().count() > MAX_PROFILE_TEXT_CHARS {
        return Err(InvalidInput(format!(
            "{field} must be at most {MAX_PROFILE_TEXT_CHARS} characters"
        )));
    }
    if raw.chars().any(char::is_control) {
        return Err(InvalidInput(format!(
            "{field} cannot contain control characters"
        )));
    }
    Ok(raw.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed() {
        let name = DisplayName::parse("  Ada Lovelace \t").expect("valid");
        assert_eq!(name.as_str(), "Ada Lovelace");
    }

    #[test]
    fn an_empty_or_blank_name_cannot_be_saved() {
        for raw in ["", "   ", "\n\t "] {
            let error = DisplayName::parse(raw).expect_err("blank");
            assert_eq!(error.to_string(), "Name cannot be empty");
        }
    }

    #[test]
    fn a_name_of_100_characters_is_fine_and_101_is_too_long() {
        assert!(DisplayName::parse(&"é".repeat(100)).is_ok());
        let error = DisplayName::parse(&"é".repeat(101)).expect_err("too long");
        assert_eq!(error.to_string(), "Name must be at most 100 characters");
    }

    #[test]
    fn control_characters_inside_a_name_are_refused() {
        for raw in ["Ada\nLovelace", "Ada\u{0}", "Ada\u{7f}x"] {
            assert!(DisplayName::parse(raw).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn invisible_names_are_empty_and_bidi_controls_are_refused() {
        // Before: each of these was stored as a name (nothing shown, or text that reads reversed).
        for invisible in [
            "\u{200B}",
            "\u{FEFF}\u{2060}",
            " \u{200B} \u{200C}\u{200D} ",
            "\u{00AD}",
            "\u{3164}",
            "\u{E0041}\u{E0042}",
            "\u{FE0F}",
        ] {
            let error = DisplayName::parse(invisible).expect_err(invisible);
            assert_eq!(error.to_string(), "Name cannot be empty", "{invisible:?}");
        }
        for steering in [
            "Ada\u{202E}ecalevol",
            "\u{202D}Ada",
            "Ada \u{2066}x\u{2069}",
            "\u{2067}Ada",
            "\u{2068}Ada",
            "Ada\u{202A}",
            "Ada\u{202B}",
            "Ada\u{202C}",
        ] {
            let error = DisplayName::parse(steering).expect_err(steering);
            assert_eq!(
                error.to_string(),
                "Name cannot contain text-direction override or isolate characters",
                "{steering:?}"
            );
        }
        for fine in [
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

    #[test]
    fn avatars_must_be_https_urls_with_a_host() {
        assert!(AvatarUrl::parse("https://cdn.example.com/a.png").is_ok());
        for raw in [
            "http://x.com/a.png",
            "javascript:alert(1)",
            "https://",
            "https:// x",
            "//x.com/a",
        ] {
            assert!(AvatarUrl::parse(raw).is_err(), "{raw}");
        }
    }
}

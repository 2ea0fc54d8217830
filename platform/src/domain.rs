//! Validated input types: a value of one of these has passed the rules, so handlers cannot forget them.

use thiserror::Error;

const MAX_PROFILE_TEXT_CHARS: usize = 200;
const MAX_AVATAR_URL_CHARS: usize = 2048;

/// A rule an input broke; the text is shown to people as is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct InvalidInput(pub String);

/// A person's display name: the rule lives in the shared `mg-domain` crate, which the browser's
/// name editor (core-wasm) checks word for word.
pub use mg_domain::{DisplayName, MAX_NAME_CHARS};

impl From<mg_domain::InvalidName> for InvalidInput {
    fn from(error: mg_domain::InvalidName) -> Self {
        InvalidInput(error.message().into())
    }
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

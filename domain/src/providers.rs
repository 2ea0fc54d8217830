//! The social identity providers the product offers (spec 2.3): the login modal's six buttons, the
//! identity emulator's provider pages, and the label a profile names its provider by.

/// The six providers: (identity-provider id, the name people know it by).
pub const PROVIDERS: [(&str, &str); 6] = [
    ("google", "Google"),
    ("github", "GitHub"),
    ("microsoft", "Microsoft"),
    ("facebook", "Facebook"),
    ("discord", "Discord"),
    ("linkedin", "LinkedIn"),
];

/// The provider a profile is stored with when the user's login ids name none (spec 9: the chat
/// platform).
pub const FALLBACK_PROVIDER: &str = "discord";

/// The label of a provider id, matched without regard to case; the id itself when unknown.
pub fn provider_label(id: &str) -> &str {
    PROVIDERS
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(id))
        .map_or(id, |(_, label)| label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provider_has_a_label_and_the_fallback_is_one_of_them() {
        assert_eq!(provider_label("github"), "GitHub");
        assert_eq!(provider_label("LinkedIn"), "LinkedIn");
        assert_eq!(provider_label("gitlab"), "gitlab");
        assert!(PROVIDERS.iter().any(|(id, _)| *id == FALLBACK_PROVIDER));
    }
}

//! The vocabularies of the status wing (notice kinds, statuses, impacts, webhook formats, delivery
//! states): each an enum whose words are written once, in its declaration, and used alike by serde,
//! the generated TypeScript types, the database rows (`TryFrom<String>`, which sqlx's
//! `#[sqlx(try_from = "String")]` calls as a row is decoded) and `as_str` for what is bound or logged.

use std::fmt;

/// A stored or received word that is not one of a vocabulary's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownWord {
    pub vocabulary: &'static str,
    pub word: String,
}

impl fmt::Display for UnknownWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a {}", self.word, self.vocabulary)
    }
}

impl std::error::Error for UnknownWord {}

/// Declares a vocabulary enum: `pub enum Name("what it is") { Variant = "word", ... }`. Attributes
/// before the enum and its variants pass through (derives, `#[default]`, docs, ts-rs renames).
/// `Variant = "word" => "Shown words"` on every variant adds `words()`, what a page shows for it.
#[macro_export]
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        pub enum $name:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $word:literal => $shown:literal ),+ $(,)?
        }
    ) => {
        $crate::vocabulary! {
            $(#[$meta])*
            pub enum $name ($what) {
                $( $(#[$vmeta])* $variant = $word ),+
            }
        }

        impl $name {
            /// The words shown for it on a page ("Major outage" for `major_outage`).
            pub const fn words(self) -> &'static str {
                match self {
                    $($name::$variant => $shown),+
                }
            }
        }
    };
    (
        $(#[$meta:meta])*
        pub enum $name:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $word:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $word)] $variant ),+
        }

        impl $name {
            /// Every word, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The word as stored, served and logged.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word),+
                }
            }

            pub fn parse(text: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|value| value.as_str() == text)
            }
        }

        impl TryFrom<String> for $name {
            type Error = $crate::words::UnknownWord;

            fn try_from(text: String) -> Result<Self, Self::Error> {
                Self::parse(&text).ok_or($crate::words::UnknownWord {
                    vocabulary: $what,
                    word: text,
                })
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::component_status::ComponentStatus;
    use crate::notices::NoticeStatus;
    use crate::webhooks::WebhookFormat;

    #[test]
    fn each_word_is_stored_as_declared_and_shown_in_the_words_declared_after_it() {
        assert_eq!(NoticeStatus::InProgress.as_str(), "in_progress");
        assert_eq!(NoticeStatus::InProgress.words(), "In progress");
        assert_eq!(ComponentStatus::MajorOutage.words(), "Major outage");
        assert_eq!(WebhookFormat::Json.words(), "JSON");
        assert_eq!(
            NoticeStatus::parse("in_progress"),
            Some(NoticeStatus::InProgress)
        );
    }
}

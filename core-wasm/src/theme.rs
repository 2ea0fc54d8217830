//! The theme state machine (spec sections 3, 4 and 9): two themes, cosmic and void.

use serde::Serialize;

/// The key under which the preference is kept in browser local storage.
pub const STORAGE_KEY: &str = "theme";

/// A colour theme of the site: 'cosmic' (the default) or 'void'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    #[default]
    Cosmic,
    Void,
}

impl Theme {
    /// Reads a stored preference. Anything that is not exactly `"void"` (a missing value, an
    /// old or hand-edited value) reads as cosmic, the default.
    pub fn from_stored(stored: Option<&str>) -> Self {
        match stored {
            Some("void") => Theme::Void,
            _ => Theme::Cosmic,
        }
    }

    /// The other theme: cosmic becomes void, anything else becomes cosmic.
    pub fn toggled(self) -> Self {
        match self {
            Theme::Cosmic => Theme::Void,
            Theme::Void => Theme::Cosmic,
        }
    }
}

/// Holds the current theme; the hook persists [`ThemeMachine::theme`] after every change.
#[derive(Debug, Clone, Default)]
pub struct ThemeMachine {
    theme: Theme,
}

impl ThemeMachine {
    /// Starts from the stored preference (see [`Theme::from_stored`]).
    pub fn new(stored: Option<&str>) -> Self {
        Self {
            theme: Theme::from_stored(stored),
        }
    }

    pub fn theme(&self) -> Theme {
        self.theme
    }

    /// Switches theme and returns the new one.
    pub fn toggle(&mut self) -> Theme {
        self.theme = self.theme.toggled();
        self.theme
    }

    /// Adopts a value seen elsewhere (another tab wrote storage); unknown values read as cosmic.
    pub fn sync(&mut self, stored: Option<&str>) -> Theme {
        self.theme = Theme::from_stored(stored);
        self.theme
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_preference_starts_cosmic() {
        assert_eq!(ThemeMachine::new(None).theme(), Theme::Cosmic);
    }

    #[test]
    fn stored_values_are_read_exactly() {
        let cases = [
            (Some("cosmic"), Theme::Cosmic),
            (Some("void"), Theme::Void),
            (Some("VOID"), Theme::Cosmic),
            (Some(" void"), Theme::Cosmic),
            (Some("dark"), Theme::Cosmic),
            (Some(""), Theme::Cosmic),
            (None, Theme::Cosmic),
        ];
        for (stored, expected) in cases {
            assert_eq!(Theme::from_stored(stored), expected, "stored {stored:?}");
        }
    }

    #[test]
    fn toggle_alternates_between_cosmic_and_void() {
        let mut machine = ThemeMachine::new(Some("cosmic"));
        assert_eq!(machine.toggle(), Theme::Void);
        assert_eq!(machine.toggle(), Theme::Cosmic);
        assert_eq!(stored(machine.toggle()), "void");
    }

    /// What JavaScript receives and stores under `theme` (and sets as `data-theme`).
    fn stored(theme: Theme) -> String {
        serde_json::to_value(theme)
            .expect("serialise")
            .as_str()
            .expect("a theme crosses as a string")
            .to_owned()
    }

    #[test]
    fn an_unknown_stored_value_toggles_to_void_because_it_reads_as_cosmic() {
        let mut machine = ThemeMachine::new(Some("solarized"));
        assert_eq!(stored(machine.theme()), "cosmic");
        assert_eq!(stored(machine.toggle()), "void");
    }

    #[test]
    fn sync_adopts_a_value_written_by_another_tab() {
        let mut machine = ThemeMachine::new(None);
        assert_eq!(machine.sync(Some("void")), Theme::Void);
        assert_eq!(machine.sync(Some("garbage")), Theme::Cosmic);
    }

    #[test]
    fn the_storage_key_is_theme() {
        assert_eq!(STORAGE_KEY, "theme");
    }
}

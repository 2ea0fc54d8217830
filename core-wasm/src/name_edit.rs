//! Editing the display name on the dashboard (spec 4, 5): view, editing, saving, success or error.

use mg_domain::DisplayName;
use serde::Serialize;

/// The display-name rule and its messages are the server's too (the shared `mg-domain` crate).
pub use mg_domain::{NAME_BIDI_CONTROL, NAME_EMPTY, NAME_NOTHING_VISIBLE, NAME_TOO_LONG};
pub const UPDATE_FAILED: &str = "Failed to update name";
pub const UPDATE_SUCCEEDED: &str = "Name updated successfully";
/// How long the success message stays.
pub const SUCCESS_SHOWN_MS: u64 = 3_000;
/// How long an error message stays.
pub const ERROR_SHOWN_MS: u64 = 5_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub enum EditMode {
    #[default]
    View,
    Editing,
    Saving,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub enum NoticeKind {
    Success,
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Notice {
    pub kind: NoticeKind,
    pub text: String,
    #[serde(skip)]
    pub until: u64,
}

/// Everything the dashboard renders about the name.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct NameEditSnapshot {
    pub mode: EditMode,
    /// The name as stored on the server.
    pub name: String,
    /// The text in the input while editing or saving.
    pub draft: String,
    pub notice: Option<Notice>,
}

#[derive(Debug, Clone, Default)]
pub struct NameEditMachine {
    snap: NameEditSnapshot,
}

impl NameEditMachine {
    pub fn new(name: &str) -> Self {
        Self {
            snap: NameEditSnapshot {
                name: name.to_owned(),
                ..NameEditSnapshot::default()
            },
        }
    }

    pub fn snapshot(&self) -> &NameEditSnapshot {
        &self.snap
    }

    pub fn next_deadline(&self) -> Option<u64> {
        self.snap.notice.as_ref().map(|n| n.until)
    }

    /// The stored name changed elsewhere (the user record loaded); ignored while saving.
    pub fn set_name(&mut self, name: &str) {
        if self.snap.mode != EditMode::Saving {
            self.snap.name = name.to_owned();
        }
    }

    /// Opens the input with the stored name.
    pub fn edit(&mut self) {
        if self.snap.mode == EditMode::View {
            self.snap.mode = EditMode::Editing;
            self.snap.draft = self.snap.name.clone();
        }
    }

    pub fn input(&mut self, text: &str) {
        if self.snap.mode == EditMode::Editing {
            self.snap.draft = text.to_owned();
        }
    }

    /// Escape or the cancel button: back to view, the draft dropped.
    pub fn cancel(&mut self) {
        if self.snap.mode == EditMode::Editing {
            self.snap.mode = EditMode::View;
            self.snap.draft.clear();
        }
    }

    /// Enter or the save button. Returns the trimmed name the hook must send, or `None`
    /// (not editing, or empty after trimming: then 'Name cannot be empty' shows for 5 s).
    pub fn save(&mut self, now_ms: u64) -> Option<String> {
        if self.snap.mode != EditMode::Editing {
            return None;
        }
        let name = match DisplayName::parse(&self.snap.draft) {
            Ok(name) => name.into_string(),
            Err(invalid) => {
                self.notice(NoticeKind::Error, invalid.message().to_owned(), now_ms);
                return None;
            }
        };
        self.snap.mode = EditMode::Saving;
        Some(name)
    }

    /// A key pressed in the input: Enter saves, Escape cancels. Returns the name to send, if any.
    pub fn key(&mut self, key: &str, now_ms: u64) -> Option<String> {
        match key {
            "Enter" => self.save(now_ms),
            "Escape" => {
                self.cancel();
                None
            }
            _ => None,
        }
    }

    /// The server stored `name`.
    pub fn saved(&mut self, name: &str, now_ms: u64) {
        if self.snap.mode == EditMode::Saving {
            self.snap.mode = EditMode::View;
            self.snap.name = name.to_owned();
            self.snap.draft.clear();
            self.notice(NoticeKind::Success, UPDATE_SUCCEEDED.to_owned(), now_ms);
        }
    }

    /// The update failed; `message` is the server's (or the API client's) message, if any.
    /// The input stays open with the draft so the user can retry.
    pub fn failed(&mut self, message: Option<&str>, now_ms: u64) {
        if self.snap.mode == EditMode::Saving {
            self.snap.mode = EditMode::Editing;
            let text = message
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .unwrap_or(UPDATE_FAILED);
            self.notice(NoticeKind::Error, text.to_owned(), now_ms);
        }
    }

    /// Time passes; returns true when the notice was cleared.
    pub fn tick(&mut self, now_ms: u64) -> bool {
        if self.next_deadline().is_some_and(|at| now_ms >= at) {
            self.snap.notice = None;
            return true;
        }
        false
    }

    fn notice(&mut self, kind: NoticeKind, text: String, now_ms: u64) {
        let shown = match kind {
            NoticeKind::Success => SUCCESS_SHOWN_MS,
            NoticeKind::Error => ERROR_SHOWN_MS,
        };
        self.snap.notice = Some(Notice {
            kind,
            text,
            until: now_ms.saturating_add(shown),
        });
    }
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn editing(draft: &str) -> NameEditMachine {
        let mut machine = NameEditMachine::new("Ada");
        machine.edit();
        assert_eq!(machine.snapshot().draft, "Ada");
        machine.input(draft);
        machine
    }

    fn notice_text(machine: &NameEditMachine) -> Option<&str> {
        machine.snapshot().notice.as_ref().map(|n| n.text.as_str())
    }

    #[test]
    fn notices_clear_at_the_exact_millisecond() {
        type Flow = fn(&mut NameEditMachine);
        let cases: [(Flow, &str, u64); 4] = [
            (
                |m| {
                    m.save(0);
                    m.saved("Grace", 0);
                },
                UPDATE_SUCCEEDED,
                3_000,
            ),
            (
                |m| {
                    m.save(0);
                    m.failed(Some("Name is too long"), 0);
                },
                "Name is too long",
                5_000,
            ),
            (
                |m| {
                    m.save(0);
                    m.failed(None, 0);
                },
                UPDATE_FAILED,
                5_000,
            ),
            (
                |m| {
                    m.input("   ");
                    m.save(0);
                },
                NAME_EMPTY,
                5_000,
            ),
        ];
        for (flow, text, clears_at) in cases {
            let mut machine = editing("Grace");
            flow(&mut machine);
            assert_eq!(notice_text(&machine), Some(text));
            assert!(!machine.tick(clears_at - 1));
            assert_eq!(
                notice_text(&machine),
                Some(text),
                "still shown at {}",
                clears_at - 1
            );
            assert!(machine.tick(clears_at));
            assert_eq!(notice_text(&machine), None);
        }
    }

    #[test]
    fn saving_sends_the_trimmed_name_and_stores_it() {
        let mut machine = editing("  Grace Hopper  ");
        assert_eq!(machine.key("Enter", 0).as_deref(), Some("Grace Hopper"));
        assert_eq!(machine.snapshot().mode, EditMode::Saving);
        machine.saved("Grace Hopper", 10);
        assert_eq!(machine.snapshot().mode, EditMode::View);
        assert_eq!(machine.snapshot().name, "Grace Hopper");
        assert_eq!(machine.next_deadline(), Some(3_010));
    }

    #[test]
    fn the_shared_name_rule_is_what_the_editor_says() {
        // The rule itself is tested in mg-domain; here, that the editor shows its words and sends
        // nothing, for each way a name can be refused.
        let mut machine = editing(&"x".repeat(101));
        assert_eq!(machine.save(10), None);
        assert_eq!(notice_text(&machine), Some(NAME_TOO_LONG));
        let mut machine = editing("\u{200B}\u{FEFF}");
        assert_eq!(machine.save(10), None);
        assert_eq!(notice_text(&machine), Some(NAME_EMPTY));
        let mut machine = editing("Ada\u{202E}x");
        assert_eq!(machine.save(10), None);
        assert_eq!(notice_text(&machine), Some(NAME_BIDI_CONTROL));
        let mut machine = editing("\u{E000}\u{200B}");
        assert_eq!(machine.save(10), None);
        assert_eq!(notice_text(&machine), Some(NAME_NOTHING_VISIBLE));
        assert_eq!(machine.snapshot().mode, EditMode::Editing);
    }

    #[test]
    fn an_empty_name_is_refused_and_editing_continues() {
        for blank in ["", " ", "\t\n"] {
            let mut machine = editing(blank);
            assert_eq!(machine.save(0), None);
            assert_eq!(machine.snapshot().mode, EditMode::Editing);
            assert_eq!(notice_text(&machine), Some("Name cannot be empty"));
        }
    }

    #[test]
    fn escape_cancels_and_keeps_the_stored_name() {
        let mut machine = editing("Grace");
        assert_eq!(machine.key("Escape", 0), None);
        assert_eq!(machine.snapshot().mode, EditMode::View);
        assert_eq!(machine.snapshot().name, "Ada");
        assert_eq!(machine.snapshot().draft, "");
    }

    #[test]
    fn other_keys_and_out_of_place_events_change_nothing() {
        let mut machine = editing("Grace");
        assert_eq!(machine.key("a", 0), None);
        machine.saved("Mallory", 0);
        machine.failed(Some("x"), 0);
        assert_eq!(machine.snapshot().name, "Ada");
        assert_eq!(machine.snapshot().notice, None);
    }

    #[test]
    fn a_failure_reopens_the_input_with_the_draft() {
        let mut machine = editing("Grace");
        machine.save(0);
        machine.failed(Some("  "), 0);
        assert_eq!(machine.snapshot().mode, EditMode::Editing);
        assert_eq!(machine.snapshot().draft, "Grace");
        assert_eq!(notice_text(&machine), Some("Failed to update name"));
    }

    proptest! {
        #[test]
        fn any_sequence_leaves_a_valid_state(
            events in proptest::collection::vec((0u8..8, 0u64..6_000, ".{0,12}"), 0..50)
        ) {
            let mut machine = NameEditMachine::new("Ada");
            let mut now = 0u64;
            for (kind, step, text) in events {
                now += step;
                match kind {
                    0 => machine.edit(),
                    1 => machine.input(&text),
                    2 => machine.cancel(),
                    3 => { if let Some(sent) = machine.save(now) { prop_assert!(!sent.is_empty() && sent.trim() == sent); } }
                    4 => machine.saved(&text, now),
                    5 => machine.failed(Some(&text), now),
                    6 => { machine.key(if text.len() % 2 == 0 { "Enter" } else { "Escape" }, now); }
                    _ => { machine.tick(now); }
                }
                if let Some(notice) = &machine.snapshot().notice {
                    prop_assert!(!notice.text.is_empty());
                    prop_assert!(notice.until <= now + ERROR_SHOWN_MS);
                }
                if machine.snapshot().mode == EditMode::View { prop_assert!(machine.snapshot().draft.is_empty()); }
            }
        }
    }
}

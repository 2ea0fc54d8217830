//! The Wisdom button (spec 4): idle -> testing -> success or error -> idle after 5 s or 3 s.

use serde::{Deserialize, Serialize};

use crate::api;
use crate::input::{lenient, non_blank};

/// How long a quote or a server error stays shown.
pub const RESET_AFTER_ANSWER_MS: u64 = 5_000;
/// How long the network-failure message stays shown.
pub const RESET_AFTER_NETWORK_FAILURE_MS: u64 = 3_000;
/// Shown when the API could not be reached.
pub const CONNECT_FAILED: &str = "Failed to connect to API";

/// What the button shows. `Testing` disables it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum WisdomSnapshot {
    #[default]
    Idle,
    Testing,
    Success {
        quote: String,
        orator: String,
        #[serde(skip)]
        until: u64,
    },
    Error {
        /// The headline: the server's `error`, 'Server error occurred', or [`CONNECT_FAILED`].
        error: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        instructions: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        #[serde(skip)]
        until: u64,
    },
}

#[derive(Debug, Clone, Default)]
pub struct WisdomMachine {
    state: WisdomSnapshot,
}

/// What the client reads of POST /api/wisdom's answer: `{"wisdom": {"quote", "orator"}}` on
/// success, `{"error", "instructions", "message"}` on failure. Fields of the wrong type read as
/// absent; a body that is not a JSON object reads as [`WisdomAnswer::default`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct WisdomAnswer {
    #[serde(default, deserialize_with = "lenient")]
    pub wisdom: Option<Quote>,
    #[serde(default, deserialize_with = "lenient")]
    pub error: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub instructions: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub message: Option<String>,
}

/// One quote and who said it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Quote {
    #[serde(default, deserialize_with = "lenient")]
    pub quote: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub orator: Option<String>,
}

impl WisdomMachine {
    pub fn state(&self) -> &WisdomSnapshot {
        &self.state
    }

    /// True while the button must be disabled.
    pub fn disabled(&self) -> bool {
        self.state == WisdomSnapshot::Testing
    }

    pub fn next_deadline(&self) -> Option<u64> {
        match self.state {
            WisdomSnapshot::Success { until, .. } | WisdomSnapshot::Error { until, .. } => {
                Some(until)
            }
            _ => None,
        }
    }

    /// A click. Returns true when the hook must call POST /api/wisdom (only from idle).
    pub fn click(&mut self) -> bool {
        if self.state != WisdomSnapshot::Idle {
            return false;
        }
        self.state = WisdomSnapshot::Testing;
        true
    }

    /// The API answered with `status` and `body`. A 2xx with `wisdom.quote` is a success; anything
    /// else is a server error showing the body's `error`, `instructions` and `message`.
    pub fn answered(&mut self, status: u16, body: &WisdomAnswer, now_ms: u64) {
        if self.state != WisdomSnapshot::Testing {
            return;
        }
        let until = now_ms.saturating_add(RESET_AFTER_ANSWER_MS);
        if api::is_success(status) {
            let wisdom = body.wisdom.as_ref();
            if let Some(quote) = non_blank(wisdom.and_then(|w| w.quote.as_deref())) {
                let orator = non_blank(wisdom.and_then(|w| w.orator.as_deref()))
                    .unwrap_or_else(|| "Unknown".to_owned());
                self.state = WisdomSnapshot::Success {
                    quote,
                    orator,
                    until,
                };
                return;
            }
        }
        self.state = WisdomSnapshot::Error {
            error: non_blank(body.error.as_deref()).unwrap_or_else(|| api::SERVER_ERROR.to_owned()),
            instructions: non_blank(body.instructions.as_deref()),
            message: non_blank(body.message.as_deref()),
            until,
        };
    }

    /// No answer arrived.
    pub fn network_failed(&mut self, now_ms: u64) {
        if self.state != WisdomSnapshot::Testing {
            return;
        }
        self.state = WisdomSnapshot::Error {
            error: CONNECT_FAILED.to_owned(),
            instructions: None,
            message: None,
            until: now_ms.saturating_add(RESET_AFTER_NETWORK_FAILURE_MS),
        };
    }

    /// Time passes; returns true when the state changed (back to idle).
    pub fn tick(&mut self, now_ms: u64) -> bool {
        if self.next_deadline().is_some_and(|at| now_ms >= at) {
            self.state = WisdomSnapshot::Idle;
            return true;
        }
        false
    }
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::input::read_json;
    use proptest::prelude::*;

    const QUOTE: &str = r#"{"wisdom":{"quote":"Know thyself.","orator":"Socrates"}}"#;

    /// A body text read as the binding reads it (not JSON, or not an object: the default).
    fn body(text: &str) -> WisdomAnswer {
        read_json(text).unwrap_or_default()
    }

    fn testing() -> WisdomMachine {
        let mut machine = WisdomMachine::default();
        assert!(machine.click());
        assert!(machine.disabled());
        machine
    }

    #[test]
    fn resets_happen_at_the_exact_millisecond() {
        // (how the call ended, last ms still showing, ms of the reset)
        type End = fn(&mut WisdomMachine);
        let cases: [(End, u64, u64); 3] = [
            (|m| m.answered(200, &body(QUOTE), 0), 4_999, 5_000),
            (
                |m| m.answered(500, &body(r#"{"error":"Database unavailable"}"#), 0),
                4_999,
                5_000,
            ),
            (|m| m.network_failed(0), 2_999, 3_000),
        ];
        for (end, showing, reset) in cases {
            let mut machine = testing();
            end(&mut machine);
            assert!(!machine.tick(showing), "still showing at {showing}");
            assert_ne!(machine.state(), &WisdomSnapshot::Idle);
            assert!(machine.tick(reset), "reset at {reset}");
            assert_eq!(machine.state(), &WisdomSnapshot::Idle);
            assert_eq!(machine.next_deadline(), None);
        }
    }

    #[test]
    fn a_quote_is_shown_with_its_orator() {
        let mut machine = testing();
        machine.answered(200, &body(QUOTE), 10);
        assert_eq!(
            machine.state(),
            &WisdomSnapshot::Success {
                quote: "Know thyself.".into(),
                orator: "Socrates".into(),
                until: 5_010
            }
        );
        assert!(!machine.disabled());
    }

    #[test]
    fn server_errors_show_error_instructions_and_message() {
        let mut machine = testing();
        let text = r#"{"error":"No wisdom yet","instructions":"Seed the database","message":"table empty"}"#;
        machine.answered(503, &body(text), 0);
        assert_eq!(
            machine.state(),
            &WisdomSnapshot::Error {
                error: "No wisdom yet".into(),
                instructions: Some("Seed the database".into()),
                message: Some("table empty".into()),
                until: 5_000
            }
        );
        let mut bare = testing();
        bare.answered(500, &body("not json"), 0);
        assert!(
            matches!(bare.state(), WisdomSnapshot::Error { error, .. } if error == "Server error occurred")
        );
        let mut empty_ok = testing();
        empty_ok.answered(200, &body("{}"), 0);
        assert!(matches!(empty_ok.state(), WisdomSnapshot::Error { .. }));
    }

    #[test]
    fn odd_fields_in_the_answer_read_as_absent_and_the_rest_still_counts() {
        let mut machine = testing();
        machine.answered(
            200,
            &body(r#"{"wisdom":{"quote":" Q ","orator":7},"error":1}"#),
            0,
        );
        assert!(
            matches!(machine.state(), WisdomSnapshot::Success { quote, orator, .. } if quote == "Q" && orator == "Unknown")
        );
    }

    #[test]
    fn the_snapshot_crosses_with_its_status_tag_and_without_its_deadline() {
        let shown = WisdomSnapshot::Error {
            error: "No wisdom yet".into(),
            instructions: None,
            message: Some("m".into()),
            until: 5_000,
        };
        assert_eq!(
            serde_json::to_value(&shown).expect("serialise"),
            serde_json::json!({"status": "error", "error": "No wisdom yet", "message": "m"})
        );
    }

    #[test]
    fn a_network_failure_says_failed_to_connect_to_api() {
        let mut machine = testing();
        machine.network_failed(0);
        assert!(
            matches!(machine.state(), WisdomSnapshot::Error { error, until: 3_000, .. } if error == "Failed to connect to API")
        );
    }

    #[test]
    fn clicks_while_busy_or_showing_do_nothing() {
        let mut machine = testing();
        assert!(!machine.click());
        machine.answered(200, &body(QUOTE), 0);
        assert!(!machine.click());
        machine.tick(5_000);
        assert!(machine.click());
    }

    #[test]
    fn answers_outside_testing_are_ignored() {
        let mut machine = WisdomMachine::default();
        machine.answered(200, &body(QUOTE), 0);
        machine.network_failed(0);
        assert_eq!(machine.state(), &WisdomSnapshot::Idle);
    }

    proptest! {
        #[test]
        fn any_sequence_keeps_deadline_and_state_consistent(
            events in proptest::collection::vec((0u8..4, 0u64..10_000, 0u16..600, ".{0,30}"), 0..40)
        ) {
            let mut machine = WisdomMachine::default();
            let mut now = 0u64;
            for (kind, step, status, text) in events {
                now += step;
                match kind {
                    0 => { machine.click(); }
                    1 => machine.answered(status, &body(&text), now),
                    2 => machine.network_failed(now),
                    _ => { machine.tick(now); }
                }
                match machine.state() {
                    WisdomSnapshot::Idle | WisdomSnapshot::Testing => prop_assert_eq!(machine.next_deadline(), None),
                    _ => prop_assert!(machine.next_deadline().is_some_and(|at| at <= now + 5_000)),
                }
            }
        }
    }
}

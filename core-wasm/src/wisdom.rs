//! The Wisdom button (spec 4): idle -> testing -> success or error -> idle after 5 s or 3 s.

use crate::json::{self, JsonRead, ToJson, Value, Writer};

use crate::api;

/// How long a quote or a server error stays shown.
pub const RESET_AFTER_ANSWER_MS: u64 = 5_000;
/// How long the network-failure message stays shown.
pub const RESET_AFTER_NETWORK_FAILURE_MS: u64 = 3_000;
/// Shown when the API could not be reached.
pub const CONNECT_FAILED: &str = "Failed to connect to API";

/// What the button shows. `Testing` disables it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(test, derive(serde::Serialize))]
#[cfg_attr(test, serde(tag = "status", rename_all = "camelCase"))]
pub enum WisdomState {
    #[default]
    Idle,
    Testing,
    Success {
        quote: String,
        orator: String,
        #[cfg_attr(test, serde(skip))]
        until: u64,
    },
    Error {
        /// The headline: the server's `error`, 'Server error occurred', or [`CONNECT_FAILED`].
        error: String,
        #[cfg_attr(test, serde(skip_serializing_if = "Option::is_none"))]
        instructions: Option<String>,
        #[cfg_attr(test, serde(skip_serializing_if = "Option::is_none"))]
        message: Option<String>,
        #[cfg_attr(test, serde(skip))]
        until: u64,
    },
}

#[derive(Debug, Clone, Default)]
pub struct WisdomMachine {
    state: WisdomState,
}

fn field(value: &Value, key: &str) -> Option<String> {
    let text = value.get(key)?.as_str()?.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

impl WisdomMachine {
    pub fn state(&self) -> &WisdomState {
        &self.state
    }

    /// True while the button must be disabled.
    pub fn disabled(&self) -> bool {
        self.state == WisdomState::Testing
    }

    pub fn next_deadline(&self) -> Option<u64> {
        match self.state {
            WisdomState::Success { until, .. } | WisdomState::Error { until, .. } => Some(until),
            _ => None,
        }
    }

    /// A click. Returns true when the hook must call POST /api/wisdom (only from idle).
    pub fn click(&mut self) -> bool {
        if self.state != WisdomState::Idle {
            return false;
        }
        self.state = WisdomState::Testing;
        true
    }

    /// The API answered with `status` and `body`. A 2xx with `wisdom.quote` is a success; anything
    /// else is a server error showing the body's `error`, `instructions` and `message`.
    pub fn answered(&mut self, status: u16, body: &str, now_ms: u64) {
        if self.state != WisdomState::Testing {
            return;
        }
        let until = now_ms.saturating_add(RESET_AFTER_ANSWER_MS);
        let json = json::parse(body).unwrap_or(Value::Null);
        if api::is_success(status) {
            let wisdom = json.get("wisdom").unwrap_or(&Value::Null);
            if let Some(quote) = field(wisdom, "quote") {
                let orator = field(wisdom, "orator").unwrap_or_else(|| "Unknown".to_owned());
                self.state = WisdomState::Success {
                    quote,
                    orator,
                    until,
                };
                return;
            }
        }
        self.state = WisdomState::Error {
            error: field(&json, "error").unwrap_or_else(|| api::SERVER_ERROR.to_owned()),
            instructions: field(&json, "instructions"),
            message: field(&json, "message"),
            until,
        };
    }

    /// No answer arrived.
    pub fn network_failed(&mut self, now_ms: u64) {
        if self.state != WisdomState::Testing {
            return;
        }
        self.state = WisdomState::Error {
            error: CONNECT_FAILED.to_owned(),
            instructions: None,
            message: None,
            until: now_ms.saturating_add(RESET_AFTER_NETWORK_FAILURE_MS),
        };
    }

    /// Time passes; returns true when the state changed (back to idle).
    pub fn tick(&mut self, now_ms: u64) -> bool {
        if self.next_deadline().is_some_and(|at| now_ms >= at) {
            self.state = WisdomState::Idle;
            return true;
        }
        false
    }
}

impl ToJson for WisdomState {
    fn write_json(&self, out: &mut Writer) {
        out.open().key("status");
        match self {
            Self::Idle => out.string("idle"),
            Self::Testing => out.string("testing"),
            Self::Success { quote, orator, .. } => {
                out.string("success").key("quote").string(quote);
                out.key("orator").string(orator)
            }
            Self::Error {
                error,
                instructions,
                message,
                ..
            } => {
                out.string("error").key("error").string(error);
                if let Some(instructions) = instructions {
                    out.key("instructions").string(instructions);
                }
                if let Some(message) = message {
                    out.key("message").string(message);
                }
                out
            }
        }
        .close();
    }
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const QUOTE: &str = r#"{"wisdom":{"quote":"Know thyself.","orator":"Socrates"}}"#;

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
            (|m| m.answered(200, QUOTE, 0), 4_999, 5_000),
            (
                |m| m.answered(500, r#"{"error":"Database unavailable"}"#, 0),
                4_999,
                5_000,
            ),
            (|m| m.network_failed(0), 2_999, 3_000),
        ];
        for (end, showing, reset) in cases {
            let mut machine = testing();
            end(&mut machine);
            assert!(!machine.tick(showing), "still showing at {showing}");
            assert_ne!(machine.state(), &WisdomState::Idle);
            assert!(machine.tick(reset), "reset at {reset}");
            assert_eq!(machine.state(), &WisdomState::Idle);
            assert_eq!(machine.next_deadline(), None);
        }
    }

    #[test]
    fn a_quote_is_shown_with_its_orator() {
        let mut machine = testing();
        machine.answered(200, QUOTE, 10);
        assert_eq!(
            machine.state(),
            &WisdomState::Success {
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
        let body = r#"{"error":"No wisdom yet","instructions":"Seed the database","message":"table empty"}"#;
        machine.answered(503, body, 0);
        assert_eq!(
            machine.state(),
            &WisdomState::Error {
                error: "No wisdom yet".into(),
                instructions: Some("Seed the database".into()),
                message: Some("table empty".into()),
                until: 5_000
            }
        );
        let mut bare = testing();
        bare.answered(500, "not json", 0);
        assert!(
            matches!(bare.state(), WisdomState::Error { error, .. } if error == "Server error occurred")
        );
        let mut empty_ok = testing();
        empty_ok.answered(200, "{}", 0);
        assert!(matches!(empty_ok.state(), WisdomState::Error { .. }));
    }

    #[test]
    fn a_network_failure_says_failed_to_connect_to_api() {
        let mut machine = testing();
        machine.network_failed(0);
        assert!(
            matches!(machine.state(), WisdomState::Error { error, until: 3_000, .. } if error == "Failed to connect to API")
        );
    }

    #[test]
    fn clicks_while_busy_or_showing_do_nothing() {
        let mut machine = testing();
        assert!(!machine.click());
        machine.answered(200, QUOTE, 0);
        assert!(!machine.click());
        machine.tick(5_000);
        assert!(machine.click());
    }

    #[test]
    fn answers_outside_testing_are_ignored() {
        let mut machine = WisdomMachine::default();
        machine.answered(200, QUOTE, 0);
        machine.network_failed(0);
        assert_eq!(machine.state(), &WisdomState::Idle);
    }

    proptest! {
        #[test]
        fn any_sequence_keeps_deadline_and_state_consistent(
            events in proptest::collection::vec((0u8..4, 0u64..10_000, 0u16..600, ".{0,30}"), 0..40)
        ) {
            let mut machine = WisdomMachine::default();
            let mut now = 0u64;
            for (kind, step, status, body) in events {
                now += step;
                match kind {
                    0 => { machine.click(); }
                    1 => machine.answered(status, &body, now),
                    2 => machine.network_failed(now),
                    _ => { machine.tick(now); }
                }
                match machine.state() {
                    WisdomState::Idle | WisdomState::Testing => prop_assert_eq!(machine.next_deadline(), None),
                    _ => prop_assert!(machine.next_deadline().is_some_and(|at| at <= now + 5_000)),
                }
            }
        }
    }
}

//! The API client's error rule (spec 8): which message a failed call shows.

use serde::Deserialize;

use crate::input::{lenient, non_blank};

/// Shown when the server answered with an error but no `error` field.
pub const SERVER_ERROR: &str = "Server error occurred";
/// Shown when no answer arrived at all.
pub const NETWORK_ERROR: &str = "Network error - please check your connection";

/// True for the 2xx statuses.
pub fn is_success(status: u16) -> bool {
    (200..300).contains(&status)
}

/// What the client reads of an error body (`{"error": "...", "code": "..."}`); anything else in
/// it, or an `error` that is not a string, is ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct ErrorBody {
    #[serde(default, deserialize_with = "lenient")]
    pub error: Option<String>,
}

/// The message of a call: `None` when it succeeded (2xx), otherwise what to show.
/// `status` is `None` when no response arrived (network failure); `body` is `None` when there was
/// none or it was not a JSON object.
pub fn error_message(status: Option<u16>, body: Option<&ErrorBody>) -> Option<String> {
    match status {
        None => Some(NETWORK_ERROR.to_owned()),
        Some(code) if is_success(code) => None,
        Some(_) => Some(
            non_blank(body.and_then(|b| b.error.as_deref()))
                .unwrap_or_else(|| SERVER_ERROR.to_owned()),
        ),
    }
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::input::read_json;
    use proptest::prelude::*;

    /// The rule applied to a raw body text, as the binding does.
    fn message_for(status: Option<u16>, body: Option<&str>) -> Option<String> {
        let body = body.and_then(read_json::<ErrorBody>);
        error_message(status, body.as_ref())
    }

    #[test]
    fn the_error_rule_is_applied_exactly() {
        let cases: [(Option<u16>, Option<&str>, Option<&str>); 9] = [
            (Some(200), Some(r#"{"data":1}"#), None),
            (Some(204), None, None),
            (
                Some(400),
                Some(r#"{"error":"Name is too long","code":"x"}"#),
                Some("Name is too long"),
            ),
            (Some(500), Some(r#"{"message":"boom"}"#), Some(SERVER_ERROR)),
            (
                Some(502),
                Some("<html>bad gateway</html>"),
                Some(SERVER_ERROR),
            ),
            (Some(401), Some(r#"{"error":""}"#), Some(SERVER_ERROR)),
            (Some(403), Some(r#"{"error":42}"#), Some(SERVER_ERROR)),
            (Some(404), None, Some(SERVER_ERROR)),
            (None, None, Some(NETWORK_ERROR)),
        ];
        for (status, body, expected) in cases {
            assert_eq!(
                message_for(status, body).as_deref(),
                expected,
                "{status:?} {body:?}"
            );
        }
    }

    #[test]
    fn the_messages_are_the_spec_text() {
        assert_eq!(SERVER_ERROR, "Server error occurred");
        assert_eq!(
            NETWORK_ERROR,
            "Network error - please check your connection"
        );
    }

    proptest! {
        #[test]
        fn any_answer_yields_a_message_exactly_when_it_failed(status in proptest::option::of(0u16..1000), body in proptest::option::of(".{0,40}")) {
            let message = message_for(status, body.as_deref());
            let failed = status.is_none_or(|s| !is_success(s));
            prop_assert_eq!(message.is_some(), failed);
            if let Some(m) = message { prop_assert!(!m.is_empty()); }
        }
    }
}

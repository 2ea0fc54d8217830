//! Every row of the spec 8 table for the callback page, at the exact millisecond boundaries.

use super::*;
use crate::input::read_json;
use proptest::prelude::*;

/// The state the login stored in this browser and the provider sent back in the callback URL.
const STATE: &str = "q8Xv2mJ0c9Qn4sW7bY1tZg";

fn exchanging(localhost: bool) -> AuthCallbackMachine {
    let mut machine = AuthCallbackMachine::new(localhost);
    assert_eq!(
        machine.start(Some("abc"), None, Some(STATE), Some(STATE), 0),
        Some(CallbackEffect::Exchange { code: "abc".into() })
    );
    machine
}

fn landing(error: SignInError) -> CallbackDestination {
    CallbackDestination::Landing { error }
}

fn failure(code: Option<&str>, message: Option<&str>) -> ExchangeOutcome {
    ExchangeOutcome {
        ok: false,
        user: None,
        error_code: code.map(str::to_owned),
        message: message.map(str::to_owned),
    }
}

#[test]
fn exchange_errors_map_to_the_catalogue() {
    // (code, message, localhost, shown, help, redirect)
    type Case<'a> = (
        Option<&'a str>,
        Option<&'a str>,
        bool,
        &'a str,
        bool,
        Option<CallbackDestination>,
    );
    let cases: [Case; 7] = [
        (
            Some("E061301"),
            None,
            false,
            PROVIDER_NOT_CONFIGURED,
            true,
            None,
        ),
        (
            None,
            Some("Failed exchanging code"),
            false,
            PROVIDER_NOT_CONFIGURED,
            true,
            None,
        ),
        (
            Some("E062209"),
            None,
            false,
            REGISTRATION_REQUIRED,
            true,
            None,
        ),
        (
            None,
            Some("the user must exist first"),
            true,
            REGISTRATION_REQUIRED,
            true,
            None,
        ),
        (
            Some("E011003"),
            Some("Bad code"),
            false,
            "Authentication failed: Bad code",
            false,
            Some(landing(SignInError::AuthFailed)),
        ),
        (
            Some("E011003"),
            Some("Bad code"),
            true,
            "Authentication failed: Bad code",
            true,
            None,
        ),
        (
            Some("E099999"),
            None,
            false,
            "Authentication failed: E099999",
            false,
            Some(landing(SignInError::AuthFailed)),
        ),
    ];
    for (code, message, localhost, shown, help, redirect) in cases {
        let mut machine = exchanging(localhost);
        assert_eq!(machine.exchanged(failure(code, message), 1_000), None);
        let snap = machine.snapshot();
        assert_eq!(snap.phase, CallbackPhase::Failed);
        assert_eq!(snap.message.as_deref(), Some(shown), "{code:?} {message:?}");
        assert_eq!(snap.show_help, help, "{code:?} {message:?}");
        assert_eq!(snap.redirect_to, redirect);
        assert_eq!(machine.next_deadline(), redirect.map(|_| 4_000));
    }
}

#[test]
fn the_spec_messages_are_exact() {
    assert_eq!(
        NO_CODE,
        "No authorization code received from OAuth provider"
    );
    assert_eq!(
        PROVIDER_NOT_CONFIGURED,
        "OAuth Provider Configuration Required - Discord may not be enabled in the identity provider"
    );
    assert_eq!(
        REGISTRATION_REQUIRED,
        "New user registration may be required. Please contact support."
    );
    assert_eq!(TIMEOUT, "Authentication timeout - please try again");
    assert_eq!(
        STATE_MISMATCH,
        "This sign-in link was started in another browser or has already been used. Please sign in again."
    );
}

#[test]
fn a_code_is_exchanged_only_with_the_state_this_browser_stored() {
    // (the URL's state, the stored state): a code from a sign-in another browser started, a link
    // opened a second time (its state already taken), or anything tampered with.
    let refused: [(Option<&str>, Option<&str>); 8] = [
        (None, None),
        (Some(STATE), None),
        (None, Some(STATE)),
        (Some("another-browsers-state"), Some(STATE)),
        (Some(""), Some("")),
        (Some(""), Some(STATE)),
        (Some("Q8XV2MJ0C9QN4SW7BY1TZG"), Some(STATE)),
        (Some(" q8Xv2mJ0c9Qn4sW7bY1tZg"), Some(STATE)),
    ];
    for (state, expected) in refused {
        let mut machine = AuthCallbackMachine::new(true);
        assert_eq!(
            machine.start(Some("abc"), None, state, expected, 1_000),
            None,
            "{state:?} {expected:?}: no exchange"
        );
        let snap = machine.snapshot();
        assert_eq!(snap.phase, CallbackPhase::Failed);
        assert_eq!(snap.message.as_deref(), Some(STATE_MISMATCH));
        assert!(
            !snap.show_help,
            "the provider help is beside the point here"
        );
        assert_eq!(machine.next_deadline(), Some(4_000));
        assert_eq!(machine.tick(3_999), None);
        assert_eq!(
            machine.tick(4_000),
            Some(CallbackEffect::Navigate {
                to: landing(SignInError::CallbackError)
            })
        );
        // Nothing later can start the exchange on this page.
        assert_eq!(
            machine.start(Some("abc"), None, Some(STATE), Some(STATE), 5_000),
            None
        );
        assert_eq!(
            machine.exchanged(
                ExchangeOutcome {
                    ok: true,
                    ..ExchangeOutcome::default()
                },
                5_000
            ),
            None
        );
    }
    let mut machine = AuthCallbackMachine::new(true);
    assert_eq!(
        machine.start(Some(" abc "), None, Some(STATE), Some(STATE), 0),
        Some(CallbackEffect::Exchange { code: "abc".into() })
    );
}

#[test]
fn a_provider_error_or_a_missing_code_is_reported_as_before_whatever_the_state() {
    // Neither exchanges anything, so the provider's own words (or the missing code) are the news.
    for (state, expected) in [(None, None), (Some("x"), Some(STATE))] {
        let mut machine = AuthCallbackMachine::new(false);
        machine.start(Some("abc"), Some("access_denied"), state, expected, 0);
        assert_eq!(
            machine.snapshot().message.as_deref(),
            Some("Authentication error: access_denied")
        );
        let mut machine = AuthCallbackMachine::new(false);
        machine.start(None, None, state, expected, 0);
        assert_eq!(machine.snapshot().message.as_deref(), Some(NO_CODE));
    }
}

#[test]
fn a_missing_code_redirects_to_no_code_after_exactly_3_s() {
    for code in [None, Some(""), Some("  ")] {
        let mut machine = AuthCallbackMachine::new(false);
        assert_eq!(
            machine.start(code, None, Some(STATE), Some(STATE), 500),
            None
        );
        assert_eq!(machine.snapshot().message.as_deref(), Some(NO_CODE));
        assert_eq!(machine.tick(3_499), None);
        assert_eq!(
            machine.tick(3_500),
            Some(CallbackEffect::Navigate {
                to: landing(SignInError::NoCode)
            })
        );
        assert_eq!(machine.tick(3_501), None, "navigates once");
        assert_eq!(machine.next_deadline(), None);
    }
}

#[test]
fn auth_failed_redirects_after_exactly_3_s() {
    let mut machine = exchanging(false);
    machine.exchanged(failure(None, Some("expired")), 2_000);
    assert_eq!(machine.tick(4_999), None);
    assert_eq!(
        machine.tick(5_000),
        Some(CallbackEffect::Navigate {
            to: landing(SignInError::AuthFailed)
        })
    );
}

#[test]
fn a_provider_error_parameter_is_a_callback_error() {
    let mut machine = AuthCallbackMachine::new(false);
    assert_eq!(
        machine.start(
            Some("abc"),
            Some("access_denied"),
            Some(STATE),
            Some(STATE),
            0
        ),
        None
    );
    assert_eq!(
        machine.snapshot().message.as_deref(),
        Some("Authentication error: access_denied")
    );
    assert_eq!(
        machine.tick(3_000),
        Some(CallbackEffect::Navigate {
            to: landing(SignInError::CallbackError)
        })
    );
}

#[test]
fn a_thrown_exchange_shows_its_message_without_redirect() {
    let mut machine = exchanging(false);
    machine.exchange_threw("fetch failed", 100);
    assert_eq!(
        machine.snapshot().message.as_deref(),
        Some("OAuth exchange failed: fetch failed")
    );
    assert!(machine.snapshot().show_help);
    assert_eq!(machine.next_deadline(), None);
}

#[test]
fn ten_seconds_without_an_outcome_times_out_exactly() {
    for step in 0..3 {
        let mut machine = exchanging(false);
        if step >= 1 {
            machine.exchanged(
                ExchangeOutcome {
                    ok: true,
                    ..ExchangeOutcome::default()
                },
                10,
            );
        }
        if step >= 2 {
            machine.user_read(None);
        }
        assert_eq!(machine.next_deadline(), Some(10_000));
        machine.tick(9_999);
        assert_ne!(
            machine.snapshot().phase,
            CallbackPhase::Failed,
            "step {step} still running at 9 999"
        );
        machine.tick(10_000);
        assert_eq!(machine.snapshot().message.as_deref(), Some(TIMEOUT));
        // A late answer changes nothing.
        assert_eq!(machine.profile_updated(), None);
        assert_eq!(
            machine.exchanged(
                ExchangeOutcome {
                    ok: true,
                    ..ExchangeOutcome::default()
                },
                11_000
            ),
            None
        );
        assert_eq!(machine.snapshot().message.as_deref(), Some(TIMEOUT));
    }
}

fn discord_user() -> IdentityUser {
    IdentityUser {
        name: Some("Ada Lovelace".into()),
        display_name: Some("ada".into()),
        username: Some("ada#1815".into()),
        picture: Some("https://cdn.example/a.png".into()),
        login_ids: vec!["discord-1815".into()],
        ..IdentityUser::default()
    }
}

#[test]
fn success_reads_the_user_updates_the_profile_and_goes_home() {
    let mut machine = exchanging(false);
    let ok = ExchangeOutcome {
        ok: true,
        user: Some(discord_user()),
        ..ExchangeOutcome::default()
    };
    assert_eq!(machine.exchanged(ok, 100), Some(CallbackEffect::ReadUser));
    let Some(CallbackEffect::UpdateProfile { payload }) = machine.user_read(None) else {
        panic!("expected a profile update");
    };
    assert_eq!(payload.name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(payload.profile.oauth_provider, "discord");
    assert_eq!(
        payload.profile.oauth_data.display_name.as_deref(),
        Some("ada")
    );
    assert_eq!(
        payload.profile.oauth_data.avatar.as_deref(),
        Some("https://cdn.example/a.png")
    );
    assert_eq!(
        machine.profile_updated(),
        Some(CallbackEffect::Navigate {
            to: CallbackDestination::Home
        })
    );
    assert_eq!(machine.snapshot().phase, CallbackPhase::Done);
    assert_eq!(machine.next_deadline(), None);
}

#[test]
fn the_profile_decision_sets_the_name_only_when_none_is_stored() {
    let user = discord_user();
    let cases: [(Option<&str>, Option<&str>); 4] = [
        (None, Some("Ada Lovelace")),
        (Some(""), Some("Ada Lovelace")),
        (Some("  "), Some("Ada Lovelace")),
        (Some("Countess"), None),
    ];
    for (stored, name) in cases {
        assert_eq!(
            ProfileUpdate::decide(stored, &user).name.as_deref(),
            name,
            "{stored:?}"
        );
    }
    let nameless = IdentityUser {
        login_ids: vec!["github-7".into()],
        ..IdentityUser::default()
    };
    let update = ProfileUpdate::decide(None, &nameless);
    assert_eq!(update.name, None, "no name given by the provider");
    assert_eq!(update.profile.oauth_provider, "github");
}

#[test]
fn the_sdk_answer_is_read_with_null_and_odd_fields() {
    let value =
        serde_json::json!({"ok": true, "user": {"name": "Ada", "picture": 3, "loginIds": null}});
    let outcome = ExchangeOutcome::deserialize(value).expect("an object reads");
    assert!(outcome.ok);
    let user = outcome.user.expect("user present");
    assert_eq!(user.name.as_deref(), Some("Ada"));
    assert_eq!(user.picture, None);
    assert!(user.login_ids.is_empty());
    let failed: ExchangeOutcome =
        read_json(r#"{"errorCode": "E061301", "message": "m"}"#).expect("an object reads");
    assert!(!failed.ok);
    assert_eq!(failed.error_code.as_deref(), Some("E061301"));
    let odd: ExchangeOutcome =
        read_json(r#"{"ok": "yes", "user": "Ada", "errorCode": 7}"#).expect("an object reads");
    assert_eq!(
        odd,
        ExchangeOutcome::default(),
        "each odd field reads as absent"
    );
}

#[test]
fn the_provider_falls_back_to_discord() {
    for ids in [
        vec![],
        vec!["ada@example.com".to_owned()],
        vec!["U123".to_owned()],
    ] {
        let user = IdentityUser {
            login_ids: ids,
            ..IdentityUser::default()
        };
        assert_eq!(user.provider(), "discord");
    }
}

#[test]
fn the_payload_serialises_as_the_api_expects() {
    let json = serde_json::to_value(ProfileUpdate::decide(Some("Ada"), &discord_user()))
        .expect("serialise");
    assert_eq!(
        json,
        serde_json::json!({"profile": {"oauthProvider": "discord", "oauthData": {
            "username": "ada#1815", "displayName": "ada", "avatar": "https://cdn.example/a.png"}}})
    );
}

#[test]
fn a_destination_names_a_page_and_the_landing_pages_error_value() {
    let navigate = |to| serde_json::to_value(CallbackEffect::Navigate { to }).expect("serialise");
    assert_eq!(
        navigate(CallbackDestination::Home),
        serde_json::json!({"kind": "navigate", "to": {"page": "home"}})
    );
    for (error, value) in [
        (SignInError::NoCode, "no_code"),
        (SignInError::AuthFailed, "auth_failed"),
        (SignInError::CallbackError, "callback_error"),
    ] {
        assert_eq!(
            navigate(landing(error)),
            serde_json::json!({"kind": "navigate", "to": {"page": "landing", "error": value}})
        );
    }
}

#[test]
fn a_failed_step_after_the_exchange_is_a_callback_error() {
    let mut machine = exchanging(false);
    machine.exchanged(
        ExchangeOutcome {
            ok: true,
            ..ExchangeOutcome::default()
        },
        0,
    );
    machine.step_failed("Server error occurred", 200);
    assert_eq!(
        machine.snapshot().message.as_deref(),
        Some("Authentication error: Server error occurred")
    );
    assert_eq!(machine.tick(3_199), None);
    assert_eq!(
        machine.tick(3_200),
        Some(CallbackEffect::Navigate {
            to: landing(SignInError::CallbackError)
        })
    );
}

proptest! {
    #[test]
    fn any_sequence_leaves_a_valid_state(
        localhost: bool,
        events in proptest::collection::vec((0u8..8, 0u64..6_000, proptest::option::of("[A-Za-z0-9 ]{0,12}")), 0..30)
    ) {
        let mut machine = AuthCallbackMachine::new(localhost);
        let mut now = 0u64;
        for (kind, step, text) in events {
            now += step;
            let t = text.as_deref();
            match kind {
                0 => {
                    // The same state, another one, or none: an exchange only for the same one.
                    let expected = match step % 3 { 0 => t, 1 => Some("s"), _ => None };
                    let effect = machine.start(t, None, t, expected, now);
                    if matches!(effect, Some(CallbackEffect::Exchange { .. })) {
                        prop_assert!(t.is_some_and(|t| !t.is_empty()) && expected == t);
                    }
                }
                1 => { machine.exchanged(ExchangeOutcome { ok: t.is_none(), message: text.clone(), ..ExchangeOutcome::default() }, now); }
                2 => machine.exchange_threw(t.unwrap_or(""), now),
                3 => { machine.user_read(t); }
                4 => { machine.profile_updated(); }
                5 => machine.step_failed(t.unwrap_or(""), now),
                6 => { machine.start(Some("c"), t, Some("s"), Some("s"), now); }
                _ => { machine.tick(now); }
            }
            let snap = machine.snapshot();
            if snap.phase == CallbackPhase::Failed {
                prop_assert!(snap.message.as_deref().is_some_and(|m| !m.is_empty()));
                prop_assert!(snap.show_help != snap.redirect_to.is_some());
            }
            if let Some(at) = machine.next_deadline() { prop_assert!(at <= now + TIMEOUT_MS); }
        }
    }
}

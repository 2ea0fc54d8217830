//! Logging out on a device ends it for good: its token is refused afterwards however it is sent
//! (its own session id, another, none; a copy of the same sign-in under another id), on every
//! route and instance, and so is a later token of the same sign-in; the other devices go on.

use serde_json::json;

use crate::helpers::TestApp;
use crate::identity_double::now_seconds;
use crate::revocation::{assert_revoked, call, call_ok, me, second_instance, token};
use crate::status_operators::incident_body;

const PHONE: &str = "phone-0123456789abcdef";
const LAPTOP: &str = "laptop-0123456789abcdef";

/// The sessions the laptop's account page lists.
async fn laptop_sessions(app: &TestApp, laptop: &str) -> Vec<serde_json::Value> {
    let listed = call_ok(app, laptop, Some(LAPTOP), "/api/auth/sessions", &json!({})).await;
    listed["sessions"].as_array().expect("sessions").clone()
}

async fn a_logged_out_devices_tokens_are_refused_however_sent_and_wherever(app: TestApp) {
    let second = second_instance(&app).await;
    let now = now_seconds();
    let laptop = token(&app, "ada", Some("sign-in-laptop"), now, &[]);
    let phone = token(
        &app,
        "ada",
        Some("sign-in-phone"),
        now,
        &["status-operator"],
    );
    assert_eq!(me(&app, &laptop, Some(LAPTOP)).await, 200);
    assert_eq!(me(&app, &phone, Some(PHONE)).await, 200);
    // A copy of the phone's sign-in under another session id.
    assert_eq!(
        me(&second, &phone, Some("phone-copy-0123456789")).await,
        200
    );

    let ended = call_ok(&app, &phone, Some(PHONE), "/api/auth/logout", &json!({})).await;
    assert_eq!(ended["ended"], true);
    for session in [
        Some(PHONE),
        Some("phone-copy-0123456789"),
        Some("phone-new-id-000000001"),
        None,
    ] {
        assert_revoked(&app, &phone, session).await;
    }
    assert_eq!(me(&second, &phone, None).await, 401, "the other instance");
    let (status, _) = call(
        &app,
        &phone,
        None,
        "/api/status/incidents",
        &incident_body("x"),
    )
    .await;
    assert_eq!(status, 401, "an operator route");
    // A refresh: a later token of the same sign-in.
    let refreshed = token(&app, "ada", Some("sign-in-phone"), now + 1, &[]);
    assert_eq!(me(&second, &refreshed, Some(PHONE)).await, 401);

    // The laptop goes on, the only session listed.
    let listed = laptop_sessions(&app, &laptop).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
}
on_both_backends!(a_logged_out_devices_tokens_are_refused_however_sent_and_wherever);

/// Another sign-in that sends this device's session id is a session of its own: listed beside it
/// (not folded into its row), and ended by this device's "sign out all others".
async fn another_sign_in_sending_this_session_id_is_listed_and_ended_on_its_own(app: TestApp) {
    let now = now_seconds();
    let laptop = token(&app, "ada", Some("sign-in-laptop"), now, &[]);
    let intruder = token(&app, "ada", Some("sign-in-script"), now, &[]);
    assert_eq!(me(&app, &laptop, Some(LAPTOP)).await, 200);
    assert_eq!(me(&app, &intruder, Some(LAPTOP)).await, 200);
    let sessions = laptop_sessions(&app, &laptop).await;
    assert_eq!(sessions.len(), 2, "{sessions:?}");
    assert_eq!(
        sessions.iter().filter(|s| s["current"] == true).count(),
        1,
        "{sessions:?}"
    );
    let ended = call_ok(
        &app,
        &laptop,
        Some(LAPTOP),
        "/api/auth/sessions/revoke-others",
        &json!({}),
    )
    .await;
    assert_eq!(ended["revoked"], 1, "{ended}");
    assert_eq!(me(&app, &intruder, Some(LAPTOP)).await, 401);
    assert_eq!(me(&app, &laptop, Some(LAPTOP)).await, 200);
}
on_both_backends!(another_sign_in_sending_this_session_id_is_listed_and_ended_on_its_own);

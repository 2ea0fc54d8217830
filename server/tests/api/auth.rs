//! `/api/auth/current-user` and `/api/auth/update-profile` with valid tokens.

use serde_json::{json, Value};

use crate::helpers::{data_of, TestApp};
use crate::identity_double::now_seconds;

async fn error_of(response: reqwest::Response, status: u16) -> Value {
    assert_eq!(response.status(), status);
    response.json().await.expect("JSON error body")
}

async fn the_first_request_creates_the_user_with_one_session_and_no_update_time(app: TestApp) {
    let token = app.identity.session_token("user-1");
    let user = data_of(app.current_user(&token).await).await;
    assert_eq!(user["id"], "user-1");
    assert_eq!(user["name"], Value::Null);
    assert_eq!(user["updated_at"], Value::Null, "never updated yet");
    assert!(user["created_at"]
        .as_str()
        .expect("created_at")
        .ends_with('Z'));
    assert_eq!(user["activeSessions"], 1);
    assert_eq!(app.count_rows("users").await, 1);
}
on_both_backends!(the_first_request_creates_the_user_with_one_session_and_no_update_time);

async fn active_sessions_count_each_distinct_token_once(app: TestApp) {
    let first = app.identity.session_token("user-2");
    data_of(app.current_user(&first).await).await;
    let again = data_of(app.current_user(&first).await).await;
    assert_eq!(again["activeSessions"], 1, "the same token is one session");
    let mut claims = app.identity.session_claims("user-2");
    claims["iat"] = json!(now_seconds() - 1);
    let second = app.identity.sign(&claims);
    let both = data_of(app.current_user(&second).await).await;
    assert_eq!(both["activeSessions"], 2);
    // Only a hash is stored, never the token itself.
    assert_eq!(app.count_rows("sessions").await, 2);
}
on_both_backends!(active_sessions_count_each_distinct_token_once);

async fn a_token_expired_within_the_leeway_is_accepted_but_not_counted_active(app: TestApp) {
    let mut claims = app.identity.session_claims("user-3");
    // Within the 5 s leeway: accepted, but already past its expiry.
    claims["exp"] = json!(now_seconds() - 2);
    let nearly = app.identity.sign(&claims);
    let user = data_of(app.current_user(&nearly).await).await;
    assert_eq!(user["activeSessions"], 0);
}
on_both_backends!(a_token_expired_within_the_leeway_is_accepted_but_not_counted_active);

async fn a_token_signed_with_es384_is_accepted(app: TestApp) {
    let token = app
        .identity
        .key_384
        .sign(&app.identity.session_claims("user-384"))
        .expect("sign");
    let user = data_of(app.current_user(&token).await).await;
    assert_eq!(user["id"], "user-384");
}
on_both_backends!(a_token_signed_with_es384_is_accepted);

async fn simultaneous_first_requests_of_one_user_all_succeed_and_create_one_row(app: TestApp) {
    let token = app.identity.session_token("racer");
    let tasks: Vec<_> = (0..12)
        .map(|_| {
            let request = app
                .client
                .post(format!("{}/api/auth/current-user", app.address))
                .bearer_auth(&token)
                .json(&json!({}));
            tokio::spawn(async move { request.send().await.expect("answer").status() })
        })
        .collect();
    for task in tasks {
        assert_eq!(task.await.expect("task"), 200);
    }
    assert_eq!(app.count_rows("users").await, 1);
    assert_eq!(app.count_rows("sessions").await, 1);
}
on_both_backends!(simultaneous_first_requests_of_one_user_all_succeed_and_create_one_row);

async fn an_updated_name_is_trimmed_stored_and_stamped(app: TestApp) {
    let token = app.identity.session_token("user-4");
    let user = data_of(
        app.update_profile(&token, &json!({"name": "  Ada Lovelace  "}))
            .await,
    )
    .await;
    assert_eq!(user["name"], "Ada Lovelace");
    assert!(user["updated_at"].is_string());
    let read = data_of(app.current_user(&token).await).await;
    assert_eq!(read["name"], "Ada Lovelace");
}
on_both_backends!(an_updated_name_is_trimmed_stored_and_stamped);

async fn a_provider_profile_is_stored_and_returned(app: TestApp) {
    let token = app.identity.session_token("user-5");
    let body = json!({"profile": {"oauthProvider": "github", "oauthData": {
        "username": "ada", "displayName": "Ada", "avatar": "https://avatars.example.com/ada.png"}}});
    let user = data_of(app.update_profile(&token, &body).await).await;
    assert_eq!(user["profile"]["oauthProvider"], "github");
    assert_eq!(user["profile"]["oauthData"]["username"], "ada");
    assert_eq!(
        user["profile"]["oauthData"]["avatar"],
        "https://avatars.example.com/ada.png"
    );
    assert_eq!(user["name"], Value::Null, "a profile alone leaves the name");
}
on_both_backends!(a_provider_profile_is_stored_and_returned);

async fn html_and_sql_payloads_are_stored_and_returned_as_plain_text(app: TestApp) {
    let token = app.identity.session_token("user-6");
    for name in [
        "<script>alert(1)</script>",
        "Robert'); DROP TABLE users;--",
        "\" OR 1=1 --",
        "<img src=x onerror=alert(1)>",
    ] {
        let user = data_of(app.update_profile(&token, &json!({ "name": name })).await).await;
        assert_eq!(user["name"], name);
    }
    assert_eq!(app.count_rows("users").await, 1, "the users table survived");
}
on_both_backends!(html_and_sql_payloads_are_stored_and_returned_as_plain_text);

/// Sends a bad update and checks the message and that the stored name did not change.
async fn assert_rejected(app: &TestApp, token: &str, body: Value, message: &str) {
    let error = error_of(app.update_profile(token, &body).await, 400).await;
    assert_eq!(error["error"], message, "{body}");
    let user = data_of(app.current_user(token).await).await;
    assert_eq!(user["name"], "Original", "{body} changed nothing");
    assert_eq!(user["profile"], Value::Null, "{body} changed nothing");
}

/// A session token of `user`, whose stored name is "Original" (what a refused update must leave).
async fn signed_in_as_original(app: &TestApp, user: &str) -> String {
    let token = app.identity.session_token(user);
    let original = json!({"name": "Original"});
    data_of(app.update_profile(&token, &original).await).await;
    token
}

async fn empty_long_and_control_character_names_are_refused_and_nothing_changes(app: TestApp) {
    let token = signed_in_as_original(&app, "user-7").await;
    let empty = "Name cannot be empty";
    // Before: private-use characters counted as visible, so such names were stored.
    let boxes = "Name cannot be made only of private-use or invisible characters";
    let long = "x".repeat(101);
    let refused = [
        ("", empty),
        ("   \t ", empty),
        (&long, "Name must be at most 100 characters"),
        (
            "Ada\nLovelace",
            "Name cannot contain control characters (such as line breaks or tabs)",
        ),
        ("\u{200B}", empty),
        ("\u{FEFF}\u{2060}", empty),
        (" \u{200B} \u{3164} ", empty),
        ("\u{E000}", boxes),
        (" \u{F8FF}\u{200B} ", boxes),
        ("\u{E000}\u{FE0F}\u{E0041}\u{2060}", boxes),
        (
            "Ada\u{202E}ecalevoL",
            "Name cannot contain text-direction override or isolate characters",
        ),
    ];
    for (name, message) in refused {
        assert_rejected(&app, &token, json!({ "name": name }), message).await;
    }
    let avatar = json!({"name": "New", "profile": {"oauthProvider": "github",
        "oauthData": {"avatar": "http://insecure.example.com/a.png"}}});
    assert_rejected(&app, &token, avatar, "Avatar must be an https:// URL").await;
}
on_both_backends!(empty_long_and_control_character_names_are_refused_and_nothing_changes);

async fn unknown_fields_and_wrong_types_are_refused_and_nothing_changes(app: TestApp) {
    let token = signed_in_as_original(&app, "user-8").await;
    for body in [
        json!({"name": "New", "isAdmin": true}),
        json!({"name": 42}),
        json!({"name": "New", "profile": {"oauthProvider": "github"}}),
        json!({"name": "New", "profile": {"oauthProvider": "x", "oauthData": {"role": "admin"}}}),
        json!([1, 2]),
    ] {
        let error = error_of(app.update_profile(&token, &body).await, 400).await;
        assert_eq!(error["code"], "bad_request", "{body}");
        assert!(error["error"]
            .as_str()
            .expect("message")
            .starts_with("Invalid request body"));
    }
    let error = error_of(app.update_profile(&token, &json!({})).await, 400).await;
    assert_eq!(
        error["error"],
        "Nothing to update: send a name or a profile."
    );
    let user = data_of(app.current_user(&token).await).await;
    assert_eq!(user["name"], "Original");
}
on_both_backends!(unknown_fields_and_wrong_types_are_refused_and_nothing_changes);

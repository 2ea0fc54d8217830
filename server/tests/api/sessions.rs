//! 'Active sessions': one per signed-in browser (the app's `X-Session-Id`), kept by reloads and token
//! refreshes, ended by logout, capped per user, expired rows pruned; and `updated_at`, which only
//! the person's own change sets.

use serde_json::{json, Value};

use crate::helpers::{data_of, TestApp};
use crate::identity_double::now_seconds;

const LAPTOP: &str = "laptop-0123456789abcdef";
const PHONE: &str = "phone-0123456789abcdef";

async fn current_user_in(app: &TestApp, token: &str, session: &str) -> Value {
    data_of(
        app.post_in_session("/api/auth/current-user", token, session, &json!({}))
            .await,
    )
    .await
}

/// A session token of `sub` issued `age` seconds ago: a refresh gives a new token, same browser.
fn token_issued(app: &TestApp, sub: &str, age: u64) -> String {
    let mut claims = app.identity.session_claims(sub);
    claims["iat"] = json!(now_seconds() - age);
    app.identity.sign(&claims)
}

async fn active_sessions_count_browsers_not_tokens_and_logout_ends_one(app: TestApp) {
    let first = token_issued(&app, "ada", 0);
    assert_eq!(
        current_user_in(&app, &first, LAPTOP).await["activeSessions"],
        1
    );
    // Reloads and token refreshes in the same browser: still one.
    for age in 1..4 {
        let refreshed = token_issued(&app, "ada", age);
        let user = current_user_in(&app, &refreshed, LAPTOP).await;
        assert_eq!(
            user["activeSessions"], 1,
            "refresh {age} is the same session"
        );
    }
    // A second browser signs in: two.
    let phone_token = token_issued(&app, "ada", 5);
    assert_eq!(
        current_user_in(&app, &phone_token, PHONE).await["activeSessions"],
        2
    );
    // The phone logs out: one again, and the laptop sees it.
    let ended = data_of(
        app.post_in_session("/api/auth/logout", &phone_token, PHONE, &json!({}))
            .await,
    )
    .await;
    assert_eq!(ended["ended"], true);
    assert_eq!(
        current_user_in(&app, &first, LAPTOP).await["activeSessions"],
        1
    );
    assert_eq!(app.count_rows("sessions").await, 1);
}
on_both_backends!(active_sessions_count_browsers_not_tokens_and_logout_ends_one);

async fn a_client_inventing_session_ids_keeps_at_most_twenty_rows(app: TestApp) {
    let token = app.identity.session_token("mallory");
    for i in 0..30 {
        let id = format!("invented-session-{i:04}");
        let user = current_user_in(&app, &token, &id).await;
        assert!(user["activeSessions"].as_i64().expect("count") <= 20);
    }
    assert_eq!(
        app.count_rows("sessions").await,
        20,
        "capped at 20 per user"
    );
}
on_both_backends!(a_client_inventing_session_ids_keeps_at_most_twenty_rows);

async fn a_malformed_session_id_is_a_400_and_stores_nothing(app: TestApp) {
    let token = app.identity.session_token("eve");
    for bad in [
        "short",
        "has spaces in it here",
        &"x".repeat(129),
        "quote\"in-the-session-id",
    ] {
        let response = app
            .post_in_session("/api/auth/current-user", &token, bad, &json!({}))
            .await;
        assert_eq!(response.status(), 400, "{bad:?}");
        let body: Value = response.json().await.expect("JSON error");
        assert_eq!(body["code"], "invalid_field");
    }
    assert_eq!(app.count_rows("sessions").await, 0);
}
on_both_backends!(a_malformed_session_id_is_a_400_and_stores_nothing);

async fn rows_of_expired_sessions_are_pruned_when_a_session_is_written(app: TestApp) {
    // A session that expired an hour ago, of someone who never came back.
    app.execute_sql("INSERT INTO users (identity_id, created_at) VALUES ('ghost', 1000)")
        .await;
    let expired = (now_seconds() as i64 - 3600) * 1000;
    app.execute_sql(&format!(
        "INSERT INTO sessions (user_id, session_key, created_at, last_seen_at, expires_at) \
         SELECT id, 'gone', 1000, 1000, {expired} FROM users WHERE identity_id = 'ghost'"
    ))
    .await;
    assert_eq!(app.count_rows("sessions").await, 1);
    // Anyone's sign-in writes a session, and the write prunes.
    let token = app.identity.session_token("someone-else");
    current_user_in(&app, &token, LAPTOP).await;
    assert_eq!(
        app.count_rows("sessions").await,
        1,
        "only the live session is left"
    );
}
on_both_backends!(rows_of_expired_sessions_are_pruned_when_a_session_is_written);

async fn updated_at_stays_null_through_sign_in_syncs_until_the_person_changes_their_name(
    app: TestApp,
) {
    let token = app.identity.session_token("newcomer");
    let sync = json!({"name": "Ada Lovelace", "profile": {"oauthProvider": "discord",
        "oauthData": {"username": "ada", "displayName": "Ada Lovelace"}}});
    // The first sign-in's sync (name and profile), then later sign-ins' (profile only).
    let user = data_of(app.update_profile(&token, &sync).await).await;
    assert_eq!(user["name"], "Ada Lovelace");
    assert_eq!(
        user["updated_at"],
        Value::Null,
        "a new account is never updated"
    );
    let profile_only = json!({"profile": sync["profile"]});
    let user = data_of(app.update_profile(&token, &profile_only).await).await;
    assert_eq!(user["updated_at"], Value::Null, "a sign-in changes nothing");
    // The person saves the name they already have: nothing changed.
    let user = data_of(
        app.update_profile(&token, &json!({"name": "Ada Lovelace"}))
            .await,
    )
    .await;
    assert_eq!(
        user["updated_at"],
        Value::Null,
        "saving the same name changes nothing"
    );
    // The person changes their name: stamped, and the answer carries it.
    let user = data_of(
        app.update_profile(&token, &json!({"name": "Countess Ada"}))
            .await,
    )
    .await;
    let stamped = user["updated_at"].as_str().expect("stamped").to_owned();
    // A later sign-in's sync keeps the person's time.
    let user = data_of(app.update_profile(&token, &profile_only).await).await;
    assert_eq!(user["updated_at"], stamped.as_str());
    assert_eq!(user["name"], "Countess Ada");
}
on_both_backends!(updated_at_stays_null_through_sign_in_syncs_until_the_person_changes_their_name);

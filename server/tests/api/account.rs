//! The account page's endpoints: sessions listed with their labels, another session signed out (its
//! next request 401 `session_revoked`, on every instance, however often it re-sends its id), the
//! data export, the account's deletion; and each refusing bad input and another user's session.

use serde_json::{json, Value};

use crate::helpers::{header, spawn_beside, TestApp};

pub(crate) const FIREFOX: &str =
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
pub(crate) const SAFARI: &str =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 \
     (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
pub(crate) const LAPTOP: &str = "laptop-0123456789abcdef";
pub(crate) const PHONE: &str = "phone-0123456789abcdef";

/// One signed-in browser: its token, session id and User-Agent.
pub(crate) struct Browser<'a> {
    app: &'a TestApp,
    token: String,
    session: &'a str,
    agent: &'a str,
}

impl<'a> Browser<'a> {
    pub(crate) fn new(app: &'a TestApp, sub: &str, session: &'a str, agent: &'a str) -> Self {
        Self {
            app,
            token: app.identity.session_token(sub),
            session,
            agent,
        }
    }

    /// This browser's token sent under another session id.
    pub(crate) fn as_session(&self, session: &'a str) -> Self {
        Self {
            session,
            ..self.on(self.app)
        }
    }

    /// The same browser talking to another instance.
    fn on(&self, app: &'a TestApp) -> Self {
        Self {
            app,
            token: self.token.clone(),
            session: self.session,
            agent: self.agent,
        }
    }

    async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        self.send(path, "application/json", body.to_string()).await
    }

    /// `POST path` with `body` declared as `content_type`.
    pub(crate) async fn send(
        &self,
        path: &str,
        content_type: &str,
        body: String,
    ) -> reqwest::Response {
        self.app
            .client
            .post(format!("{}{path}", self.app.address))
            .bearer_auth(&self.token)
            .header("x-session-id", self.session)
            .header("user-agent", self.agent)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .expect("request reaches the server")
    }

    /// `path`'s `data`, asserting a 200.
    pub(crate) async fn data(&self, path: &str, body: &Value) -> Value {
        let response = self.post(path, body).await;
        let status = response.status();
        let answer: Value = response.json().await.expect("JSON");
        assert_eq!(status, 200, "{path}: {answer}");
        answer["data"].clone()
    }

    /// `path`'s error code, asserting the status.
    pub(crate) async fn refused(&self, path: &str, body: &Value, status: u16) -> String {
        let response = self.post(path, body).await;
        assert_eq!(response.status(), status, "{path} {body}");
        let answer: Value = response.json().await.expect("JSON error");
        assert!(answer["error"].is_string(), "{answer}");
        answer["code"].as_str().expect("code").to_owned()
    }

    pub(crate) async fn sessions(&self) -> Vec<Value> {
        let data = self.data("/api/auth/sessions", &json!({})).await;
        data["sessions"].as_array().expect("sessions").clone()
    }

    pub(crate) async fn me(&self) -> Value {
        self.data("/api/auth/current-user", &json!({})).await
    }

    /// Asserts this browser is signed out: its next request is a 401 `session_revoked`.
    pub(crate) async fn assert_signed_out(&self) {
        let code = self
            .refused("/api/auth/current-user", &json!({}), 401)
            .await;
        assert_eq!(code, "session_revoked", "{}", self.session);
    }
}

fn current(sessions: &[Value]) -> &Value {
    let mine: Vec<&Value> = sessions.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(mine.len(), 1, "exactly one is this device: {sessions:?}");
    mine[0]
}

fn other(sessions: &[Value]) -> &Value {
    sessions
        .iter()
        .find(|s| s["current"] == false)
        .expect("another session")
}

async fn sessions_are_listed_with_labels_and_signed_out_from_another_session(app: TestApp) {
    let laptop = Browser::new(&app, "ada", LAPTOP, FIREFOX);
    let phone = Browser::new(&app, "ada", PHONE, SAFARI);
    laptop.me().await;
    assert_eq!(phone.me().await["activeSessions"], 2);
    let seen_by_laptop = laptop.sessions().await;
    assert_eq!(seen_by_laptop.len(), 2, "the count agrees with the list");
    assert_eq!(current(&seen_by_laptop)["label"], "Firefox on Linux");
    assert_eq!(other(&seen_by_laptop)["label"], "Safari on iPhone");
    let seen_by_phone = phone.sessions().await;
    assert_eq!(current(&seen_by_phone)["label"], "Safari on iPhone");
    for session in &seen_by_laptop {
        for field in ["createdAt", "lastActiveAt", "expiresAt"] {
            assert!(session[field].as_str().is_some_and(|t| t.ends_with('Z')));
        }
    }
    // The label is the one of the sign-in: a later request with another User-Agent keeps it.
    let renamed = Browser {
        agent: "curl/8.5.0",
        ..phone.on(&app)
    };
    renamed.me().await;
    assert_eq!(
        current(&renamed.sessions().await)["label"],
        "Safari on iPhone"
    );

    // The laptop signs the phone out.
    let phone_id = other(&seen_by_laptop)["id"].clone();
    let answer = laptop
        .data("/api/auth/sessions/revoke", &json!({ "id": phone_id }))
        .await;
    assert_eq!(answer["revoked"], 1);
    // The phone's next request, and every one after, whatever it re-sends: 401 JSON.
    for path in [
        "/api/auth/current-user",
        "/api/auth/sessions",
        "/api/auth/export",
    ] {
        assert_eq!(
            phone.refused(path, &json!({}), 401).await,
            "session_revoked"
        );
    }
    assert_eq!(laptop.me().await["activeSessions"], 1);
    assert_eq!(laptop.sessions().await.len(), 1);
    // Signing it out again: nothing left to sign out.
    assert_eq!(
        laptop
            .refused("/api/auth/sessions/revoke", &json!({ "id": phone_id }), 404)
            .await,
        "session_not_found"
    );
    // The phone signs in again (a new session id): a new session, listed.
    let again = Browser::new(&app, "ada", "phone-second-sign-in-0001", SAFARI);
    again.me().await;
    let tablet = Browser::new(&app, "ada", "tablet-0123456789abcdef", FIREFOX);
    tablet.me().await;
    assert_eq!(laptop.sessions().await.len(), 3);
    // All others at once.
    let answer = laptop
        .data("/api/auth/sessions/revoke-others", &json!({}))
        .await;
    assert_eq!(answer["revoked"], 2);
    for browser in [&again, &tablet] {
        browser.assert_signed_out().await;
    }
    let left = laptop.sessions().await;
    assert_eq!(left.len(), 1);
    assert_eq!(current(&left)["label"], "Firefox on Linux");
    assert_eq!(app.count_rows("revoked_tokens").await, 3, "one token each");
}
on_both_backends!(sessions_are_listed_with_labels_and_signed_out_from_another_session);

async fn a_revoked_session_is_refused_by_every_instance(app: TestApp) {
    let second = spawn_beside(&app, |config| {
        config.identity_project_id = Some(app.identity.project_id.clone());
        config.identity_base_url = Some(app.identity.base_url.clone());
    })
    .await;
    let laptop = Browser::new(&app, "grace", LAPTOP, FIREFOX);
    let phone = Browser::new(&app, "grace", PHONE, SAFARI);
    laptop.me().await;
    phone.me().await;
    // The phone is also known to the second instance (which then skips its writes for an hour).
    let phone_there = phone.on(&second);
    assert_eq!(phone_there.me().await["activeSessions"], 2);
    let id = other(&laptop.sessions().await)["id"].clone();
    laptop
        .data("/api/auth/sessions/revoke", &json!({ "id": id }))
        .await;
    phone_there.assert_signed_out().await;
    assert_eq!(
        phone
            .refused("/api/auth/update-profile", &json!({"name": "X"}), 401)
            .await,
        "session_revoked"
    );
    assert_eq!(laptop.on(&second).me().await["activeSessions"], 1);
}
on_both_backends!(a_revoked_session_is_refused_by_every_instance);

async fn bad_input_and_another_users_session_id_are_clear_4xx_and_change_nothing(app: TestApp) {
    let ada = Browser::new(&app, "ada", LAPTOP, FIREFOX);
    let eve = Browser::new(&app, "eve", PHONE, SAFARI);
    ada.me().await;
    eve.me().await;
    let adas = current(&ada.sessions().await)["id"].clone();
    // Eve names Ada's session: 404, and Ada's session lives on.
    assert_eq!(
        eve.refused("/api/auth/sessions/revoke", &json!({ "id": adas }), 404)
            .await,
        "session_not_found"
    );
    // Ada names her own current session: log out instead.
    assert_eq!(
        ada.refused("/api/auth/sessions/revoke", &json!({ "id": adas }), 400)
            .await,
        "invalid_field"
    );
    for bad in [
        json!({}),
        json!({"id": 7}),
        json!({"id": "short"}),
        json!({"id": "Z".repeat(64)}),
        json!({"id": "a".repeat(5000)}),
        json!({"id": adas, "extra": true}),
    ] {
        let code = eve.refused("/api/auth/sessions/revoke", &bad, 400).await;
        assert!(
            code == "bad_request" || code == "invalid_field",
            "{bad}: {code}"
        );
    }
    for bad in [
        json!({}),
        json!({"confirm": false}),
        json!({"confirm": "yes"}),
    ] {
        eve.refused("/api/auth/delete-account", &bad, 400).await;
    }
    // No token: 401, nothing changed.
    let anonymous = app
        .post_with_token(
            "/api/auth/sessions/revoke-others",
            "not-a-token",
            &json!({}),
        )
        .await;
    assert_eq!(anonymous.status(), 401);
    assert_eq!(ada.me().await["activeSessions"], 1);
    assert_eq!(eve.me().await["activeSessions"], 1);
    assert_eq!(app.count_rows("users").await, 2);
    assert_eq!(app.count_rows("revoked_tokens").await, 0);
    assert_eq!(app.count_rows("token_cutoffs").await, 0);
}
on_both_backends!(bad_input_and_another_users_session_id_are_clear_4xx_and_change_nothing);

async fn the_data_is_exported_then_the_account_deleted_leaving_no_row(app: TestApp) {
    let laptop = Browser::new(&app, "lin", LAPTOP, FIREFOX);
    let phone = Browser::new(&app, "lin", PHONE, SAFARI);
    laptop
        .data(
            "/api/auth/update-profile",
            &json!({"name": "Lin", "profile": {"oauthProvider": "github",
                "oauthData": {"username": "lin", "displayName": "Lin"}}}),
        )
        .await;
    phone.me().await;
    let other = Browser::new(&app, "bystander", "bystander-0123456789", FIREFOX);
    other.me().await;

    let response = laptop.post("/api/auth/export", &json!({})).await;
    assert_eq!(response.status(), 200);
    let disposition = header(&response, "content-disposition").to_owned();
    assert!(disposition.starts_with("attachment"), "{disposition}");
    let export: Value = response.json().await.expect("JSON");
    assert_eq!(export["format"], "mg-web-export/1");
    assert_eq!(export["profile"]["id"], "lin");
    assert_eq!(export["profile"]["name"], "Lin");
    assert_eq!(export["profile"]["loginProvider"], "github");
    assert_eq!(export["profile"]["providerData"]["username"], "lin");
    assert_eq!(export["profile"]["updatedAt"], Value::Null);
    let sessions = export["sessions"].as_array().expect("sessions");
    assert_eq!(sessions.len(), 2);
    assert!(sessions.iter().any(|s| s["label"] == "Safari on iPhone"));
    // Rate limited: a second export at once waits.
    let again = laptop.post("/api/auth/export", &json!({})).await;
    assert_eq!(again.status(), 429);
    assert!(again.headers().contains_key("retry-after"));

    let deleted = laptop
        .data("/api/auth/delete-account", &json!({"confirm": true}))
        .await;
    assert_eq!(deleted["deleted"], true);
    assert_eq!(app.count_rows("users WHERE identity_id = 'lin'").await, 0);
    assert_eq!(app.count_rows("users").await, 1, "the bystander's only");
    assert_eq!(app.count_rows("sessions").await, 1, "the bystander's only");
    // Both browsers are signed out on their next request, the deleting one included.
    for browser in [&laptop, &phone] {
        browser.assert_signed_out().await;
    }
    assert_eq!(app.count_rows("users").await, 1, "no account came back");
    assert_eq!(
        app.tables_naming("lin").await,
        vec![],
        "no row names the user"
    );
    // A later sign-in (a new token, issued after the deletion, and a new session id) starts a
    // new account: never updated, no name kept.
    let mut claims = app.identity.session_claims("lin");
    claims["iat"] = json!(crate::identity_double::now_seconds() + 1);
    let back = Browser {
        token: app.identity.sign(&claims),
        ..Browser::new(&app, "lin", "lin-signs-in-again-0001", FIREFOX)
    };
    let user = back.me().await;
    assert_eq!(user["updated_at"], Value::Null);
    assert_eq!(user["name"], Value::Null);
    assert_eq!(user["activeSessions"], 1);
    assert_eq!(
        app.count_rows(
            "users WHERE identity_id = 'lin' \
             AND id > (SELECT id FROM users WHERE identity_id = 'bystander')"
        )
        .await,
        1,
        "a new row, not the old one"
    );
    assert_eq!(
        other.me().await["activeSessions"],
        1,
        "the bystander is untouched"
    );
}
on_both_backends!(the_data_is_exported_then_the_account_deleted_leaving_no_row);

/// In open mode there are no accounts to manage: the account routes are unknown paths.
async fn open_mode_has_none_of_it(app: TestApp) {
    let browser = Browser::new(&app, "ada", LAPTOP, FIREFOX);
    for path in [
        "/api/auth/sessions",
        "/api/auth/sessions/revoke",
        "/api/auth/sessions/revoke-others",
        "/api/auth/export",
        "/api/auth/delete-account",
    ] {
        assert_eq!(
            browser.refused(path, &json!({"confirm": true}), 404).await,
            "not_found",
            "{path}"
        );
    }
    assert_eq!(app.count_rows("users").await, 0);
}
on_sqlite!(
    in_open_mode_the_account_routes_do_not_exist,
    open_mode_has_none_of_it,
    |config: &mut mg_server::config::Config| config.sanctified = false
);

//! A session signed out from another one, every session signed out but the caller's, and a deleted
//! account: the tokens of what was signed out are refused, however the client presents them (the
//! same token under a new `X-Session-Id`, or none), on every route (the status operator's too), on
//! every instance, and after a refresh (a new token of the same sign-in); a deleted account is not
//! brought back by an old token, and a new sign-in makes a new one. (Through the local emulator:
//! `revocation_emulator.rs`.)

use serde_json::{json, Value};

use crate::helpers::{spawn_beside, TestApp};
use crate::identity_double::now_seconds;

const OPERATOR_ROLE: &str = "status-operator";

/// A session token of `sub` from the sign-in `sid` (the provider's id of the sign-in its refresh
/// token belongs to; `None`: a token that names none), issued `iat`, with `roles`.
pub fn token(app: &TestApp, sub: &str, sid: Option<&str>, iat: u64, roles: &[&str]) -> String {
    let mut claims = app.identity.session_claims(sub);
    claims["iat"] = json!(iat);
    claims["exp"] = json!(iat + 600);
    if let Some(sid) = sid {
        claims["sid"] = json!(sid);
    }
    if !roles.is_empty() {
        claims["roles"] = json!(roles);
    }
    app.identity.sign(&claims)
}

/// `POST path` with `token` and, when given, `X-Session-Id: session`; the status and the body.
pub async fn call(
    app: &TestApp,
    token: &str,
    session: Option<&str>,
    path: &str,
    body: &Value,
) -> (u16, Value) {
    let mut request = app
        .client
        .post(format!("{}{path}", app.address))
        .bearer_auth(token)
        .json(body);
    if let Some(session) = session {
        request = request.header("x-session-id", session);
    }
    let response = request.send().await.expect("request reaches the server");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// `call` that must answer 200: the answer's `data`.
pub async fn call_ok(
    app: &TestApp,
    token: &str,
    session: Option<&str>,
    path: &str,
    body: &Value,
) -> Value {
    let (status, answer) = call(app, token, session, path, body).await;
    assert_eq!(status, 200, "{path}: {answer}");
    answer["data"].clone()
}

/// `GET path` with `token` and no session id.
async fn get_as(app: &TestApp, token: &str, path: &str) -> u16 {
    let bearer = format!("Bearer {token}");
    let response = app.get_with(path, &[("authorization", &bearer)]).await;
    response.status().as_u16()
}

/// `token`, sent with `X-Session-Id: session` (`None`: without one), is signed out: the current
/// user is a 401 `session_revoked`.
pub async fn assert_revoked(app: &TestApp, token: &str, session: Option<&str>) {
    let (status, body) = call(app, token, session, "/api/auth/current-user", &json!({})).await;
    assert_eq!(status, 401, "{session:?}: {body}");
    assert_eq!(body["code"], "session_revoked", "{session:?}");
}

pub async fn me(app: &TestApp, token: &str, session: Option<&str>) -> u16 {
    call(app, token, session, "/api/auth/current-user", &json!({}))
        .await
        .0
}

/// The sessions the caller's session list hands out, other than its own.
pub async fn others(app: &TestApp, token: &str, session: &str) -> Vec<Value> {
    let (status, body) = call(app, token, Some(session), "/api/auth/sessions", &json!({})).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .filter(|s| s["current"] == false)
        .cloned()
        .collect()
}

/// Their ids.
pub async fn other_ids(app: &TestApp, token: &str, session: &str) -> Vec<String> {
    let listed = others(app, token, session).await;
    listed
        .iter()
        .map(|s| s["id"].as_str().expect("id").to_owned())
        .collect()
}

async fn session_count(app: &TestApp, token: &str, session: &str) -> usize {
    let (status, body) = call(app, token, Some(session), "/api/auth/sessions", &json!({})).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["sessions"].as_array().expect("sessions").len()
}

/// The laptop's session id, the caller in every scenario here.
const LAPTOP: &str = "laptop-0123456789abcdef";

/// `POST path` with the laptop's token and session id: a sign-out of the laptop's own choosing.
async fn as_laptop(app: &TestApp, laptop: &str, path: &str, body: &Value) -> (u16, Value) {
    call(app, laptop, Some(LAPTOP), path, body).await
}

/// `as_laptop` that must answer 200: the answer's `data`.
async fn laptop_ok(app: &TestApp, laptop: &str, path: &str, body: &Value) -> Value {
    call_ok(app, laptop, Some(LAPTOP), path, body).await
}

/// The laptop's token still signs it in, and its session list holds only itself.
async fn laptop_goes_on(app: &TestApp, laptop: &str) {
    assert_eq!(me(app, laptop, Some(LAPTOP)).await, 200);
    assert_eq!(session_count(app, laptop, LAPTOP).await, 1);
}

/// The laptop and the phone sign in, and the laptop signs the phone out (the one other session it
/// lists); the phone's session as it was listed.
async fn sign_out_the_phone(app: &TestApp, laptop: &str, phone: &str) -> Value {
    assert_eq!(me(app, laptop, Some(LAPTOP)).await, 200);
    assert_eq!(me(app, phone, Some("phone-0123456789abcdef")).await, 200);
    let listed = others(app, laptop, LAPTOP).await;
    assert_eq!(listed.len(), 1);
    let id = listed[0]["id"].as_str().expect("id");
    let answer = laptop_ok(
        app,
        laptop,
        "/api/auth/sessions/revoke",
        &json!({ "id": id }),
    )
    .await;
    assert_eq!(answer["revoked"], 1, "{answer}");
    listed[0].clone()
}

fn incident() -> Value {
    json!({"title": "Slow sign-ins", "impact": "minor", "components": ["db"],
        "status": "investigating", "body": "Looking."})
}

/// A second instance on the same database, trusting the same provider.
pub async fn second_instance(app: &TestApp) -> TestApp {
    let (project, base) = (
        app.identity.project_id.clone(),
        app.identity.base_url.clone(),
    );
    spawn_beside(app, move |config| {
        config.identity_project_id = Some(project);
        config.identity_base_url = Some(base);
    })
    .await
}

async fn a_signed_out_sessions_tokens_are_refused_however_sent_and_wherever(app: TestApp) {
    let second = second_instance(&app).await;
    let now = now_seconds();
    let laptop = token(&app, "ada", Some("sign-in-laptop"), now, &[]);
    let phone = token(&app, "ada", Some("sign-in-phone"), now, &[OPERATOR_ROLE]);
    let phones_session = sign_out_the_phone(&app, &laptop, &phone).await;
    assert_eq!(
        phones_session["boundToSignIn"], true,
        "its token names its sign-in"
    );

    // The phone's token, whatever it sends beside it, wherever it goes.
    for session in [
        Some("phone-0123456789abcdef"),
        Some("phone-new-id-0000000001"),
        None,
    ] {
        assert_revoked(&app, &phone, session).await;
    }
    assert_eq!(
        me(&second, &phone, Some("phone-new-id-0000000002")).await,
        401
    );
    assert_eq!(me(&second, &phone, None).await, 401);
    let (status, _) = call(&app, &phone, None, "/api/status/incidents", &incident()).await;
    assert_eq!(status, 401, "an operator route");
    assert_eq!(get_as(&second, &phone, "/api/status/webhooks").await, 401);
    // A refresh: a new token of the same sign-in, issued later.
    let refreshed = token(
        &app,
        "ada",
        Some("sign-in-phone"),
        now + 1,
        &[OPERATOR_ROLE],
    );
    assert_eq!(
        me(&app, &refreshed, Some("phone-new-id-0000000003")).await,
        401
    );
    assert_eq!(me(&second, &refreshed, None).await, 401);

    // The laptop goes on, and the phone is not listed again.
    laptop_goes_on(&app, &laptop).await;
}
on_both_backends!(a_signed_out_sessions_tokens_are_refused_however_sent_and_wherever);

/// A provider whose tokens name no sign-in: the signed-out session's own token is what is refused.
async fn a_signed_out_token_that_names_no_sign_in_is_refused_too(app: TestApp) {
    let now = now_seconds();
    let laptop = token(&app, "bob", None, now, &[]);
    let phone = token(&app, "bob", None, now, &[OPERATOR_ROLE]);
    let phones_session = sign_out_the_phone(&app, &laptop, &phone).await;
    assert_eq!(
        phones_session["boundToSignIn"], false,
        "only its token can be refused"
    );
    assert_eq!(me(&app, &phone, Some("phone-new-id-0000000001")).await, 401);
    assert_eq!(me(&app, &phone, None).await, 401);
    let (status, _) = call(&app, &phone, None, "/api/status/incidents", &incident()).await;
    assert_eq!(status, 401);
    laptop_goes_on(&app, &laptop).await;
}
on_both_backends!(a_signed_out_token_that_names_no_sign_in_is_refused_too);

/// The caller's own sign-in, recorded under another session id (its token sent with an id it used
/// before): listed as this device under both, and signing out either is "log out instead", with
/// nothing signed out.
async fn signing_out_the_callers_own_sign_in_under_another_id_is_refused(app: TestApp) {
    let laptop = token(&app, "fay", Some("sign-in-laptop"), now_seconds(), &[]);
    assert_eq!(
        me(&app, &laptop, Some("laptop-old-id-000000001")).await,
        200
    );
    assert_eq!(me(&app, &laptop, Some(LAPTOP)).await, 200);
    assert!(other_ids(&app, &laptop, LAPTOP).await.is_empty());
    let (status, body) = as_laptop(&app, &laptop, "/api/auth/sessions", &json!({})).await;
    assert_eq!(status, 200, "{body}");
    let rows = body["data"]["sessions"].as_array().expect("sessions");
    assert_eq!(rows.len(), 2, "{body}");
    for row in rows {
        assert_eq!(row["current"], true, "{row}");
        let (status, body) = as_laptop(
            &app,
            &laptop,
            "/api/auth/sessions/revoke",
            &json!({ "id": row["id"] }),
        )
        .await;
        assert_eq!(
            (status, &body["code"]),
            (400, &json!("invalid_field")),
            "{body}"
        );
    }
    assert_eq!(me(&app, &laptop, None).await, 200);
    assert_eq!(app.count_rows("revoked_tokens").await, 0);
}
on_both_backends!(signing_out_the_callers_own_sign_in_under_another_id_is_refused);

async fn signing_out_all_others_refuses_every_earlier_token_but_the_callers(app: TestApp) {
    let second = second_instance(&app).await;
    let now = now_seconds();
    let laptop = token(&app, "cy", Some("sign-in-laptop"), now, &[]);
    let phone = token(&app, "cy", Some("sign-in-phone"), now, &[]);
    let tablet = token(&app, "cy", None, now, &[OPERATOR_ROLE]);
    // A token issued before, to a browser that has not called this server yet.
    let unseen = token(&app, "cy", None, now - 60, &[]);
    assert_eq!(me(&app, &laptop, Some(LAPTOP)).await, 200);
    assert_eq!(me(&app, &phone, Some("phone-0123456789abcdef")).await, 200);
    assert_eq!(me(&second, &tablet, None).await, 200);
    let answer = laptop_ok(
        &app,
        &laptop,
        "/api/auth/sessions/revoke-others",
        &json!({}),
    )
    .await;
    assert_eq!(answer["revoked"], 2, "{answer}");
    for (name, token) in [("phone", &phone), ("tablet", &tablet), ("unseen", &unseen)] {
        for instance in [&app, &second] {
            assert_eq!(
                me(instance, token, Some("a-new-id-0000000000001")).await,
                401,
                "{name}"
            );
            assert_eq!(me(instance, token, None).await, 401, "{name}");
        }
    }
    let (status, _) = call(&second, &tablet, None, "/api/status/incidents", &incident()).await;
    assert_eq!(status, 401, "an operator route");
    let phone_refreshed = token(&app, "cy", Some("sign-in-phone"), now + 1, &[]);
    assert_eq!(
        me(&second, &phone_refreshed, None).await,
        401,
        "the phone refreshed"
    );
    // The caller survives: its token, and its next one.
    assert_eq!(me(&second, &laptop, Some(LAPTOP)).await, 200);
    let laptop_refreshed = token(&app, "cy", Some("sign-in-laptop"), now + 1, &[]);
    assert_eq!(me(&second, &laptop_refreshed, Some(LAPTOP)).await, 200);
    laptop_goes_on(&app, &laptop).await;
}
on_both_backends!(signing_out_all_others_refuses_every_earlier_token_but_the_callers);

async fn a_deleted_account_is_not_brought_back_by_an_old_token(app: TestApp) {
    let second = second_instance(&app).await;
    let now = now_seconds();
    let laptop = token(&app, "dee", Some("sign-in-laptop"), now, &[OPERATOR_ROLE]);
    let phone = token(&app, "dee", Some("sign-in-phone"), now, &[OPERATOR_ROLE]);
    let script = token(&app, "dee", None, now, &[]);
    assert_eq!(me(&app, &laptop, Some(LAPTOP)).await, 200);
    assert_eq!(
        me(&second, &phone, Some("phone-0123456789abcdef")).await,
        200
    );
    assert_eq!(get_as(&app, &phone, "/api/status/webhooks").await, 200);
    let answer = laptop_ok(
        &app,
        &laptop,
        "/api/auth/delete-account",
        &json!({"confirm": true}),
    )
    .await;
    assert_eq!(answer["deleted"], true, "{answer}");
    let refreshed = token(
        &app,
        "dee",
        Some("sign-in-phone"),
        now + 1,
        &[OPERATOR_ROLE],
    );
    for token in [&laptop, &phone, &script, &refreshed] {
        for instance in [&app, &second] {
            assert_eq!(
                me(instance, token, Some("a-new-id-0000000000001")).await,
                401
            );
            assert_eq!(me(instance, token, None).await, 401);
            let (status, _) =
                call(instance, token, None, "/api/status/incidents", &incident()).await;
            assert_eq!(status, 401, "an operator route");
            assert_eq!(get_as(instance, token, "/api/status/webhooks").await, 401);
        }
    }
    assert_eq!(
        app.count_rows("users WHERE identity_id = 'dee'").await,
        0,
        "no old token brought the account back"
    );
    // A new sign-in (a new sign-in id, a token issued after the deletion) makes a new account.
    let again = token(&app, "dee", Some("sign-in-after"), now_seconds() + 1, &[]);
    let (status, body) = call(
        &second,
        &again,
        Some("new-0123456789abcdef"),
        "/api/auth/current-user",
        &json!({}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["activeSessions"], 1);
    assert_eq!(body["data"]["updated_at"], Value::Null);
    assert_eq!(app.count_rows("users WHERE identity_id = 'dee'").await, 1);
}
on_both_backends!(a_deleted_account_is_not_brought_back_by_an_old_token);

/// However many sessions a user signs out, what is remembered of them stays bounded, and none of
/// them comes back. (Beyond the bound the oldest are folded into the user's not-before time, which
/// also signs out sessions signed in before the fold: here, each round's, all signed out anyway.)
async fn what_is_remembered_of_signed_out_sessions_is_bounded_per_user(app: TestApp) {
    let now = now_seconds();
    let laptop = token(&app, "eve", Some("sign-in-laptop"), now, &[]);
    assert_eq!(me(&app, &laptop, Some(LAPTOP)).await, 200);
    let mut signed_out = Vec::new();
    for round in 0..5 {
        for n in 0..16 {
            let sid = format!("sign-in-{round}-{n}");
            let other = token(&app, "eve", Some(&sid), now, &[]);
            let id = format!("other-session-{round}-{n:06}");
            // Signed in before this round's fold, if any: refused from then on.
            me(&app, &other, Some(&id)).await;
            signed_out.push(other);
        }
        for id in other_ids(&app, &laptop, LAPTOP).await {
            laptop_ok(
                &app,
                &laptop,
                "/api/auth/sessions/revoke",
                &json!({ "id": id }),
            )
            .await;
        }
    }
    assert!(app.count_rows("revoked_tokens").await <= 64);
    assert!(app.count_rows("token_cutoffs").await <= 1);
    for other in &signed_out {
        assert_eq!(me(&app, other, None).await, 401);
    }
    laptop_goes_on(&app, &laptop).await;
}
on_both_backends!(what_is_remembered_of_signed_out_sessions_is_bounded_per_user);

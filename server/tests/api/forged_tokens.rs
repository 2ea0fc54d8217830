//! Forged and broken session tokens: every one answers 401 JSON and reaches no handler
//! (no user row, no session row is written). The refusals come before the database, so they run on
//! SQLite alone; a token accepted, then refused once it has expired, on both engines.

use std::sync::atomic::Ordering;

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mg_server::emulator::keys::{CurveAlgorithm, SigningKey};
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::identity_double::now_seconds;

pub fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A compact JWT from raw parts, signature as given.
pub fn raw_token(header: &Value, claims: &Value, signature: &str) -> String {
    format!(
        "{}.{}.{signature}",
        b64(header.to_string().as_bytes()),
        b64(claims.to_string().as_bytes())
    )
}

/// Sends `authorization` (or none) to current-user and checks the refusal left no trace.
pub async fn assert_refused(app: &TestApp, authorization: Option<String>) {
    assert_refused_as(app, authorization, "").await;
}

/// `assert_refused`, each failure naming `what` was sent.
async fn assert_refused_as(app: &TestApp, authorization: Option<String>, what: &str) {
    let mut request = app
        .client
        .post(format!("{}/api/auth/current-user", app.address))
        .header("content-type", "application/json")
        .body("{}");
    if let Some(value) = authorization {
        request = request.header("authorization", value);
    }
    let response = request.send().await.expect("request reaches the server");
    assert_eq!(response.status(), 401, "not refused: {what}");
    assert_eq!(response.headers()["www-authenticate"], "Bearer", "{what}");
    let body: Value = response.json().await.expect("401 is JSON");
    assert_eq!(body["code"], "unauthorized", "{what}");
    assert_eq!(
        body["error"], "Please sign in again: the session is missing or invalid.",
        "{what}"
    );
    assert_eq!(app.count_rows("users").await, 0, "no handler ran: {what}");
    let sessions = app.count_rows("sessions").await;
    assert_eq!(sessions, 0, "no session recorded: {what}");
}

pub async fn refuse_token(app: &TestApp, token: String) {
    assert_refused(app, Some(format!("Bearer {token}"))).await;
}

/// A session token signed by a new key the server never saw, which names itself `kid`.
fn signed_by_a_stranger(app: &TestApp, kid: &str) -> String {
    SigningKey::generate(kid, CurveAlgorithm::Es256)
        .expect("key")
        .sign(&app.identity.session_claims("forger"))
        .expect("sign")
}

/// The forger's claims signed with the server's own ES256 key, under `header`.
fn signed_under(app: &TestApp, header: &Header) -> String {
    let key = EncodingKey::from_ec_der(app.identity.key.pkcs8_der());
    jsonwebtoken::encode(header, &app.identity.session_claims("forger"), &key).expect("sign")
}

fn claims_with(app: &TestApp, change: impl FnOnce(&mut Value)) -> Value {
    let mut claims = app.identity.session_claims("forger");
    change(&mut claims);
    claims
}

async fn a_token_with_alg_none_is_refused(app: TestApp) {
    let header = json!({"alg": "none", "typ": "JWT", "kid": "test-es256"});
    refuse_token(
        &app,
        raw_token(&header, &app.identity.session_claims("forger"), ""),
    )
    .await;
}
on_sqlite!(a_token_with_alg_none_is_refused);

async fn a_token_hmac_signed_with_the_public_key_is_refused(app: TestApp) {
    // The classic confusion attack: HMAC keyed with the public key the server knows.
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some("test-es256".into());
    let secret = EncodingKey::from_secret(app.identity.key.public_point());
    let token = jsonwebtoken::encode(&header, &app.identity.session_claims("forger"), &secret)
        .expect("sign");
    refuse_token(&app, token).await;
}
on_sqlite!(a_token_hmac_signed_with_the_public_key_is_refused);

async fn a_token_signed_by_an_unknown_kid_is_refused(app: TestApp) {
    refuse_token(&app, signed_by_a_stranger(&app, "stranger")).await;
}
on_sqlite!(a_token_signed_by_an_unknown_kid_is_refused);

async fn a_token_without_a_kid_is_refused(app: TestApp) {
    let header = Header::new(Algorithm::ES256);
    refuse_token(&app, signed_under(&app, &header)).await;
}
on_sqlite!(a_token_without_a_kid_is_refused);

async fn a_token_with_a_wrong_signature_is_refused(app: TestApp) {
    // Signed by another key that claims the published kid.
    refuse_token(&app, signed_by_a_stranger(&app, "test-es256")).await;
}
on_sqlite!(a_token_with_a_wrong_signature_is_refused);

async fn a_token_whose_claims_were_edited_is_refused(app: TestApp) {
    let genuine = app.identity.session_token("someone");
    let parts: Vec<&str> = genuine.split('.').collect();
    let forged_claims = b64(app.identity.session_claims("admin").to_string().as_bytes());
    refuse_token(&app, format!("{}.{forged_claims}.{}", parts[0], parts[2])).await;
}
on_sqlite!(a_token_whose_claims_were_edited_is_refused);

/// Tokens signed by the right key whose claims break a rule, each with what it breaks.
fn claims_that_break_a_rule(app: &TestApp) -> Vec<(&'static str, Value)> {
    let without = |name: &str| {
        claims_with(app, |c| {
            c.as_object_mut().expect("object").remove(name);
        })
    };
    let now = now_seconds();
    vec![
        ("expired", claims_with(app, |c| c["exp"] = json!(now - 60))),
        ("no expiry", without("exp")),
        (
            "not valid before a future time",
            claims_with(app, |c| c["nbf"] = json!(now + 600)),
        ),
        (
            "issued in the future",
            claims_with(app, |c| c["iat"] = json!(now + 600)),
        ),
        (
            "from another project",
            claims_with(app, |c| c["iss"] = json!("P2someoneelse")),
        ),
        (
            "an issuer URL that only mentions the project deep inside",
            claims_with(app, |c| {
                c["iss"] = json!("https://api.example.com/P2testproject/sessions/extra")
            }),
        ),
        (
            "a refresh token used as a session token",
            claims_with(app, |c| c["drn"] = json!("DSR")),
        ),
        ("no drn", without("drn")),
    ]
}

async fn a_token_whose_claims_break_a_rule_is_refused(app: TestApp) {
    for (what, claims) in claims_that_break_a_rule(&app) {
        let token = app.identity.sign(&claims);
        assert_refused_as(&app, Some(format!("Bearer {token}")), what).await;
    }
}
on_sqlite!(a_token_whose_claims_break_a_rule_is_refused);

async fn a_token_whose_algorithm_differs_from_its_keys_is_refused(app: TestApp) {
    // The ES256 key's signature presented under the ES384 key's kid.
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some("test-es384".into());
    refuse_token(&app, signed_under(&app, &header)).await;
}
on_sqlite!(a_token_whose_algorithm_differs_from_its_keys_is_refused);

async fn a_truncated_token_is_refused(app: TestApp) {
    let token = app.identity.session_token("forger");
    refuse_token(&app, token[..token.len() - 12].to_owned()).await;
}
on_sqlite!(a_truncated_token_is_refused);

async fn a_huge_token_is_refused(app: TestApp) {
    let padding = "A".repeat(20_000);
    let token = app.identity.session_token("forger");
    refuse_token(&app, format!("{token}{padding}")).await;
}
on_sqlite!(a_huge_token_is_refused);

async fn a_token_whose_header_is_not_json_is_refused(app: TestApp) {
    let token = app.identity.session_token("forger");
    let rest = token.split_once('.').expect("dots").1;
    refuse_token(&app, format!("{}.{rest}", b64(b"not json at all"))).await;
}
on_sqlite!(a_token_whose_header_is_not_json_is_refused);

async fn a_token_that_is_not_base64_is_refused(app: TestApp) {
    refuse_token(&app, "!!!.@@@.###".into()).await;
}
on_sqlite!(a_token_that_is_not_base64_is_refused);

async fn a_bearer_value_that_is_not_a_jwt_is_refused(app: TestApp) {
    refuse_token(&app, "P2testproject".into()).await;
}
on_sqlite!(a_bearer_value_that_is_not_a_jwt_is_refused);

async fn an_empty_bearer_token_is_refused(app: TestApp) {
    assert_refused(&app, Some("Bearer ".into())).await;
}
on_sqlite!(an_empty_bearer_token_is_refused);

async fn a_token_under_another_scheme_is_refused(app: TestApp) {
    let token = app.identity.session_token("forger");
    assert_refused(&app, Some(format!("Basic {token}"))).await;
}
on_sqlite!(a_token_under_another_scheme_is_refused);

async fn a_request_without_authorization_is_refused(app: TestApp) {
    assert_refused(&app, None).await;
}
on_sqlite!(a_request_without_authorization_is_refused);

async fn unknown_kids_do_not_make_the_server_hammer_the_key_endpoint(app: TestApp) {
    let ok = app.current_user(&app.identity.session_token("real")).await;
    assert_eq!(ok.status(), 200);
    assert_eq!(app.identity.fetches.load(Ordering::SeqCst), 1);
    for n in 0..5 {
        let token = signed_by_a_stranger(&app, &format!("stranger-{n}"));
        assert_eq!(app.current_user(&token).await.status(), 401);
    }
    assert_eq!(
        app.identity.fetches.load(Ordering::SeqCst),
        1,
        "unknown kids within the cooldown must not refetch the JWKS"
    );
}
on_sqlite!(unknown_kids_do_not_make_the_server_hammer_the_key_endpoint);

async fn a_token_accepted_once_is_refused_after_it_expires(app: TestApp) {
    let mut claims = app.identity.session_claims("short-lived");
    // Past its expiry but inside the 5 s leeway: accepted now, refused three seconds later (the
    // server's clock moved forward, as the verifier and the session store read it).
    claims["exp"] = json!(now_seconds() - 3);
    let token = app.identity.sign(&claims);
    assert_eq!(app.current_user(&token).await.status(), 200);
    app.config.clock.advance(std::time::Duration::from_secs(3));
    let response = app.current_user(&token).await;
    assert_eq!(
        response.status(),
        401,
        "a remembered token is refused after its expiry"
    );
}
on_both_backends!(a_token_accepted_once_is_refused_after_it_expires);

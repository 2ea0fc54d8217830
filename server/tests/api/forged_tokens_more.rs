//! More forged and odd tokens: both spellings of an ECDSA signature, `crit` headers, encryption
//! keys in the JWKS, the optional audience, and an absurd expiry. Each is refused (or survived) as
//! a person would expect: 401 JSON, no handler run, no panic. A refusal comes before the database
//! (SQLite alone; the token accepted beside it is an ordinary sign-in, on both engines in
//! `auth.rs`); a token accepted as one session in two spellings reaches it (both engines).

use std::sync::{Arc, Mutex};

use axum::{extract::Path, routing::get, Json, Router};
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use jsonwebtoken::{Algorithm, EncodingKey};
use mg_server::{
    config::Config,
    emulator::keys::{CurveAlgorithm, SigningKey},
    identity::ecdsa,
};
use serde_json::{json, Value};

use crate::forged_tokens::{b64, refuse_token};
use crate::helpers::{serve, TestApp};
use crate::identity_double::now_seconds;

/// `n - s` for the signature of `token`: the same signature in its other (high-S) form.
pub fn high_s_twin(token: &str) -> String {
    let (signed, signature) = token.rsplit_once('.').expect("three parts");
    let mut raw = URL_SAFE_NO_PAD.decode(signature).expect("base64url");
    assert!(
        !ecdsa::is_high_s(Algorithm::ES256, &raw),
        "the signer emits low S"
    );
    ecdsa::twin(Algorithm::ES256, &mut raw);
    format!("{signed}.{}", URL_SAFE_NO_PAD.encode(raw))
}

/// A session token for `sub` signed as OpenSSL, Go, Java, WebCrypto or a cloud KMS would: the
/// signature exactly as ring makes it, S not normalised (about half are high-S).
fn unnormalised_token(app: &TestApp, sub: &str, n: u64) -> String {
    let mut claims = app.identity.session_claims(sub);
    claims["n"] = json!(n);
    let mut header = jsonwebtoken::Header::new(Algorithm::ES256);
    header.kid = Some("test-es256".into());
    let encoding = EncodingKey::from_ec_der(app.identity.key.pkcs8_der());
    jsonwebtoken::encode(&header, &claims, &encoding).expect("sign")
}

async fn tokens_of_a_signer_that_does_not_normalise_s_are_accepted(app: TestApp) {
    // Before: high-S signatures were refused, so 11 of 20 tokens of a normal signer got 401.
    let mut high = 0;
    for n in 0..20 {
        let token = unnormalised_token(&app, &format!("person-{n}"), n);
        let raw = URL_SAFE_NO_PAD
            .decode(token.rsplit('.').next().expect("signature"))
            .expect("base64url");
        high += usize::from(ecdsa::is_high_s(Algorithm::ES256, &raw));
        let answer = app.current_user(&token).await;
        assert_eq!(
            answer.status(),
            200,
            "token {n} of a non-normalising signer"
        );
    }
    assert!(high > 0, "some of 20 random signatures are high-S");
}
on_both_backends!(tokens_of_a_signer_that_does_not_normalise_s_are_accepted);

async fn the_high_s_twin_of_a_token_is_accepted_as_the_same_session(app: TestApp) {
    // Both spellings of one token verify (r, s and r, n - s); they must be one session, not two.
    let token = app.identity.session_token("someone");
    let twin = high_s_twin(&token);
    for (spelling, sent) in [("low-S", &token), ("high-S", &twin), ("low-S", &token)] {
        let answer = app.current_user(sent).await;
        assert_eq!(answer.status(), 200, "the {spelling} spelling");
        let body: Value = answer.json().await.expect("JSON");
        assert_eq!(
            body["data"]["activeSessions"], 1,
            "the {spelling} spelling is the same session: {body}"
        );
    }
    // Sent first in its high-S spelling, a token is still one session with its low-S twin.
    let other = app.identity.session_token("another");
    for sent in [high_s_twin(&other), other.clone()] {
        let body: Value = app.current_user(&sent).await.json().await.expect("JSON");
        assert_eq!(body["data"]["activeSessions"], 1, "{body}");
    }
    assert_eq!(app.count_rows("sessions").await, 2);
}
on_both_backends!(the_high_s_twin_of_a_token_is_accepted_as_the_same_session);

/// A token signed by `key` with `header` exactly as given (low-S, as a real signer would).
fn token_with_header(key: &SigningKey, header: &Value, claims: &Value) -> String {
    let message = format!(
        "{}.{}",
        b64(header.to_string().as_bytes()),
        b64(claims.to_string().as_bytes())
    );
    let encoding = EncodingKey::from_ec_der(key.pkcs8_der());
    let signature =
        jsonwebtoken::crypto::sign(message.as_bytes(), &encoding, Algorithm::ES256).expect("sign");
    let mut raw = URL_SAFE_NO_PAD.decode(signature).expect("base64url");
    ecdsa::make_low_s(Algorithm::ES256, &mut raw);
    format!("{message}.{}", URL_SAFE_NO_PAD.encode(raw))
}

async fn a_token_with_a_critical_header_extension_is_refused(app: TestApp) {
    // Before: the library's header type drops `crit`, so a token whose signer demanded an
    // extension the server does not understand was accepted.
    let claims = app.identity.session_claims("forger");
    let header = json!({"alg": "ES256", "kid": "test-es256", "typ": "JWT", "crit": ["x-bind"], "x-bind": "device-1"});
    refuse_token(&app, token_with_header(&app.identity.key, &header, &claims)).await;
    let plain = json!({"alg": "ES256", "kid": "test-es256", "typ": "JWT"});
    let token = token_with_header(&app.identity.key, &plain, &claims);
    assert_eq!(
        app.current_user(&token).await.status(),
        200,
        "the same token without crit"
    );
}
on_sqlite!(a_token_with_a_critical_header_extension_is_refused);

/// A JWKS server publishing whatever `published` holds at the time of each fetch.
async fn jwks_server(published: Arc<Mutex<Value>>) -> String {
    let router = Router::new().route(
        "/v2/keys/{project}",
        get(move |Path(_project): Path<String>| {
            let body = published.lock().expect("lock").clone();
            async move { Json(body) }
        }),
    );
    serve(router).await
}

#[tokio::test]
async fn a_token_signed_by_a_key_published_for_encryption_is_refused() {
    // Before: `use: "enc"` was ignored and the key verified session tokens.
    let enc = SigningKey::generate("enc-key", CurveAlgorithm::Es256).expect("key");
    let sig = SigningKey::generate("sig-key", CurveAlgorithm::Es256).expect("key");
    let mut enc_jwk = enc.public_jwk();
    enc_jwk["use"] = json!("enc");
    let mut verify_only = sig.public_jwk();
    verify_only["key_ops"] = json!(["verify"]);
    let base = jwks_server(Arc::new(Mutex::new(
        json!({"keys": [enc_jwk, verify_only]}),
    )))
    .await;
    let app = crate::helpers::spawn_app_with(crate::helpers::TestBackend::Sqlite, |config| {
        config.identity_base_url = Some(base);
    })
    .await
    .expect("SQLite always runs");
    let claims = app.identity.session_claims("forger");
    refuse_token(&app, enc.sign(&claims).expect("sign")).await;
    assert_eq!(
        app.current_user(&sig.sign(&claims).expect("sign"))
            .await
            .status(),
        200,
        "a signing key beside it works"
    );
}

fn audience(config: &mut Config) {
    config.identity_audience = Some("mg-web".into());
}

async fn with_identity_audience_set_a_token_for_another_audience_is_refused(app: TestApp) {
    for aud in [
        None,
        Some(json!("another-service")),
        Some(json!(["x", "y"])),
    ] {
        let mut claims = app.identity.session_claims("forger");
        if let Some(aud) = aud {
            claims["aud"] = aud;
        }
        refuse_token(&app, app.identity.sign(&claims)).await;
    }
    for aud in [json!("mg-web"), json!(["other", "mg-web"])] {
        let mut claims = app.identity.session_claims("person");
        claims["aud"] = aud;
        let answer = app.current_user(&app.identity.sign(&claims)).await;
        assert_eq!(answer.status(), 200);
    }
}
on_sqlite!(with_identity_audience_set_a_token_for_another_audience_is_refused, with audience);

async fn a_token_whose_expiry_is_years_ahead_is_refused_without_overflow(app: TestApp) {
    // Before: `exp = 2^64 - 1` was accepted, a token that never expires. (Earlier still, a debug
    // build overflowed on `exp + leeway` and dropped the connection.)
    for exp in [u64::MAX, now_seconds() + 10 * 365 * 24 * 3600] {
        let mut claims = app.identity.session_claims("forever");
        claims["exp"] = json!(exp);
        for _ in 0..2 {
            refuse_token(&app, app.identity.sign(&claims)).await;
        }
    }
    let mut claims = app.identity.session_claims("long");
    claims["exp"] = json!(now_seconds() + 30 * 24 * 3600);
    assert_eq!(
        app.current_user(&app.identity.sign(&claims)).await.status(),
        200,
        "a month-long session is fine"
    );
}
on_sqlite!(a_token_whose_expiry_is_years_ahead_is_refused_without_overflow);

//! The verifier's own algorithm rules, each on its own: `jsonwebtoken` refuses most of these tokens
//! too, so the API suite's forged tokens pass without them; here the refusal must be the verifier's
//! (`VerifyError::Algorithm`), before any key is looked up or any signature read.
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use jsonwebtoken::Algorithm;
use serde_json::json;

use super::{SessionVerifier, VerifyError};

/// One P-256 signing key, `kid` "ec" (the public key of RFC 7517's appendix A.1).
fn verifier() -> SessionVerifier {
    SessionVerifier::with_fixed_keys(
        "project",
        &json!({"keys": [{
            "kty": "EC",
            "crv": "P-256",
            "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
            "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM",
            "use": "sig",
            "kid": "ec",
        }]}),
    )
}

/// A token with this header, claims a session would carry, and a signature of junk.
fn token(header: serde_json::Value) -> String {
    let part = |value: serde_json::Value| URL_SAFE_NO_PAD.encode(value.to_string());
    let claims = json!({"sub": "u", "iss": "project", "exp": 4_102_444_800_u64, "drn": "DS"});
    format!(
        "{}.{}.{}",
        part(header),
        part(claims),
        URL_SAFE_NO_PAD.encode(b"junk")
    )
}

#[tokio::test]
async fn an_algorithm_outside_the_accepted_three_is_refused_before_its_kid_is_looked_up() {
    for alg in ["HS256", "HS512", "PS256", "EdDSA", "RS512"] {
        let refused = verifier()
            .verify_session_jwt(&token(json!({"alg": alg, "kid": "not-a-known-kid"})))
            .await;
        let expected: Algorithm = alg.parse().expect("an algorithm jsonwebtoken knows");
        assert_eq!(
            refused.err(),
            Some(VerifyError::Algorithm(expected)),
            "{alg}"
        );
    }
}

#[tokio::test]
async fn an_accepted_algorithm_that_is_not_its_keys_is_refused_by_the_key_not_the_token() {
    // RS256 is accepted, but the key "ec" is a P-256 key: the key decides.
    for alg in [Algorithm::RS256, Algorithm::ES384] {
        let name = format!("{alg:?}");
        let refused = verifier()
            .verify_session_jwt(&token(json!({"alg": name, "kid": "ec"})))
            .await;
        assert_eq!(refused.err(), Some(VerifyError::Algorithm(alg)), "{name}");
    }
}

#[tokio::test]
async fn alg_none_never_gets_past_the_header() {
    let refused = verifier()
        .verify_session_jwt(&token(json!({"alg": "none", "kid": "ec"})))
        .await;
    assert!(
        matches!(refused, Err(VerifyError::Malformed(_))),
        "{refused:?}"
    );
}

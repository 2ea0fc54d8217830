//! The server's session-token verification (`mg_platform::identity::verify`) against tokens signed
//! with this emulator's keys: key rotation and the provider's keys endpoint, and fuzzing the parser.
//! Here rather than beside the verifier because the floor does not link the emulator.

/// The provider's keys endpoint answering whatever `published` holds at each fetch.
/// (Tokens are signed with the identity emulator's keys.)
mod keys_endpoint {
    use std::sync::{Arc, Mutex};

    use axum::{routing::get, Json, Router};
    use serde_json::{json, Value};

    use crate::keys::{jwks, CurveAlgorithm, SigningKey};
    use mg_platform::identity::verify::{SessionVerifier, VerifyError};

    #[tokio::test]
    async fn an_empty_or_unusable_jwks_answer_keeps_the_last_good_keys() {
        let key = SigningKey::generate("k1", CurveAlgorithm::Es256).expect("key");
        let published = Arc::new(Mutex::new(jwks(&[&key])));
        let served = published.clone();
        let router = Router::new().route(
            "/v2/keys/P1",
            get(move || {
                let body = served.lock().expect("lock").clone();
                async move { Json(body) }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(async move { axum::serve(listener, router).await });
        let verifier =
            SessionVerifier::new("P1", &base).with_refetch_cooldown(std::time::Duration::ZERO);
        let now = mg_platform::time::now_ms() as u64 / 1000;
        let token = |sub: &str| {
            key.sign(&json!({"sub": sub, "iss": "P1", "drn": "DS", "iat": now, "exp": now + 600}))
                .expect("token")
        };
        assert!(verifier.verify_session_jwt(&token("a")).await.is_ok());
        let stranger = SigningKey::generate("k2", CurveAlgorithm::Es256).expect("key");
        let mut enc = stranger.public_jwk();
        enc["use"] = json!("enc");
        let answers: [Value; 3] = [
            json!({"keys": []}),
            json!({"keys": [enc, {"kty": "oct", "kid": "h", "k": "c2VjcmV0"}]}),
            json!({"keys": "nope"}),
        ];
        for answer in answers {
            *published.lock().expect("lock") = answer.clone();
            // An unknown kid makes the verifier refetch and meet the bad answer.
            let unknown = stranger
                .sign(&json!({"sub": "x", "iss": "P1", "drn": "DS", "exp": now + 600}))
                .expect("token");
            assert!(verifier.verify_session_jwt(&unknown).await.is_err());
            // Before: the empty set replaced the keys and every session stopped verifying.
            let fresh = token(&format!("after {answer}"));
            assert!(
                verifier.verify_session_jwt(&fresh).await.is_ok(),
                "after {answer} the last good key still verifies"
            );
        }
        // With no good keys ever fetched, an empty answer is "keys unavailable" (503), not 401.
        let fresh_verifier = SessionVerifier::new("P1", &base);
        *published.lock().expect("lock") = json!({"keys": []});
        assert!(matches!(
            fresh_verifier.verify_session_jwt(&token("b")).await,
            Err(VerifyError::KeysUnavailable(_))
        ));
    }
}

/// Fuzzing the parser (docs/quality.md): whatever arrives as a bearer token, verification
/// answers an error and never panics; only a token signed by the key passes.
mod fuzz {
    use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
    use proptest::prelude::*;
    use serde_json::json;

    use crate::keys::{jwks, CurveAlgorithm, SigningKey};
    use mg_platform::identity::verify::SessionVerifier;

    fn verifier() -> (SessionVerifier, SigningKey) {
        let key = SigningKey::generate("k1", CurveAlgorithm::Es256).expect("key");
        (SessionVerifier::with_fixed_keys("P1", &jwks(&[&key])), key)
    }

    fn verify(verifier: &SessionVerifier, token: &str) -> bool {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime")
            .block_on(verifier.verify_session_jwt(token))
            .is_ok()
    }

    /// Header JSON objects with the fields a parser looks at, set to anything.
    fn header_json() -> impl Strategy<Value = String> {
        let alg = prop_oneof![
            Just(json!("ES256")),
            Just(json!("none")),
            Just(json!("HS256")),
            Just(json!("RS256")),
            any::<i64>().prop_map(|n| json!(n)),
            ".{0,12}".prop_map(|s| json!(s)),
        ];
        let kid = prop_oneof![
            Just(json!("k1")),
            Just(json!(null)),
            ".{0,12}".prop_map(|s| json!(s)),
            any::<bool>().prop_map(|b| json!(b)),
        ];
        (alg, kid, ".{0,8}")
            .prop_map(|(alg, kid, typ)| json!({ "alg": alg, "kid": kid, "typ": typ }).to_string())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn arbitrary_text_never_verifies_or_panics(token in ".{0,300}") {
            let (verifier, _) = verifier();
            prop_assert!(!verify(&verifier, &token));
        }

        #[test]
        fn arbitrary_headers_and_bodies_never_verify_or_panic(
            header in header_json(),
            payload in proptest::collection::vec(any::<u8>(), 0..200),
            signature in proptest::collection::vec(any::<u8>(), 0..80),
        ) {
            let (verifier, _) = verifier();
            let token = format!(
                "{}.{}.{}",
                URL_SAFE_NO_PAD.encode(header),
                URL_SAFE_NO_PAD.encode(payload),
                URL_SAFE_NO_PAD.encode(signature),
            );
            prop_assert!(!verify(&verifier, &token));
        }

        #[test]
        fn a_signed_token_with_any_claims_passes_only_when_they_are_right(
            sub in prop_oneof![Just(String::new()), "[a-z0-9]{1,12}"],
            iss in prop_oneof![Just("P1".to_owned()), ".{0,10}"],
            drn in prop_oneof![Just("DS".to_owned()), Just("DSR".to_owned()), ".{0,4}"],
            // Clear of the 5 s leeway's edge, so a second ticking over cannot flip the answer.
            expires_in in prop_oneof![-100i64..-10, 1i64..3600],
        ) {
            let (verifier, key) = verifier();
            let now = (mg_platform::time::now_ms() as u64 / 1000) as i64;
            let token = key
                .sign(&json!({
                    "sub": sub, "iss": iss, "drn": drn,
                    "iat": now, "exp": now + expires_in,
                }))
                .expect("token");
            let should_pass = !sub.trim().is_empty()
                && mg_platform::identity::issuer::issuer_matches(&iss, "P1")
                && drn == "DS"
                && expires_in > 0;
            prop_assert_eq!(verify(&verifier, &token), should_pass);
        }
    }
}

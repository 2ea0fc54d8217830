//! A stand-in for the hosted identity provider's key endpoint: a tiny axum server on port 0 that
//! serves `/v2/keys/{projectId}` and signs tokens with the server's own key module.
//!
//! The hosted provider is a boundary the tests cannot reach (no outside network, and its keys sign
//! only its own tokens), so its JWKS contract is reproduced here, as docs/identity.md describes it.

use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Arc,
};

use axum::{extract::Path, routing::get, Json, Router};
use mg_server::emulator::keys::{jwks, CurveAlgorithm, SigningKey};
use serde_json::{json, Value};

pub const PROJECT_ID: &str = "P2testproject";

/// The JWKS server plus the keys it publishes.
#[derive(Debug, Clone)]
pub struct TestIdentity {
    pub project_id: String,
    pub base_url: String,
    /// Published, ES256 (`kid` "test-es256").
    pub key: Arc<SigningKey>,
    /// Published, ES384 (`kid` "test-es384").
    pub key_384: Arc<SigningKey>,
    /// How many times the server fetched the JWKS.
    pub fetches: Arc<AtomicUsize>,
}

impl TestIdentity {
    pub async fn start() -> Self {
        let key = Arc::new(SigningKey::generate("test-es256", CurveAlgorithm::Es256).expect("key"));
        let key_384 =
            Arc::new(SigningKey::generate("test-es384", CurveAlgorithm::Es384).expect("key"));
        let fetches = Arc::new(AtomicUsize::new(0));
        let published = jwks(&[&key, &key_384]);
        let counter = fetches.clone();
        let router = Router::new().route(
            "/v2/keys/{project}",
            get(move |Path(project): Path<String>| {
                let published = published.clone();
                let counter = counter.clone();
                async move {
                    counter.fetch_add(1, Ordering::SeqCst);
                    if project == PROJECT_ID {
                        Json(published)
                    } else {
                        Json(json!({ "keys": [] }))
                    }
                }
            }),
        );
        let base_url = crate::helpers::serve(router).await;
        Self {
            project_id: PROJECT_ID.to_owned(),
            base_url,
            key,
            key_384,
            fetches,
        }
    }

    /// The claims of a fresh session token for `sub`, valid for ten minutes.
    pub fn session_claims(&self, sub: &str) -> Value {
        let now = now_seconds();
        json!({
            "sub": sub,
            "iss": self.project_id,
            "iat": now,
            "exp": now + 600,
            "drn": "DS",
            "amr": ["oauth"],
        })
    }

    /// A valid session token for `sub`.
    pub fn session_token(&self, sub: &str) -> String {
        self.sign(&self.session_claims(sub))
    }

    /// Signs any claims with the published ES256 key.
    pub fn sign(&self, claims: &Value) -> String {
        self.key.sign(claims).expect("sign")
    }
}

pub fn now_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

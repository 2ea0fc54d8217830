//! Session-token verification against the identity provider's keys (docs/identity.md, "Tokens
//! and keys").

use std::{
    collections::HashMap,
    sync::{Arc, RwLock},
    time::{Duration, Instant},
};

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use jsonwebtoken::{jwk::Jwk, Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use serde_json::Value;
use thiserror::Error;
use tokio::sync::Mutex;

use super::issuer::issuer_matches;
use crate::time::Clock;

/// Tolerance for clock skew on `exp`, `nbf` and `iat`, as the provider's SDKs use.
pub const LEEWAY_SECONDS: u64 = 5;
/// Tokens longer than this are refused before any parsing (real session tokens are < 2 KiB).
pub const MAX_TOKEN_BYTES: usize = 8 * 1024;
/// An unknown `kid` refetches the JWKS at most this often, so forged kids cannot hammer the provider.
pub const REFETCH_COOLDOWN: Duration = Duration::from_secs(10);
/// No session token is valid for longer than this from now: an `exp` further ahead (up to
/// 2^64 - 1) is a forgery or a broken signer, not a session.
pub const MAX_LIFETIME_SECONDS: u64 = 400 * 24 * 3600;
const FETCH_TIMEOUT: Duration = Duration::from_secs(3);
const ALLOWED: [Algorithm; 3] = [Algorithm::RS256, Algorithm::ES256, Algorithm::ES384];

/// Why a token was refused. Only logged; clients see one generic 401 message.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum VerifyError {
    #[error("token is empty")]
    Empty,
    #[error("token is longer than {MAX_TOKEN_BYTES} bytes")]
    TooLong,
    #[error("malformed token: {0}")]
    Malformed(String),
    #[error("algorithm {0:?} is not accepted")]
    Algorithm(Algorithm),
    #[error("token header has no kid")]
    MissingKid,
    #[error("no key with kid {0:?}")]
    UnknownKid(String),
    #[error("token rejected: {0}")]
    Invalid(String),
    #[error("issuer {0:?} is not this project")]
    Issuer(String),
    #[error("not a session token (drn {0:?})")]
    NotSession(String),
    #[error("token issued in the future")]
    IssuedInFuture,
    #[error("expiry {0} is further ahead than any session lasts")]
    ExpiryTooFar(u64),
    #[error("token header marks {0:?} as critical, which this server does not understand")]
    Critical(String),
    #[error("audience {0:?} is not this service")]
    Audience(String),
    /// Not the token's fault: the keys cannot be fetched. Answers 503, not 401.
    #[error("identity keys unavailable: {0}")]
    KeysUnavailable(String),
}

/// The facts a verified session token carries.
#[derive(Debug, Clone, Deserialize)]
pub struct SessionClaims {
    pub sub: String,
    pub iss: String,
    pub exp: u64,
    #[serde(default)]
    pub iat: Option<u64>,
    #[serde(default)]
    pub drn: Option<String>,
    /// The provider's id of the sign-in the token was issued under (every token refreshed from
    /// that sign-in's refresh token carries the same one), when the provider sends it: what
    /// binds a session to its tokens (`AuthUser::binding`). The local emulator's tokens carry it.
    #[serde(default, deserialize_with = "text_or_none")]
    pub sid: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// The project-level roles the identity provider grants the user (`status-operator` makes a
    /// status operator: docs/status-operators.md). Anything but a list of strings reads as none.
    #[serde(default, deserialize_with = "roles_or_none")]
    pub roles: Vec<String>,
}

/// A `sid` claim that is not a short string (1 to 256 bytes) names no sign-in (rather than failing
/// the token).
fn text_or_none<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    let value = Value::deserialize(deserializer)?;
    Ok(value
        .as_str()
        .filter(|text| (1..=256).contains(&text.len()))
        .map(str::to_owned))
}

/// A `roles` claim that is not a list of strings grants nothing (rather than failing the token).
fn roles_or_none<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<String>, D::Error> {
    let value = Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).unwrap_or_default())
}

struct KnownKey {
    key: DecodingKey,
    algorithm: Algorithm,
}

/// Verifies session JWTs for one identity project; keys are fetched once and cached. Which tokens
/// verified before is the session store's business (`sessions.rs`), not this type's.
pub struct SessionVerifier {
    project_id: String,
    /// `None` for a fixed key set (the local emulator's own keys): nothing is ever fetched.
    keys_url: Option<String>,
    http: reqwest::Client,
    keys: RwLock<HashMap<String, Arc<KnownKey>>>,
    last_fetch: Mutex<Option<Instant>>,
    refetch_cooldown: Duration,
    /// `IDENTITY_AUDIENCE`: when set, a token's `aud` must name it.
    audience: Option<String>,
    /// The time `exp`, `nbf` and `iat` are read against (`Config::clock`).
    clock: Clock,
}

impl std::fmt::Debug for SessionVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionVerifier")
            .field("project_id", &self.project_id)
            .field("keys_url", &self.keys_url)
            .finish_non_exhaustive()
    }
}

impl SessionVerifier {
    /// A verifier for `project_id` whose keys live at `{base_url}/v2/keys/{project_id}`.
    pub fn new(project_id: &str, base_url: &str) -> Self {
        let http = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .build()
            .unwrap_or_default();
        Self {
            project_id: project_id.to_owned(),
            keys_url: Some(format!(
                "{}/v2/keys/{project_id}",
                base_url.trim_end_matches('/')
            )),
            http,
            keys: RwLock::new(HashMap::new()),
            last_fetch: Mutex::new(None),
            refetch_cooldown: REFETCH_COOLDOWN,
            audience: None,
            clock: Clock::default(),
        }
    }

    /// A verifier for `project_id` that trusts exactly the keys of `jwks` (`{"keys": [...]}`).
    /// The local emulator hands its own keys over this way: the server verifies the emulator's
    /// tokens by the same rules as any provider's, without calling itself over HTTP.
    pub fn with_fixed_keys(project_id: &str, jwks: &Value) -> Self {
        let keys = jwks["keys"]
            .as_array()
            .map(|listed| listed.iter().filter_map(usable_key).collect())
            .unwrap_or_default();
        Self {
            project_id: project_id.to_owned(),
            keys_url: None,
            http: reqwest::Client::new(),
            keys: RwLock::new(keys),
            last_fetch: Mutex::new(None),
            refetch_cooldown: REFETCH_COOLDOWN,
            audience: None,
            clock: Clock::default(),
        }
    }

    /// Also requires `aud` to name `audience`, when one is given (`IDENTITY_AUDIENCE`).
    /// How long after a refetch of the keys another may start (a tunable for tests, which
    /// rotate keys faster than a provider does).
    pub fn with_refetch_cooldown(mut self, cooldown: Duration) -> Self {
        self.refetch_cooldown = cooldown;
        self
    }

    pub fn with_audience(mut self, audience: Option<String>) -> Self {
        self.audience = audience;
        self
    }

    /// Reads the tokens' times against `clock` (the server's `Config::clock`).
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The verifier's clock, which the session store's expiries are read against too.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Checks signature, algorithm, kid, expiry (5 s leeway), issuer and `drn: "DS"`: every time;
    /// `AuthUser` asks the session store first.
    pub async fn verify_session_jwt(&self, token: &str) -> Result<SessionClaims, VerifyError> {
        if token.is_empty() {
            return Err(VerifyError::Empty);
        }
        if token.len() > MAX_TOKEN_BYTES {
            return Err(VerifyError::TooLong);
        }
        let header = jsonwebtoken::decode_header(token)
            .map_err(|error| VerifyError::Malformed(error.to_string()))?;
        // RFC 7515 4.1.11: a `crit` extension the verifier does not understand must be refused;
        // this server understands none (the library's header type drops the field, so read it).
        if let Some(critical) = critical_header(token) {
            return Err(VerifyError::Critical(critical));
        }
        if !ALLOWED.contains(&header.alg) {
            return Err(VerifyError::Algorithm(header.alg));
        }
        let kid = header
            .kid
            .filter(|kid| !kid.is_empty())
            .ok_or(VerifyError::MissingKid)?;
        let known = self.key_for(&kid).await?;
        // The key decides the algorithm, never the token: a header naming another algorithm
        // than the key's is refused (no algorithm confusion).
        if known.algorithm != header.alg {
            return Err(VerifyError::Algorithm(header.alg));
        }
        let mut validation = Validation::new(known.algorithm);
        validation.leeway = LEEWAY_SECONDS;
        validation.validate_exp = true;
        validation.validate_nbf = true;
        match &self.audience {
            Some(audience) => {
                validation.set_audience(&[audience]);
                validation.set_required_spec_claims(&["exp", "sub", "iss", "aud"]);
            }
            None => {
                validation.validate_aud = false;
                validation.set_required_spec_claims(&["exp", "sub", "iss"]);
            }
        }
        let claims = jsonwebtoken::decode::<SessionClaims>(token, &known.key, &validation)
            .map_err(|error| VerifyError::Invalid(error.to_string()))?
            .claims;
        // The library checked `exp` against the system clock; again against this verifier's (the
        // same time, unless a test advanced it), by the library's rule.
        let now = self.clock.now_seconds();
        if claims.exp.saturating_add(LEEWAY_SECONDS) < now {
            return Err(VerifyError::Invalid("ExpiredSignature".into()));
        }
        if !issuer_matches(&claims.iss, &self.project_id) {
            return Err(VerifyError::Issuer(claims.iss));
        }
        if claims.drn.as_deref() != Some("DS") {
            return Err(VerifyError::NotSession(claims.drn.unwrap_or_default()));
        }
        if claims.iat.is_some_and(|iat| iat > now + LEEWAY_SECONDS) {
            return Err(VerifyError::IssuedInFuture);
        }
        if claims.exp > now.saturating_add(MAX_LIFETIME_SECONDS) {
            return Err(VerifyError::ExpiryTooFar(claims.exp));
        }
        if claims.sub.trim().is_empty() {
            return Err(VerifyError::Invalid("empty sub".into()));
        }
        Ok(claims)
    }

    fn cached(&self, kid: &str) -> Option<Arc<KnownKey>> {
        self.keys.read().ok()?.get(kid).cloned()
    }

    async fn key_for(&self, kid: &str) -> Result<Arc<KnownKey>, VerifyError> {
        if let Some(key) = self.cached(kid) {
            return Ok(key);
        }
        let Some(keys_url) = &self.keys_url else {
            return Err(VerifyError::UnknownKid(kid.to_owned()));
        };
        let mut last_fetch = self.last_fetch.lock().await;
        // Another request may have fetched while this one waited for the lock.
        if let Some(key) = self.cached(kid) {
            return Ok(key);
        }
        let have_keys = self
            .keys
            .read()
            .map(|keys| !keys.is_empty())
            .unwrap_or(false);
        if last_fetch.is_some_and(|at| at.elapsed() < self.refetch_cooldown) {
            return Err(if have_keys {
                VerifyError::UnknownKid(kid.to_owned())
            } else {
                VerifyError::KeysUnavailable("waiting before fetching the keys again".into())
            });
        }
        *last_fetch = Some(Instant::now());
        let fetched = self.fetch_keys(keys_url).await?;
        if fetched.is_empty() {
            // An empty or unusable answer (a provider hiccup, a bad deploy) must not sign
            // everyone out: the last good keys stay.
            tracing::warn!(url = %keys_url, "identity keys answer holds no usable key; keeping the last good keys");
            return Err(if have_keys {
                VerifyError::UnknownKid(kid.to_owned())
            } else {
                VerifyError::KeysUnavailable("the JWKS holds no usable key".into())
            });
        }
        tracing::info!(count = fetched.len(), url = %keys_url, "identity keys fetched");
        if let Ok(mut keys) = self.keys.write() {
            *keys = fetched;
        }
        self.cached(kid)
            .ok_or_else(|| VerifyError::UnknownKid(kid.to_owned()))
    }

    async fn fetch_keys(
        &self,
        keys_url: &str,
    ) -> Result<HashMap<String, Arc<KnownKey>>, VerifyError> {
        let unavailable = |error: reqwest::Error| VerifyError::KeysUnavailable(error.to_string());
        let body: Value = self
            .http
            .get(keys_url)
            .send()
            .await
            .map_err(unavailable)?
            .error_for_status()
            .map_err(unavailable)?
            .json()
            .await
            .map_err(unavailable)?;
        let listed = body["keys"]
            .as_array()
            .ok_or_else(|| VerifyError::KeysUnavailable("no \"keys\" array in the JWKS".into()))?;
        // One key the server cannot use (symmetric, unknown curve) must not hide the others.
        Ok(listed.iter().filter_map(usable_key).collect())
    }
}

/// The `crit` header parameter's value, when the token's header has one.
fn critical_header(token: &str) -> Option<String> {
    let encoded = token.split('.').next()?;
    let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(encoded).ok()?).ok()?;
    header.get("crit").map(Value::to_string)
}

/// A JWKS entry this server may verify signatures with: a signing key (`use` absent or `sig`,
/// `key_ops` absent or holding `verify`) of an accepted algorithm, with a `kid`.
fn usable_key(raw: &Value) -> Option<(String, Arc<KnownKey>)> {
    if raw.get("use").is_some_and(|usage| usage != "sig") {
        return None;
    }
    if let Some(ops) = raw.get("key_ops") {
        if !ops.as_array()?.iter().any(|op| op == "verify") {
            return None;
        }
    }
    let jwk: Jwk = serde_json::from_value(raw.clone()).ok()?;
    let kid = jwk.common.key_id.clone().filter(|kid| !kid.is_empty())?;
    let algorithm = match (
        raw["kty"].as_str()?,
        raw["crv"].as_str(),
        raw["alg"].as_str(),
    ) {
        ("RSA", _, None | Some("RS256")) => Algorithm::RS256,
        ("EC", Some("P-256"), None | Some("ES256")) => Algorithm::ES256,
        ("EC", Some("P-384"), None | Some("ES384")) => Algorithm::ES384,
        _ => return None,
    };
    let key = DecodingKey::from_jwk(&jwk).ok()?;
    Some((kid, Arc::new(KnownKey { key, algorithm })))
}

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;

//! Session and refresh JWTs of the emulator, the JWT response around them, and refresh-token checks.

use std::{
    collections::{HashMap, HashSet},
    sync::Mutex,
};

use jsonwebtoken::{jwk::Jwk, DecodingKey, Validation};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{error::EmulatorError, grants::random_token};
use crate::{
    db::emulator_users::EmulatorUserRow,
    identity::{
        keys::{jwks, SigningKey},
        sha256_hex,
        verify::LEEWAY_SECONDS,
    },
    time::now_ms,
};

/// A session token lives ten minutes (the SDK refreshes before `sessionExpiration`).
pub const SESSION_SECONDS: u64 = 10 * 60;
/// A refresh token lives thirty days.
pub const REFRESH_SECONDS: u64 = 30 * 24 * 60 * 60;
const MAX_REVOKED: usize = 100_000;

#[derive(Debug, Deserialize)]
struct RefreshClaims {
    sub: String,
    iss: String,
    #[serde(default)]
    iat: u64,
    #[serde(default)]
    drn: Option<String>,
}

/// Signs the emulator's tokens and checks its refresh tokens.
pub struct TokenIssuer {
    project_id: String,
    key: SigningKey,
    decoding: DecodingKey,
    /// SHA-256 of refresh tokens ended by logout.
    revoked: Mutex<HashSet<String>>,
    /// Per user: refresh tokens issued before this second are ended (logoutall).
    ended_before: Mutex<HashMap<String, u64>>,
}

impl std::fmt::Debug for TokenIssuer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenIssuer")
            .field("project_id", &self.project_id)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl TokenIssuer {
    pub fn new(project_id: &str, key: SigningKey) -> anyhow::Result<Self> {
        let jwk: Jwk = serde_json::from_value(key.public_jwk())?;
        let decoding = DecodingKey::from_jwk(&jwk)?;
        Ok(Self {
            project_id: project_id.to_owned(),
            key,
            decoding,
            revoked: Mutex::new(HashSet::new()),
            ended_before: Mutex::new(HashMap::new()),
        })
    }

    pub fn project_id(&self) -> &str {
        &self.project_id
    }

    /// `{"keys": [...]}` as served at `/v2/keys/{projectId}`.
    pub fn jwks(&self) -> Value {
        jwks(&[&self.key])
    }

    /// A new session token for `user`, with its decoded claims.
    pub fn session_token(&self, user: &EmulatorUserRow) -> Result<(String, Value), EmulatorError> {
        let now = now_seconds();
        let claims = json!({
            "sub": user.user_id,
            "iss": self.project_id,
            "iat": now,
            "exp": now + SESSION_SECONDS,
            "drn": "DS",
            "amr": ["oauth"],
            "jti": random_token(),
            "email": user.email,
            "name": user.name,
        });
        let token = self.key.sign(&claims).map_err(EmulatorError::internal)?;
        Ok((token, claims))
    }

    /// A new refresh token for `user` (`drn: "DSR"`: never accepted as a session token).
    pub fn refresh_token(&self, user: &EmulatorUserRow) -> Result<String, EmulatorError> {
        let now = now_seconds();
        let claims = json!({
            "sub": user.user_id,
            "iss": self.project_id,
            "iat": now,
            "exp": now + REFRESH_SECONDS,
            "drn": "DSR",
            "amr": ["oauth"],
            "jti": random_token(),
        });
        self.key.sign(&claims).map_err(EmulatorError::internal)
    }

    /// The JWT response of exchange and refresh (IDENTITY.md "JWT response").
    pub fn jwt_response(
        &self,
        user: &EmulatorUserRow,
        refresh_jwt: Option<&str>,
        first_seen: bool,
    ) -> Result<Value, EmulatorError> {
        let (session_jwt, claims) = self.session_token(user)?;
        let refresh_jwt = match refresh_jwt {
            Some(token) => token.to_owned(),
            None => self.refresh_token(user)?,
        };
        let now = now_seconds();
        Ok(json!({
            "sessionJwt": session_jwt,
            "refreshJwt": refresh_jwt,
            "sessionExpiration": claims["exp"],
            "claims": claims,
            "user": user_json(user),
            "firstSeen": first_seen,
            "cookiePath": "/",
            "cookieDomain": "",
            "cookieMaxAge": REFRESH_SECONDS,
            "cookieExpiration": now + REFRESH_SECONDS,
        }))
    }

    /// The user id of a valid, unrevoked refresh token of this project.
    pub fn verify_refresh(&self, token: &str) -> Result<String, EmulatorError> {
        let refused =
            |why: &str| EmulatorError::unauthorized(format!("Invalid refresh token: {why}"));
        let mut validation = Validation::new(self.key.algorithm().jwt());
        validation.leeway = LEEWAY_SECONDS;
        validation.validate_aud = false;
        validation.set_required_spec_claims(&["exp", "sub", "iss"]);
        let claims = jsonwebtoken::decode::<RefreshClaims>(token, &self.decoding, &validation)
            .map_err(|_| refused("signature or expiry"))?
            .claims;
        if claims.iss != self.project_id {
            return Err(refused("another project"));
        }
        if claims.drn.as_deref() != Some("DSR") {
            return Err(refused("not a refresh token"));
        }
        let hash = sha256_hex(token.as_bytes());
        if self.revoked.lock().is_ok_and(|set| set.contains(&hash)) {
            return Err(refused("signed out"));
        }
        let ended = self
            .ended_before
            .lock()
            .ok()
            .and_then(|ended| ended.get(&claims.sub).copied());
        if ended.is_some_and(|before| claims.iat < before) {
            return Err(refused("signed out everywhere"));
        }
        Ok(claims.sub)
    }

    /// Ends one refresh token (logout).
    pub fn revoke(&self, token: &str) {
        if let Ok(mut revoked) = self.revoked.lock() {
            if revoked.len() >= MAX_REVOKED {
                revoked.clear();
            }
            revoked.insert(sha256_hex(token.as_bytes()));
        }
    }

    /// Ends every refresh token of `user_id` issued before now (logoutall), and `token` itself.
    pub fn revoke_all(&self, user_id: &str, token: &str) {
        self.revoke(token);
        if let Ok(mut ended) = self.ended_before.lock() {
            ended.insert(user_id.to_owned(), now_seconds());
        }
    }
}

/// The user object (IDENTITY.md "User object"), plus `username`, which the app's view reads.
pub fn user_json(user: &EmulatorUserRow) -> Value {
    let (given, family) = user
        .name
        .split_once(' ')
        .map(|(given, family)| (given.trim(), family.trim()))
        .unwrap_or((user.name.as_str(), ""));
    let mut oauth = serde_json::Map::new();
    oauth.insert(user.provider.clone(), Value::Bool(true));
    json!({
        "userId": user.user_id,
        // The first login id names the provider (spec 3), as a social login's does: the app reads
        // the provider from it. The e-mail follows as a second login id.
        "loginIds": [format!("{}-{}", user.provider, user.user_id), user.email],
        "email": user.email,
        "name": user.name,
        "givenName": given,
        "familyName": family,
        "username": user.username,
        "picture": "",
        "verifiedEmail": true,
        "createdTime": user.created_at / 1000,
        "status": "enabled",
        "OAuth": oauth,
        "customAttributes": {},
    })
}

fn now_seconds() -> u64 {
    u64::try_from(now_ms() / 1000).unwrap_or(0)
}

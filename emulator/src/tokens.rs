//! Session and refresh JWTs of the emulator, the JWT response around them, and refresh-token checks.

use std::{
    collections::{BTreeSet, HashMap, HashSet},
    sync::Mutex,
};

use jsonwebtoken::{jwk::Jwk, DecodingKey, Validation};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{error::EmulatorError, grants::random_token};
use crate::{
    keys::{jwks, SigningKey},
    users::EmulatorUserRow,
};
use mg_platform::{
    identity::{ecdsa::canonical_token, sha256_hex, verify::LEEWAY_SECONDS},
    time::Clock,
};

/// A session token lives ten minutes (the SDK refreshes before `sessionExpiration`).
pub const SESSION_SECONDS: u64 = 10 * 60;
/// A refresh token lives thirty days.
pub const REFRESH_SECONDS: u64 = 30 * 24 * 60 * 60;

#[derive(Debug, Deserialize)]
struct RefreshClaims {
    sub: String,
    iss: String,
    exp: u64,
    #[serde(default)]
    iat: u64,
    #[serde(default)]
    drn: Option<String>,
    #[serde(default)]
    sid: Option<String>,
}

/// What a valid refresh token says: whose it is, the sign-in it belongs to (`sid`, which every
/// session token refreshed from it carries too) and when it was issued (unix seconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshOf {
    pub user_id: String,
    pub sid: Option<String>,
    pub issued_at: u64,
}

/// Signs the emulator's tokens and checks its refresh tokens.
pub struct TokenIssuer {
    project_id: String,
    key: SigningKey,
    decoding: DecodingKey,
    /// Refresh tokens ended by logout, kept until they would have expired anyway.
    revoked: Mutex<Revoked>,
    /// Per user: refresh tokens issued before this second are ended (logoutall).
    ended_before: Mutex<HashMap<String, u64>>,
    /// E-mail addresses (lower case) whose session tokens carry the status-operator role.
    operators: Vec<String>,
    /// The time tokens are issued at and revocations are stamped with: the server's clock, which
    /// tests move forward instead of waiting for the next second.
    clock: Clock,
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
            revoked: Mutex::new(Revoked::default()),
            ended_before: Mutex::new(HashMap::new()),
            operators: Vec::new(),
            clock: Clock::default(),
        })
    }

    pub fn project_id(&self) -> &str {
        &self.project_id
    }

    /// `{"keys": [...]}` as served at `/v2/keys/{projectId}`.
    pub fn jwks(&self) -> Value {
        jwks(&[&self.key])
    }

    /// Issues and stamps on `clock` (the server's: `Config::clock`).
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// Gives the status-operator role to the users with these e-mail addresses (lower case).
    pub fn with_operators(mut self, emails: Vec<String>) -> Self {
        self.operators = emails;
        self
    }

    /// A new session token for `user` of the sign-in `sid`, with its decoded claims.
    pub fn session_token(
        &self,
        user: &EmulatorUserRow,
        sid: Option<&str>,
    ) -> Result<(String, Value), EmulatorError> {
        let mut claims = self.claims_of(user, SESSION_SECONDS, "DS");
        if let Some(sid) = sid {
            claims["sid"] = json!(sid);
        }
        claims["email"] = json!(user.email);
        claims["name"] = json!(user.name);
        if self.operators.contains(&user.email.to_lowercase()) {
            claims["roles"] = json!([mg_domain::notices::OPERATOR_ROLE]);
        }
        let token = self.key.sign(&claims).map_err(EmulatorError::internal)?;
        Ok((token, claims))
    }

    /// A new refresh token for `user` (`drn: "DSR"`: never accepted as a session token), of the
    /// new sign-in it starts, and that sign-in's id (`sid`).
    pub fn refresh_token(&self, user: &EmulatorUserRow) -> Result<(String, String), EmulatorError> {
        let mut claims = self.claims_of(user, REFRESH_SECONDS, "DSR");
        let sid = random_token();
        claims["sid"] = json!(sid);
        let token = self.key.sign(&claims).map_err(EmulatorError::internal)?;
        Ok((token, sid))
    }

    /// The claims of every token of `user`: issued now for `lifetime` seconds, of the kind `drn`
    /// (`DS` a session, `DSR` a refresh token), with an id of its own.
    fn claims_of(&self, user: &EmulatorUserRow, lifetime: u64, drn: &str) -> Value {
        let now = self.clock.now_seconds();
        json!({
            "sub": user.user_id,
            "iss": self.project_id,
            "iat": now,
            "exp": now + lifetime,
            "drn": drn,
            "amr": ["oauth"],
            "jti": random_token(),
        })
    }

    /// The JWT response of exchange (`refresh` none: a new sign-in) and refresh (`refresh` the
    /// refresh token and its sign-in id) (docs/identity.md "JWT response").
    pub fn jwt_response(
        &self,
        user: &EmulatorUserRow,
        refresh: Option<(&str, Option<&str>)>,
        first_seen: bool,
    ) -> Result<Value, EmulatorError> {
        let (refresh_jwt, sid) = match refresh {
            // A refresh token from before sign-ins had ids: its session tokens name none.
            Some((token, sid)) => (token.to_owned(), sid.map(str::to_owned)),
            None => {
                let (token, sid) = self.refresh_token(user)?;
                (token, Some(sid))
            }
        };
        let (session_jwt, claims) = self.session_token(user, sid.as_deref())?;
        let now = self.clock.now_seconds();
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

    /// The user, sign-in and issue time of a valid refresh token of this project that was not
    /// logged out. (Whether the app signed its sign-in out is the caller's to ask: `api::user_of`.)
    pub fn verify_refresh(&self, token: &str) -> Result<RefreshOf, EmulatorError> {
        let claims = self.signed_refresh(token)?;
        // Keyed by the canonical spelling, so the high-S twin of a revoked token is revoked too.
        let hash = sha256_hex(canonical_token(token).as_bytes());
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
        Ok(RefreshOf {
            user_id: claims.sub,
            sid: claims.sid,
            issued_at: claims.iat,
        })
    }

    /// The claims of a refresh token this emulator signed, unexpired (revocation not checked).
    fn signed_refresh(&self, token: &str) -> Result<RefreshClaims, EmulatorError> {
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
        Ok(claims)
    }

    /// Ends one refresh token (logout). Only a token this emulator signed and that has not
    /// expired is remembered, and only until its own expiry: junk cannot grow the set, and
    /// nothing is ever forgotten early.
    pub fn revoke(&self, token: &str) -> Result<String, EmulatorError> {
        let claims = self.signed_refresh(token)?;
        if let Ok(mut revoked) = self.revoked.lock() {
            revoked.drop_expired(self.clock.now_seconds());
            revoked.insert(
                sha256_hex(canonical_token(token).as_bytes()),
                claims.exp.saturating_add(LEEWAY_SECONDS),
            );
        }
        Ok(claims.sub)
    }

    /// Ends every refresh token of the user of `token` issued before now (logoutall), and
    /// `token` itself.
    pub fn revoke_all(&self, token: &str) -> Result<(), EmulatorError> {
        let user_id = self.verify_refresh(token)?.user_id;
        self.revoke(token)?;
        if let Ok(mut ended) = self.ended_before.lock() {
            ended.insert(user_id, self.clock.now_seconds());
        }
        Ok(())
    }

    /// How many revocations are held (tests: junk must not add any).
    pub fn revoked_count(&self) -> usize {
        self.revoked.lock().map(|r| r.hashes.len()).unwrap_or(0)
    }
}

fn refused(why: &str) -> EmulatorError {
    EmulatorError::unauthorized(format!("Invalid refresh token: {why}"))
}

/// SHA-256 (hex) of revoked refresh tokens, each with the second after which it is dropped.
#[derive(Debug, Default)]
struct Revoked {
    hashes: HashSet<String>,
    by_expiry: BTreeSet<(u64, String)>,
}

impl Revoked {
    fn contains(&self, hash: &str) -> bool {
        self.hashes.contains(hash)
    }

    fn insert(&mut self, hash: String, until: u64) {
        if self.hashes.insert(hash.clone()) {
            self.by_expiry.insert((until, hash));
        }
    }

    /// Forgets revocations of tokens that have expired (no longer accepted anyway).
    fn drop_expired(&mut self, now: u64) {
        while let Some((until, _)) = self.by_expiry.first() {
            if *until >= now {
                break;
            }
            if let Some((_, hash)) = self.by_expiry.pop_first() {
                self.hashes.remove(&hash);
            }
        }
    }
}

/// The user object (docs/identity.md "User object"), plus `username`, which the app's view reads.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::CurveAlgorithm;

    fn issuer() -> TokenIssuer {
        let key = SigningKey::generate("k1", CurveAlgorithm::Es256).expect("key");
        TokenIssuer::new("P1", key).expect("issuer")
    }

    fn user() -> EmulatorUserRow {
        EmulatorUserRow {
            provider: "github".into(),
            email: "ada@example.com".into(),
            user_id: "U1".into(),
            name: "Ada".into(),
            username: "ada".into(),
            created_at: 0,
        }
    }

    #[test]
    fn a_hundred_thousand_junk_logouts_do_not_bring_a_signed_out_token_back() {
        // Before: every logout stored its token unchecked and the 100,000th cleared the set, so
        // the signed-out refresh token below verified again.
        let issuer = issuer();
        let (refresh, _) = issuer.refresh_token(&user()).expect("token");
        issuer.revoke(&refresh).expect("ours");
        assert!(issuer.verify_refresh(&refresh).is_err());
        for n in 0..100_000 {
            assert!(issuer.revoke(&format!("junk-{n}")).is_err());
        }
        assert_eq!(issuer.revoked_count(), 1, "junk is not stored");
        assert!(issuer.verify_refresh(&refresh).is_err(), "still signed out");
    }

    #[test]
    fn a_revocation_is_dropped_only_after_its_token_has_expired() {
        let issuer = issuer();
        let now = issuer.clock.now_seconds();
        let sign = |exp: u64| {
            issuer
                .key
                .sign(&json!({"sub": "U1", "iss": "P1", "iat": now, "exp": exp, "drn": "DSR"}))
                .expect("token")
        };
        // Expired beyond the leeway: refused already, so there is nothing to remember.
        assert!(issuer.revoke(&sign(now - 60)).is_err());
        // Within the leeway still valid: remembered until exp + leeway.
        let nearly = sign(now - 1);
        issuer.revoke(&nearly).expect("still valid");
        let (long, _) = issuer.refresh_token(&user()).expect("token");
        issuer.revoke(&long).expect("ours");
        assert_eq!(issuer.revoked_count(), 2);
        let mut revoked = issuer.revoked.lock().expect("lock");
        revoked.drop_expired(now + LEEWAY_SECONDS + 1);
        assert_eq!(
            revoked.hashes.len(),
            1,
            "the expired one went, the live one stays"
        );
        assert!(revoked.contains(&sha256_hex(long.as_bytes())));
    }

    #[test]
    fn logoutall_needs_a_valid_token_of_the_user() {
        let issuer = issuer();
        let (refresh, _) = issuer.refresh_token(&user()).expect("token");
        assert!(issuer.revoke_all("junk").is_err());
        assert!(issuer.ended_before.lock().expect("lock").is_empty());
        issuer.revoke_all(&refresh).expect("ours");
        assert!(issuer.verify_refresh(&refresh).is_err());
    }
}

//! Identity: verifying the provider's session tokens, and the `AuthUser` extractor built on it.

pub mod account;
pub mod device_label;
pub mod ecdsa;
pub mod issuer;
pub mod sessions;
pub mod signed_in;
pub mod verify;

use std::{borrow::Cow, sync::Arc};

use axum::{
    extract::{FromRef, FromRequestParts},
    http::header,
    http::request::Parts,
};

use crate::{db::Database, error::AppError, time::now_ms};
use sessions::{SessionStore, VerifiedSession};
use verify::{SessionVerifier, VerifyError};

/// A request whose bearer token verified. Handlers that take it are never reached without one.
/// It shares the verified session with the session store: taking it copies no claims.
#[derive(Debug, Clone)]
pub struct AuthUser(Arc<VerifiedSession>);

impl AuthUser {
    /// The identity provider's user id (the token's `sub`).
    pub fn identity_id(&self) -> &str {
        &self.0.claims.sub
    }

    /// The roles the token's `roles` claim grants.
    pub fn roles(&self) -> &[String] {
        &self.0.claims.roles
    }

    pub fn email(&self) -> Option<&str> {
        self.0.claims.email.as_deref()
    }

    /// SHA-256 of the token's canonical spelling ([`ecdsa::canonical_token`]), hex: the only form
    /// in which a session is stored.
    pub fn token_hash(&self) -> &str {
        &self.0.token_hash
    }

    /// When the session token expires, unix milliseconds.
    pub fn expires_at_ms(&self) -> i64 {
        i64::try_from(self.0.claims.exp.saturating_mul(1000)).unwrap_or(i64::MAX)
    }

    /// What ties this token to its session ([`binding_of`]): signing the session out revokes it.
    pub fn binding(&self) -> &str {
        &self.0.binding
    }

    /// The key of the user's not-before time ([`user_key`]).
    pub fn user_key(&self) -> &str {
        &self.0.user_key
    }

    /// When the token was issued (`iat`), unix milliseconds; 0 when it does not say.
    pub fn issued_at_ms(&self) -> i64 {
        issued_at_ms(self.0.claims.iat)
    }
}

/// `iat` (unix seconds) in milliseconds; a token that does not say counts as issued at 0, so a
/// not-before time refuses it.
pub fn issued_at_ms(iat: Option<u64>) -> i64 {
    iat.and_then(|seconds| i64::try_from(seconds.saturating_mul(1000)).ok())
        .unwrap_or(0)
}

/// SHA-256 (hex) of the provider's user id: the key under which the user's not-before time is
/// kept, which outlives the account's deletion and so holds no readable id.
pub fn user_key(identity_id: &str) -> String {
    sha256_hex(format!("user\n{identity_id}").as_bytes())
}

/// What ties a token to its session: `sid:` and SHA-256 (hex) of the user and the provider's
/// sign-in id (`sid`) when the token names one, so every token refreshed from that sign-in shares
/// it ([`is_sign_in_binding`]); else the token's own hash. Signing a session out revokes its
/// bindings, which every route checks.
pub fn binding_of(sub: &str, sid: Option<&str>, token_hash: &str) -> String {
    match sid {
        Some(sid) => format!(
            "{SIGN_IN_BINDING}{}",
            sha256_hex(format!("sign-in\n{sub}\n{sid}").as_bytes())
        ),
        None => token_hash.to_owned(),
    }
}

const SIGN_IN_BINDING: &str = "sid:";

/// Whether a binding names the provider's sign-in (so revoking it also refuses every token that
/// sign-in is later refreshed to), rather than one token.
pub fn is_sign_in_binding(binding: &str) -> bool {
    binding.starts_with(SIGN_IN_BINDING)
}

/// Needs the state's `Option<Arc<SessionVerifier>>` (`None`: no identity project, 503), its
/// `Arc<SessionStore>` (a token that verified before is taken from the store until it expires, so
/// only its expiry is checked again) and its `Database`: every request, on every instance, asks it
/// whether the token was signed out ([`Database::token_refused`]: its binding revoked, or issued
/// before the user's not-before time), and is refused with 401 `session_revoked` if so.
impl<S> FromRequestParts<S> for AuthUser
where
    S: Send + Sync,
    Option<Arc<SessionVerifier>>: FromRef<S>,
    Arc<SessionStore>: FromRef<S>,
    Database: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let user = Self::verified(parts, state).await?;
        let now = Option::<Arc<SessionVerifier>>::from_ref(state)
            .map_or_else(now_ms, |verifier| verifier.clock().now_ms());
        let refused = Database::from_ref(state)
            .token_refused(user.binding(), user.user_key(), user.issued_at_ms(), now)
            .await?;
        if refused {
            return Err(AppError::SessionRevoked);
        }
        Ok(user)
    }
}

impl AuthUser {
    /// The request's bearer token, verified (or found in the store), not yet checked for
    /// revocation.
    async fn verified<S>(parts: &Parts, state: &S) -> Result<Self, AppError>
    where
        S: Send + Sync,
        Option<Arc<SessionVerifier>>: FromRef<S>,
        Arc<SessionStore>: FromRef<S>,
    {
        let token = bearer_token(parts)?;
        let verifier = Option::<Arc<SessionVerifier>>::from_ref(state).ok_or_else(|| {
            AppError::IdentityUnavailable(
                "IDENTITY_BASE_URL is set without IDENTITY_PROJECT_ID".into(),
            )
        })?;
        let sessions = Arc::<SessionStore>::from_ref(state);
        // The store holds tokens by their canonical spelling, so a low-S token (every token the
        // emulator signs, about half of other signers') is found without any decoding.
        // Remembered until the token expires by the verifier's clock.
        let now = verifier.clock().now_ms();
        if let Some(session) = sessions.verified(token, now) {
            return Ok(Self(session));
        }
        let canonical = ecdsa::canonical_token(token);
        if let Cow::Owned(canonical) = &canonical {
            if let Some(session) = sessions.verified(canonical, now) {
                return Ok(Self(session));
            }
        }
        let claims = verifier
            .verify_session_jwt(token)
            .await
            .map_err(|error| match error {
                VerifyError::KeysUnavailable(detail) => AppError::IdentityUnavailable(detail),
                other => AppError::Unauthorized(other.to_string()),
            })?;
        let token_hash = sha256_hex(canonical.as_bytes());
        let session = Arc::new(VerifiedSession {
            binding: binding_of(&claims.sub, claims.sid.as_deref(), &token_hash),
            user_key: user_key(&claims.sub),
            claims,
            token_hash,
        });
        sessions.remember_verified(&canonical, session.clone());
        Ok(Self(session))
    }
}

fn bearer_token(parts: &Parts) -> Result<&str, AppError> {
    let value = parts
        .headers
        .get(header::AUTHORIZATION)
        .ok_or_else(|| AppError::Unauthorized("no Authorization header".into()))?
        .to_str()
        .map_err(|_| AppError::Unauthorized("Authorization header is not text".into()))?;
    let (scheme, token) = value
        .split_once(' ')
        .ok_or_else(|| AppError::Unauthorized("Authorization is not 'Bearer <token>'".into()))?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(AppError::Unauthorized(
            "Authorization scheme is not Bearer".into(),
        ));
    }
    let token = token.trim();
    if token.is_empty() {
        return Err(AppError::Unauthorized("empty bearer token".into()));
    }
    Ok(token)
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    crate::hex::encode(ring::digest::digest(&ring::digest::SHA256, bytes).as_ref())
}

#[cfg(test)]
mod tests {
    #[test]
    fn sha256_hex_is_the_lower_case_hex_digest() {
        // printf abc | sha256sum
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_not_before_time_outlives_every_token_issued_before_it() {
        use super::verify::{LEEWAY_SECONDS, MAX_LIFETIME_SECONDS};
        let longest = i64::try_from((MAX_LIFETIME_SECONDS + LEEWAY_SECONDS) * 1000).expect("ms");
        assert_eq!(crate::db::revocations::CUTOFF_KEPT_MS, longest);
    }
}

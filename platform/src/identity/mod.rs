//! Identity: verifying the provider's session tokens, and the `AuthUser` extractor built on it.

pub mod device_label;
pub mod ecdsa;
pub mod sessions;
pub mod verify;

use std::{borrow::Cow, sync::Arc};

use axum::{
    extract::{FromRef, FromRequestParts},
    http::header,
    http::request::Parts,
};

use crate::{error::AppError, time::now_ms};
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
}

/// Needs the state's `Option<Arc<SessionVerifier>>` (`None`: no identity project, 503) and its
/// `Arc<SessionStore>`: a token that verified before is taken from the store until it expires, so
/// only its expiry is checked again.
impl<S> FromRequestParts<S> for AuthUser
where
    S: Send + Sync,
    Option<Arc<SessionVerifier>>: FromRef<S>,
    Arc<SessionStore>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let token = bearer_token(parts)?;
        let verifier = Option::<Arc<SessionVerifier>>::from_ref(state).ok_or_else(|| {
            AppError::IdentityUnavailable(
                "IDENTITY_BASE_URL is set without IDENTITY_PROJECT_ID".into(),
            )
        })?;
        let sessions = Arc::<SessionStore>::from_ref(state);
        // The store holds tokens by their canonical spelling, so a low-S token (every token the
        // emulator signs, about half of other signers') is found without any decoding.
        if let Some(session) = sessions.verified(token, now_ms()) {
            return Ok(Self(session));
        }
        let canonical = ecdsa::canonical_token(token);
        if let Cow::Owned(canonical) = &canonical {
            if let Some(session) = sessions.verified(canonical, now_ms()) {
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
        let session = Arc::new(VerifiedSession {
            claims,
            token_hash: sha256_hex(canonical.as_bytes()),
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
}

//! Identity: verifying the provider's session tokens, and the `AuthUser` extractor built on it.

pub mod ecdsa;
pub mod sessions;
pub mod verify;

use std::sync::Arc;

use axum::{
    extract::{FromRef, FromRequestParts},
    http::header,
    http::request::Parts,
};

use crate::{error::AppError, time::now_ms};
use sessions::{SessionStore, VerifiedSession};
use verify::{SessionVerifier, VerifyError};

/// A request whose bearer token verified. Handlers that take it are never reached without one.
#[derive(Debug, Clone)]
pub struct AuthUser {
    /// The identity provider's user id (the token's `sub`).
    pub identity_id: String,
    pub email: Option<String>,
    pub name: Option<String>,
    /// SHA-256 of the token, hex: the only form in which a session is stored.
    pub token_hash: String,
    /// When the session token expires, unix milliseconds.
    pub expires_at_ms: i64,
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
        let verifier = Option::<Arc<SessionVerifier>>::from_ref(state);
        let verifier = verifier.as_ref().ok_or_else(|| {
            AppError::IdentityUnavailable(
                "IDENTITY_BASE_URL is set without IDENTITY_PROJECT_ID".into(),
            )
        })?;
        let sessions = Arc::<SessionStore>::from_ref(state);
        let session = match sessions.verified(token, now_ms()) {
            Some(session) => session,
            None => {
                let claims =
                    verifier
                        .verify_session_jwt(token)
                        .await
                        .map_err(|error| match error {
                            VerifyError::KeysUnavailable(detail) => {
                                AppError::IdentityUnavailable(detail)
                            }
                            other => AppError::Unauthorized(other.to_string()),
                        })?;
                let session = Arc::new(VerifiedSession {
                    claims,
                    token_hash: sha256_hex(token.as_bytes()),
                });
                sessions.remember_verified(token, session.clone());
                session
            }
        };
        let claims = &session.claims;
        Ok(Self {
            identity_id: claims.sub.clone(),
            email: claims.email.clone(),
            name: claims.name.clone(),
            token_hash: session.token_hash.clone(),
            expires_at_ms: i64::try_from(claims.exp.saturating_mul(1000)).unwrap_or(i64::MAX),
        })
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
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest.as_ref() {
        hex.push(char::from(DIGITS[usize::from(byte >> 4)]));
        hex.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    hex
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

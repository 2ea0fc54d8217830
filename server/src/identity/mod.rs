//! Identity: verifying the provider's session tokens, and the `AuthUser` extractor built on it.

pub mod emulator;
pub mod keys;
pub mod seen;
pub mod verify;

use axum::{extract::FromRequestParts, http::header, http::request::Parts};

use crate::{error::AppError, startup::AppState};
use verify::VerifyError;

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

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let token = bearer_token(parts)?;
        let verifier = state.verifier.as_ref().ok_or_else(|| {
            AppError::IdentityUnavailable(
                "IDENTITY_BASE_URL is set without IDENTITY_PROJECT_ID".into(),
            )
        })?;
        let claims = verifier
            .verify_session_jwt(token)
            .await
            .map_err(|error| match error {
                VerifyError::KeysUnavailable(detail) => AppError::IdentityUnavailable(detail),
                other => AppError::Unauthorized(other.to_string()),
            })?;
        Ok(Self {
            identity_id: claims.sub,
            email: claims.email,
            name: claims.name,
            token_hash: sha256_hex(token.as_bytes()),
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
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

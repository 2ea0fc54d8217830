//! The one error type of the API: every failure answers JSON `{"error": "...", "code": "..."}`.

use std::time::Duration;

use axum::{
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use serde::Serialize;
use thiserror::Error;

/// The refusal of a request body over the cap (`BODY_LIMIT_BYTES`). Spelled out rather than
/// formatted so that it can be a constant of the edge's own answers; a test beside the cap keeps
/// the two together.
pub const BODY_TOO_LARGE: &str = "The request body is too large (50 KiB at most).";

/// The body of every API failure (and of the answers hyper writes itself, `edge/own_errors.rs`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts-rs", derive(ts_rs::TS))]
pub struct ErrorBody {
    // Fields in the order the answers have always had (alphabetical).
    /// What a program reads: `bad_request`, `unauthorized`, `rate_limited`, ... (one per kind of
    /// failure, `AppError::code`, plus those of hyper's own answers).
    pub code: &'static str,
    /// The sentence a person reads; the app shows it as is.
    pub error: String,
}

/// Every way a request can fail. The `Display` text is for logs; `error` in the body is for people.
#[derive(Debug, Error)]
pub enum AppError {
    /// The body is not JSON, or not the JSON this endpoint expects. The message says what is wrong.
    #[error("bad request: {0}")]
    BadRequest(String),
    /// A field is well-formed JSON but its value breaks a rule (e.g. 'Name cannot be empty').
    #[error("invalid field: {0}")]
    InvalidField(String),
    /// No bearer token, or one that does not verify. The reason is logged, never sent.
    #[error("unauthorized: {0}")]
    Unauthorized(String),
    /// The request's session was signed out from another session or by the account's deletion:
    /// the app signs itself out when it reads this code.
    #[error("session revoked")]
    SessionRevoked,
    /// Signed in, but not allowed to do this (the message says what is needed).
    #[error("forbidden: {0}")]
    Forbidden(String),
    #[error("not found")]
    NotFound,
    /// A session id that names none of the caller's live sessions (another user's, or ended).
    #[error("no such session")]
    NoSuchSession,
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("payload too large")]
    PayloadTooLarge,
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// Too many requests from one address; `retry_after` goes into the `Retry-After` header.
    #[error("rate limited for {retry_after:?}")]
    RateLimited { retry_after: Duration },
    #[error("request timed out")]
    Timeout,
    #[error("database unavailable: {0}")]
    DatabaseUnavailable(#[source] sqlx::Error),
    /// The identity provider's keys cannot be had (not configured, unreachable, or garbage).
    #[error("identity provider unavailable: {0}")]
    IdentityUnavailable(String),
    /// A bug or an impossible state. The detail is logged, never sent.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<sqlx::Error> for AppError {
    fn from(error: sqlx::Error) -> Self {
        // Every database failure a request can meet (pool timeout, closed connection, I/O, a
        // dropped database) means the same thing to a client: try again later.
        AppError::DatabaseUnavailable(error)
    }
}

impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) | AppError::InvalidField(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized(_) | AppError::SessionRevoked => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound | AppError::NoSuchSession => StatusCode::NOT_FOUND,
            AppError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            AppError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::Timeout => StatusCode::REQUEST_TIMEOUT,
            AppError::DatabaseUnavailable(_) | AppError::IdentityUnavailable(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            AppError::BadRequest(_) => "bad_request",
            AppError::InvalidField(_) => "invalid_field",
            AppError::Unauthorized(_) => "unauthorized",
            AppError::SessionRevoked => "session_revoked",
            AppError::Forbidden(_) => "forbidden",
            AppError::NotFound => "not_found",
            AppError::NoSuchSession => "session_not_found",
            AppError::MethodNotAllowed => "method_not_allowed",
            AppError::PayloadTooLarge => "payload_too_large",
            AppError::UnsupportedMediaType => "unsupported_media_type",
            AppError::RateLimited { .. } => "rate_limited",
            AppError::Timeout => "timeout",
            AppError::DatabaseUnavailable(_) => "database_unavailable",
            AppError::IdentityUnavailable(_) => "identity_unavailable",
            AppError::Internal(_) => "internal_error",
        }
    }

    /// The sentence a person reads (the app shows it as is, spec section 8).
    pub fn message(&self) -> String {
        match self {
            AppError::BadRequest(message)
            | AppError::InvalidField(message)
            | AppError::Forbidden(message) => message.clone(),
            AppError::Unauthorized(_) => {
                "Please sign in again: the session is missing or invalid.".into()
            }
            AppError::SessionRevoked => "This session was signed out. Please sign in again.".into(),
            AppError::NotFound => "There is nothing at this address.".into(),
            AppError::NoSuchSession => {
                "None of your sessions has this id; it may have ended already.".into()
            }
            AppError::MethodNotAllowed => "This address does not accept that method.".into(),
            AppError::PayloadTooLarge => BODY_TOO_LARGE.into(),
            AppError::UnsupportedMediaType => {
                "The request body must be JSON (Content-Type: application/json).".into()
            }
            AppError::RateLimited { .. } => {
                "Too many requests. Please wait a moment and try again.".into()
            }
            AppError::Timeout => "The request took too long. Please try again.".into(),
            AppError::DatabaseUnavailable(_) => {
                "The database is unavailable. Please try again shortly.".into()
            }
            AppError::IdentityUnavailable(_) => {
                "Sign-in is unavailable right now. Please try again shortly.".into()
            }
            AppError::Internal(_) => "Something went wrong on our side.".into(),
        }
    }

    fn log(&self) {
        match self {
            AppError::DatabaseUnavailable(source) => {
                tracing::error!(error = %source, "database error");
            }
            AppError::IdentityUnavailable(detail) => {
                tracing::error!(%detail, "identity provider unavailable");
            }
            AppError::Internal(detail) => tracing::error!(%detail, "internal error"),
            AppError::Unauthorized(reason) => tracing::info!(%reason, "request refused: 401"),
            other => tracing::debug!(error = %other, "request refused"),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        self.log();
        let mut response = (
            self.status(),
            Json(ErrorBody {
                code: self.code(),
                error: self.message(),
            }),
        )
            .into_response();
        if let AppError::RateLimited { retry_after } = &self {
            let seconds = retry_after.as_secs_f64().ceil().max(1.0) as u64;
            if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
        }
        if let AppError::Unauthorized(_) | AppError::SessionRevoked = &self {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_details_never_reach_the_message() {
        let error = AppError::Internal("secret path /etc/mg".into());
        assert!(!error.message().contains("secret"));
        let error = AppError::Unauthorized("kid abc unknown".into());
        assert!(!error.message().contains("abc"));
    }

    #[test]
    fn the_body_is_the_error_shape_byte_for_byte() {
        let body = ErrorBody {
            code: AppError::NotFound.code(),
            error: AppError::NotFound.message(),
        };
        assert_eq!(
            serde_json::to_string(&body).expect("JSON"),
            serde_json::json!({ "error": AppError::NotFound.message(), "code": "not_found" })
                .to_string()
        );
    }

    #[test]
    fn rate_limited_answers_429_with_retry_after_rounded_up() {
        let response = AppError::RateLimited {
            retry_after: Duration::from_millis(1200),
        }
        .into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(response.headers()[header::RETRY_AFTER], "2");
    }
}

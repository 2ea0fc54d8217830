//! The emulator's error answers, in the provider's shape: `{"errorCode", "errorDescription", "errorMessage"}`.

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};
use serde_json::json;

/// One failed emulator call. The SDK reads `errorCode` and shows `errorMessage`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmulatorError {
    pub status: StatusCode,
    pub code: &'static str,
    pub description: String,
    pub message: String,
}

impl EmulatorError {
    fn new(status: StatusCode, code: &'static str, description: &str, message: String) -> Self {
        Self {
            status,
            code,
            description: description.to_owned(),
            message,
        }
    }

    /// The emulator is off (an external identity provider is configured).
    pub fn not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "E000404",
            "Not found",
            "The local identity emulator is off: an external identity provider is configured."
                .into(),
        )
    }

    /// A call the emulator does not implement.
    pub fn unknown_route() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "E000404",
            "Not found",
            "The local identity emulator does not implement this call.".into(),
        )
    }

    /// A missing or malformed argument (body, query or header).
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "E011003",
            "Request is invalid",
            message.into(),
        )
    }

    /// The OAuth code is unknown, expired or was already exchanged.
    pub fn invalid_code() -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "E011003",
            "Invalid OAuth code",
            "The OAuth code is unknown, expired or already used. Please sign in again.".into(),
        )
    }

    /// Simulated: the provider is not enabled in the identity project.
    pub fn provider_not_enabled(provider: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "E061301",
            "Failed exchanging OAuth code",
            format!(
                "Failed exchanging OAuth code: the {provider} provider is not enabled \
                 in this identity project"
            ),
        )
    }

    /// Simulated: sign-up is closed and this account is not registered yet.
    pub fn user_must_exist() -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "E062209",
            "user must exist",
            "Sign-in refused: user must exist (this account is not registered yet)".into(),
        )
    }

    /// No valid refresh token (missing, forged, expired, revoked, or of another project).
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "E061004",
            "Unauthorized",
            message.into(),
        )
    }

    /// A new attempt or code was not stored: this client holds its own bound of them already
    /// (429, in the shape the provider uses for its rate limit), or the store is unusable (503).
    pub fn refused(refused: super::grants::Refused) -> Self {
        match refused {
            super::grants::Refused::ClientLimit => Self::too_many(
                "Too many sign-ins are in progress from this address. Finish one or try again in a few minutes.",
            ),
            super::grants::Refused::Unavailable => Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "E010000",
                "Service unavailable",
                "Sign-in is unavailable right now. Please try again in a few minutes.".into(),
            ),
        }
    }

    /// axum refused the request before the handler (a path or query that is not UTF-8, a form
    /// that is not a form, a body over the limit, a method the route does not take): the same
    /// status, in the emulator's shape.
    pub fn rejected(status: StatusCode, message: impl Into<String>) -> Self {
        let description = match status {
            StatusCode::METHOD_NOT_ALLOWED => "Method not allowed",
            StatusCode::PAYLOAD_TOO_LARGE => "Request body too large",
            StatusCode::UNSUPPORTED_MEDIA_TYPE => "Unsupported media type",
            _ => "Request is invalid",
        };
        Self::new(status, "E011003", description, message.into())
    }

    /// Over the per-client limit of the calls that start, complete or renew a sign-in: 429 in the
    /// shape the provider uses for its rate limit (per address, as the provider counts).
    pub fn rate_limited() -> Self {
        Self::too_many("Too many requests. Please wait a moment and try again.")
    }

    fn too_many(message: &str) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "E130429",
            "Too many requests",
            message.into(),
        )
    }

    /// The request body is over the server's limit (`BODY_LIMIT_BYTES`).
    pub fn payload_too_large() -> Self {
        Self::rejected(
            StatusCode::PAYLOAD_TOO_LARGE,
            mg_platform::error::BODY_TOO_LARGE,
        )
    }

    /// The database or the signing key failed; the detail is logged, not sent.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!(%detail, "identity emulator failure");
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "E010000",
            "Service unavailable",
            "The identity emulator could not complete the request. Please try again.".into(),
        )
    }
}

impl From<sqlx::Error> for EmulatorError {
    fn from(error: sqlx::Error) -> Self {
        Self::internal(error)
    }
}

impl IntoResponse for EmulatorError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({
                "errorCode": self.code,
                "errorDescription": self.description,
                "errorMessage": self.message,
            })),
        )
            .into_response()
    }
}

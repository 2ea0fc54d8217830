//! Who may act on the status page, and what every operator action shares: the
//! [`StatusOperator`] extractor (a session whose token grants the `status-operator` role; others
//! 403 JSON, no session 401), the per-operator write rate, the action's log line, and checked
//! text fields. Used by `status_ops` (incidents, maintenance) and `status_webhooks`.

use axum::{extract::FromRequestParts, http::request::Parts};

use crate::{
    error::AppError,
    identity::AuthUser,
    status::{operator_limits::OPERATOR_ROLE, StatusService},
};

/// A signed-in person whose token grants [`OPERATOR_ROLE`].
#[derive(Debug, Clone)]
pub struct StatusOperator(AuthUser);

impl StatusOperator {
    /// The operator's identity provider user id (who, in the logs).
    pub fn who(&self) -> &str {
        self.0.identity_id()
    }
}

impl<S> FromRequestParts<S> for StatusOperator
where
    S: Send + Sync,
    AuthUser: FromRequestParts<S, Rejection = AppError>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let user = AuthUser::from_request_parts(parts, state).await?;
        if user.roles().iter().any(|role| role == OPERATOR_ROLE) {
            Ok(Self(user))
        } else {
            Err(AppError::Forbidden(format!(
                "Only status operators may do this: the session has no '{OPERATOR_ROLE}' role."
            )))
        }
    }
}

pub(crate) fn take_write(status: &StatusService, who: &str, now: i64) -> Result<(), AppError> {
    status
        .operator_writes
        .take(who, now)
        .map_err(|wait_ms| AppError::RateLimited {
            retry_after: std::time::Duration::from_millis(u64::try_from(wait_ms).unwrap_or(1000)),
        })
}

pub(crate) fn logged(who: &str, action: &str, target: &str) {
    tracing::info!(operator = who, action, target, "status: operator action");
}

pub(crate) fn invalid(message: &str) -> AppError {
    AppError::InvalidField(message.to_owned())
}

/// `value` trimmed, 1 to `max` characters, no control characters (line breaks and tabs only in
/// multi-line text).
pub(crate) fn text(
    value: &str,
    name: &str,
    max: usize,
    multiline: bool,
) -> Result<String, AppError> {
    let trimmed = value.trim();
    let count = trimmed.chars().count();
    if count == 0 || count > max {
        return Err(invalid(&format!("{name} must be 1 to {max} characters.")));
    }
    let allowed = |c: char| !c.is_control() || (multiline && (c == '\n' || c == '\t' || c == '\r'));
    if !trimmed.chars().all(allowed) {
        return Err(invalid(&format!("{name} holds control characters.")));
    }
    Ok(trimmed.to_owned())
}

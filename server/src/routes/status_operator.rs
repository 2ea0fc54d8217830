//! Who may act on the status page: the [`StatusOperator`] extractor (a session whose token grants
//! the `status-operator` role; others 403 JSON, no session 401). Used by `status_ops` (incidents,
//! maintenance) and `status_webhooks`.

use axum::{extract::FromRequestParts, http::request::Parts};

use crate::{error::AppError, identity::AuthUser, status::operator_limits::OPERATOR_ROLE};

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

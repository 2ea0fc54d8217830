//! Who may act on the status page: the [`StatusOperator`] extractor (a session whose token grants
//! the `status-operator` role; others 403 JSON, no session 401), which hands the handler the
//! operator's actions (`mg_status::operator`). Used by `status_ops` (incidents, maintenance) and
//! `status_webhooks`.

use std::sync::Arc;

use axum::{
    extract::{FromRef, FromRequestParts},
    http::request::Parts,
};

use crate::{
    db::Database,
    error::AppError,
    identity::AuthUser,
    status::{operator::Operator, operator_limits::OPERATOR_ROLE, StatusService},
};

/// A signed-in person whose token grants [`OPERATOR_ROLE`], with the status service they act on.
#[derive(Debug, Clone)]
pub struct StatusOperator {
    user: AuthUser,
    db: Database,
    status: Arc<StatusService>,
}

impl StatusOperator {
    /// What this operator can do, recorded under their identity provider user id.
    pub fn actions(&self) -> Operator<'_> {
        Operator::new(&self.db, &self.status, self.user.identity_id())
    }
}

impl<S> FromRequestParts<S> for StatusOperator
where
    S: Send + Sync,
    AuthUser: FromRequestParts<S, Rejection = AppError>,
    Database: FromRef<S>,
    Arc<StatusService>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let user = AuthUser::from_request_parts(parts, state).await?;
        if !user.roles().iter().any(|role| role == OPERATOR_ROLE) {
            return Err(AppError::Forbidden(format!(
                "Only status operators may do this: the session has no '{OPERATOR_ROLE}' role."
            )));
        }
        Ok(Self {
            user,
            db: Database::from_ref(state),
            status: Arc::<StatusService>::from_ref(state),
        })
    }
}

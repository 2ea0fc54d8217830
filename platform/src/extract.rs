//! Request extractors whose rejections answer with `AppError` JSON instead of axum's plain text.

use std::sync::Arc;

use axum::{
    extract::{rejection::JsonRejection, FromRef, FromRequest, FromRequestParts, Request},
    http::{request::Parts, StatusCode},
};
use serde::de::DeserializeOwned;

use crate::{config::Config, error::AppError};

/// Largest request body any endpoint accepts.
pub const BODY_LIMIT_BYTES: usize = 16 * 1024;

/// `Json<T>` with the API's error shape: 400 for bad JSON or fields, 413 too large, 415 not JSON.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(rejection_to_error(rejection)),
        }
    }
}

fn rejection_to_error(rejection: JsonRejection) -> AppError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => AppError::UnsupportedMediaType,
        JsonRejection::JsonSyntaxError(_) => {
            AppError::BadRequest("The request body is not valid JSON.".into())
        }
        // serde's own words name the field and what was wrong with it (unknown field, wrong
        // type, missing field); they describe the client's input, not the server.
        JsonRejection::JsonDataError(error) => AppError::BadRequest(format!(
            "Invalid request body: {}",
            data_error_detail(&error.body_text())
        )),
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge,
        other => AppError::BadRequest(format!(
            "The request body could not be read ({}).",
            other.status()
        )),
    }
}

/// axum prefixes serde's message with its own sentence; keep the part after it.
fn data_error_detail(text: &str) -> &str {
    text.rsplit_once("target type: ")
        .map(|(_, detail)| detail)
        .unwrap_or(text)
}

/// Taken by every account route: in open mode (`SANCTIFIED=false`) there are no accounts to
/// manage, and such routes answer 404 as unknown paths do.
#[derive(Debug)]
pub struct Sanctified;

impl<S> FromRequestParts<S> for Sanctified
where
    S: Send + Sync,
    Arc<Config>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(_parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        if Arc::<Config>::from_ref(state).sanctified {
            Ok(Self)
        } else {
            Err(AppError::NotFound)
        }
    }
}

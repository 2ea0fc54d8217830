//! Request extractors whose rejections answer with `AppError` JSON instead of axum's plain text.

use std::sync::Arc;

use axum::{
    extract::{rejection::JsonRejection, FromRef, FromRequest, FromRequestParts, Request},
    http::{request::Parts, StatusCode},
};
use serde::de::DeserializeOwned;

use crate::{config::Config, error::AppError};

/// The most bytes one character of a JSON string can take: a character outside the Basic
/// Multilingual Plane written as two `\u` escapes (`\ud83d\ude00`, 12 bytes for one character).
pub const MAX_ESCAPED_CHAR_BYTES: usize = 12;

/// Room in a request for everything beside its free text: the keys, the vocabularies' words, the
/// component ids, an attached incident's id, the times and the punctuation (an incident opened
/// with every field set takes under 300 bytes of it).
pub const BODY_ENVELOPE_BYTES: usize = 1024;

/// The body cap that admits a request whose free text is `chars` characters, every one escaped at
/// its longest, rounded up to whole KiB.
pub const fn body_limit_for(chars: usize) -> usize {
    (chars * MAX_ESCAPED_CHAR_BYTES + BODY_ENVELOPE_BYTES).div_ceil(1024) * 1024
}

/// Largest request body any endpoint accepts: the largest the fields' limits allow, an incident
/// opened with the longest title and first update (the most free text one request carries; a
/// webhook's URL and name, a display name take less), every character written as `\u` escapes.
/// A cap stays, so no request holds more than this in memory.
pub const BODY_LIMIT_BYTES: usize =
    body_limit_for(mg_domain::notices::MAX_TITLE_CHARS + mg_domain::notices::MAX_BODY_CHARS);

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

/// The body of a request that carries no fields: none, or `{}`. Anything else (a field, a value that
/// is not an object, text that is not JSON) is refused as [`ApiJson`] refuses it, so a stray or
/// hostile body never passes unread and a mistaken client hears of it.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoFields;

impl<S> FromRequest<S> for NoFields
where
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = request
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(|essence| essence.trim().to_ascii_lowercase())
            .is_some_and(|essence| {
                essence == "application/json"
                    || essence.starts_with("application/") && essence.ends_with("+json")
            });
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    AppError::PayloadTooLarge
                } else {
                    AppError::BadRequest(format!(
                        "The request body could not be read ({}).",
                        rejection.status()
                    ))
                }
            })?;
        if bytes.trim_ascii().is_empty() {
            return Ok(Self);
        }
        // A body is JSON, as every other route's (`ApiJson`'s 415).
        if !json {
            return Err(AppError::UnsupportedMediaType);
        }
        match serde_json::from_slice::<serde_json::Value>(&bytes) {
            Ok(serde_json::Value::Object(fields)) => match fields.keys().next() {
                None => Ok(Self),
                Some(field) => Err(AppError::BadRequest(format!(
                    "Invalid request body: unknown field `{field}`: this request takes none"
                ))),
            },
            Ok(_) => Err(AppError::BadRequest(
                "Invalid request body: this request takes no body, or {}".into(),
            )),
            Err(_) => Err(AppError::BadRequest(
                "The request body is not valid JSON.".into(),
            )),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::BODY_TOO_LARGE;

    #[test]
    fn the_body_cap_admits_the_longest_texts_escaped_and_its_refusal_names_it() {
        // 120 + 4,000 characters at 12 bytes each, and the rest of the request.
        assert_eq!(BODY_LIMIT_BYTES, 50 * 1024);
        assert_eq!(
            BODY_TOO_LARGE,
            format!(
                "The request body is too large ({} KiB at most).",
                BODY_LIMIT_BYTES / 1024
            )
        );
        let display_name = mg_domain::MAX_NAME_CHARS;
        assert!(body_limit_for(display_name) <= BODY_LIMIT_BYTES);
        // The longest escape of one character: a surrogate pair, 12 bytes, read back as one.
        let escaped = "\"\\ud83d\\ude00\"";
        assert_eq!(escaped.len(), MAX_ESCAPED_CHAR_BYTES + 2);
        let read: String = serde_json::from_str(escaped).expect("json");
        assert_eq!(read.chars().count(), 1);
    }
}

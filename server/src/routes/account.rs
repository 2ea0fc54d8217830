//! `/api/auth/sessions*`, `/api/auth/export`, `/api/auth/delete-account`: the account page's
//! actions. The signed-in person lists their sessions and signs out the others, downloads what is
//! stored about them, or deletes it all (docs/api.md "Account").

use std::sync::Arc;

use axum::{
    extract::FromRequestParts,
    http::{header, request::Parts, HeaderValue},
    response::{IntoResponse, Response},
    routing::post,
    Extension, Json, Router,
};
use serde::{Deserialize, Serialize};

use super::auth::ProviderData;
use crate::{
    db::sessions::SessionRow,
    error::AppError,
    extract::Sanctified,
    extract::{ApiJson, NoFields},
    identity::{
        account::{AccountActions, Sessions},
        signed_in::SignedIn,
    },
    state::AppState,
    time::rfc3339,
};

/// Routes merged under `/api/auth` beside `auth::router`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/sessions", post(list_sessions))
        .route("/sessions/revoke", post(revoke_session))
        .route("/sessions/revoke-others", post(revoke_other_sessions))
        .route("/export", post(export_data))
        .route("/delete-account", post(delete_account))
        .layer(Extension(Arc::new(AccountActions::default())))
}

/// What every account action takes, extracted in this order: sign-in mode (`Sanctified`: 404 in
/// open mode), the actions the router layers in, and the signed-in request.
struct Account {
    actions: Arc<AccountActions>,
    req: SignedIn,
}

impl FromRequestParts<AppState> for Account {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        Sanctified::from_request_parts(parts, state).await?;
        let actions = parts
            .extensions
            .get::<Arc<AccountActions>>()
            .cloned()
            .ok_or_else(|| AppError::Internal("the account routes lack their actions".into()))?;
        let req = SignedIn::from_request_parts(parts, state).await?;
        Ok(Self { actions, req })
    }
}

/// One of the user's sessions: a signed-in browser or device.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "AccountSession"))]
#[serde(rename_all = "camelCase")]
pub struct SessionData {
    /// What `sessions/revoke` takes: 64 hex digits, a hash of the session's own id (never the id).
    pub id: String,
    /// Browser and system ("Firefox on Linux"), derived once from the User-Agent at sign-in.
    pub label: String,
    /// RFC 3339: when the session was first seen (its sign-in).
    pub created_at: String,
    /// RFC 3339: its last recorded use (recorded at most once an hour per instance).
    pub last_active_at: String,
    /// RFC 3339: when it ends unless used again.
    pub expires_at: String,
    /// The session this request came from ("this device").
    pub current: bool,
    /// Whether the session's tokens name their sign-in at the identity provider: signing it out
    /// then refuses every token that sign-in is ever refreshed to, so the browser is out until it
    /// signs in again. Otherwise only the tokens it has used are refused, and it may renew its
    /// sign-in on its own until the provider ends it (docs/identity.md "Signing out from the app").
    pub bound_to_sign_in: bool,
}

fn session_data(row: SessionRow, current: bool) -> SessionData {
    SessionData {
        current,
        bound_to_sign_in: Sessions::bound_to_sign_in(&row),
        id: row.session_key,
        label: row.label.unwrap_or_else(|| "Unknown browser".to_owned()),
        created_at: rfc3339(row.created_at),
        last_active_at: rfc3339(row.last_seen_at),
        expires_at: rfc3339(row.expires_at),
    }
}

/// The sessions as the account page lists them. A row of this request's own sign-in (its token's
/// binding) is "this device" too, whatever session id it was recorded under: signing it out alone
/// is refused as the session in use, and "all other sessions" leaves it, so it is listed as what the
/// server takes it for.
fn listed(sessions: Sessions) -> Vec<SessionData> {
    let current = sessions.current;
    let binding = sessions
        .rows
        .iter()
        .find(|row| row.session_key == current)
        .and_then(|row| row.binding.clone());
    sessions
        .rows
        .into_iter()
        .map(|row| {
            let this = row.session_key == current || binding.is_some() && row.binding == binding;
            session_data(row, this)
        })
        .collect()
}

/// The body of `POST /api/auth/sessions`.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SessionsAnswer {
    pub data: SessionList,
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SessionList {
    /// The unexpired sessions, the most recently active first (20 at most: the cap per user).
    pub sessions: Vec<SessionData>,
}

#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn list_sessions(
    Account { actions, req }: Account,
    _: NoFields,
) -> Result<Response, AppError> {
    let sessions = listed(actions.sessions(&req, req.now_ms()).await?);
    Ok(Json(SessionsAnswer {
        data: SessionList { sessions },
    })
    .into_response())
}

/// The body of `POST /api/auth/sessions/revoke`.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RevokeSessionRequest"))]
#[serde(deny_unknown_fields)]
pub struct RevokeSessionBody {
    /// A session's `id` from `POST /api/auth/sessions`.
    pub id: String,
}

/// The body of `POST /api/auth/sessions/revoke` and `.../revoke-others`.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RevokeAnswer {
    pub data: SessionsRevoked,
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SessionsRevoked {
    /// How many sessions were signed out.
    pub revoked: u64,
}

fn revoked(count: u64) -> Response {
    Json(RevokeAnswer {
        data: SessionsRevoked { revoked: count },
    })
    .into_response()
}

#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn revoke_session(
    Account { actions, req }: Account,
    ApiJson(body): ApiJson<RevokeSessionBody>,
) -> Result<Response, AppError> {
    Ok(revoked(actions.revoke(&req, &body.id, req.now_ms()).await?))
}

#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn revoke_other_sessions(
    Account { actions, req }: Account,
    _: NoFields,
) -> Result<Response, AppError> {
    Ok(revoked(actions.revoke_others(&req, req.now_ms()).await?))
}

/// The file `POST /api/auth/export` answers: everything mg-web stores about the user
/// (docs/data-export.md describes it field by field).
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct DataExport {
    /// `mg-web-export/1`: the version of this format.
    pub format: &'static str,
    /// RFC 3339: when the file was made.
    pub exported_at: String,
    pub profile: ExportedProfile,
    /// Every unexpired session, as `POST /api/auth/sessions` lists them.
    pub sessions: Vec<SessionData>,
}

/// The user's row of `users`, every column but the internal row number.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ExportedProfile {
    /// The identity provider's user id.
    pub id: String,
    pub email: Option<String>,
    /// The display name; null until the person or the provider gave one.
    pub name: Option<String>,
    /// The provider of the last sign-in's sync ("github", ...); null before one.
    pub login_provider: Option<String>,
    /// What that sync stored of the provider's profile; null before one.
    pub provider_data: Option<ProviderData>,
    /// RFC 3339: when mg-web first saw this user.
    pub created_at: String,
    /// RFC 3339 of the person's last own edit; null until the first.
    pub updated_at: Option<String>,
}

/// The format's name and version in every export.
pub const EXPORT_FORMAT: &str = "mg-web-export/1";

#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn export_data(Account { actions, req }: Account, _: NoFields) -> Result<Response, AppError> {
    let now = req.now_ms();
    let (row, sessions) = actions.export(&req, now).await?;
    let export = DataExport {
        format: EXPORT_FORMAT,
        exported_at: rfc3339(now),
        profile: ExportedProfile {
            provider_data: row
                .provider_profile
                .as_deref()
                .and_then(|data| serde_json::from_str(data).ok()),
            id: row.identity_id,
            email: row.email,
            name: row.name,
            login_provider: row.login_provider,
            created_at: rfc3339(row.created_at),
            updated_at: row.updated_at.map(rfc3339),
        },
        sessions: listed(sessions),
    };
    let mut response = Json(export).into_response();
    let sent = response.headers_mut();
    sent.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"mg-web-data.json\""),
    );
    sent.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The body of `POST /api/auth/delete-account`: `{"confirm": true}`, so no stray request deletes.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "DeleteAccountRequest"))]
#[serde(deny_unknown_fields)]
pub struct DeleteAccountBody {
    pub confirm: bool,
}

/// The body of `POST /api/auth/delete-account`.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DeleteAnswer {
    pub data: AccountDeleted,
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AccountDeleted {
    /// Whether there was an account to delete (false: it was deleted already).
    pub deleted: bool,
}

#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn delete_account(
    Account { actions, req }: Account,
    ApiJson(body): ApiJson<DeleteAccountBody>,
) -> Result<Response, AppError> {
    if !body.confirm {
        return Err(AppError::InvalidField(
            "Send {\"confirm\": true} to delete the account.".into(),
        ));
    }
    let deleted = actions.delete(&req, req.now_ms()).await?;
    Ok(Json(DeleteAnswer {
        data: AccountDeleted { deleted },
    })
    .into_response())
}

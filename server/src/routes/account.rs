//! `/api/auth/sessions*`, `/api/auth/export`, `/api/auth/delete-account`: the account page's
//! actions. The signed-in person lists their sessions and signs out the others, downloads what is
//! stored about them, or deletes it all (docs/api.md "Account").

use std::{sync::Arc, time::Duration};

use axum::{
    extract::FromRef,
    http::{header, HeaderValue},
    response::{IntoResponse, Response},
    routing::post,
    Extension, Json, Router,
};
use serde::{Deserialize, Serialize};

use super::auth::ProviderData;
use crate::{
    config::Config,
    db::{
        sessions::{Revocation, SessionRow},
        Database,
    },
    error::AppError,
    extract::ApiJson,
    extract::Sanctified,
    identity::{
        sessions::SessionStore,
        signed_in::{recorded_key, SignedIn},
        verify::SessionVerifier,
    },
    rate_limit::KeyedLimiter,
    time::{now_ms, rfc3339},
};

/// Routes merged under `/api/auth` beside `auth::router`.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Database: FromRef<S>,
    Arc<SessionStore>: FromRef<S>,
    Option<Arc<SessionVerifier>>: FromRef<S>,
    Arc<Config>: FromRef<S>,
{
    Router::new()
        .route("/sessions", post(list_sessions))
        .route("/sessions/revoke", post(revoke_session))
        .route("/sessions/revoke-others", post(revoke_other_sessions))
        .route("/export", post(export_data))
        .route("/delete-account", post(delete_account))
        .layer(Extension(Arc::new(account_limits())))
}

/// How often one user may download their data or ask for their account's deletion, per instance
/// (beside the per-address limit every `/api/auth` route has): each is a whole-account read or
/// write, and neither needs repeating.
pub const ACCOUNT_ACTION_EVERY: Duration = Duration::from_secs(10);
/// The most users whose last export or deletion an instance remembers (the least recent go first).
const LIMITED_USERS: usize = 10_000;

/// The two rate-limited actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Action {
    Export,
    Delete,
}

/// Each user's exports and deletions: one token per action, refilled every
/// [`ACCOUNT_ACTION_EVERY`] (the server's one keyed limiter).
type AccountLimits = KeyedLimiter<(Action, Box<str>)>;

fn account_limits() -> AccountLimits {
    let per_minute = u32::try_from(60 / ACCOUNT_ACTION_EVERY.as_secs().max(1)).unwrap_or(1);
    AccountLimits::new(per_minute, 1, LIMITED_USERS)
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

fn session_data(row: SessionRow, current_key: &str) -> SessionData {
    SessionData {
        current: row.session_key == current_key,
        bound_to_sign_in: row
            .binding
            .as_deref()
            .is_some_and(crate::identity::is_sign_in_binding),
        id: row.session_key,
        label: row.label.unwrap_or_else(|| "Unknown browser".to_owned()),
        created_at: rfc3339(row.created_at),
        last_active_at: rfc3339(row.last_seen_at),
        expires_at: rfc3339(row.expires_at),
    }
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
async fn list_sessions(_: Sanctified, req: SignedIn) -> Result<Response, AppError> {
    let now = now_ms();
    let session = req.live_session(now).await?;
    // This browser is listed even when its first request is this one (or its row was pushed out).
    req.remember(&session, now).await?;
    let rows = req.db.list_sessions(req.user.identity_id(), now).await?;
    let sessions = rows
        .into_iter()
        .map(|row| session_data(row, &session.key))
        .collect();
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

/// A session id as `sessions` hands it out: 64 lower-case hex digits.
fn is_session_id(id: &str) -> bool {
    id.len() == 64 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn revoke_session(
    _: Sanctified,
    req: SignedIn,
    ApiJson(body): ApiJson<RevokeSessionBody>,
) -> Result<Response, AppError> {
    if !is_session_id(&body.id) {
        return Err(AppError::InvalidField(
            "id must be a session id from the sessions list (64 hex digits).".into(),
        ));
    }
    let now = now_ms();
    let session = req.live_session(now).await?;
    let yours =
        || AppError::InvalidField("This is the session you are using: log out instead.".into());
    if body.id == session.key {
        return Err(yours());
    }
    match req
        .db
        .revoke_session(req.user_keys(), &body.id, session.binding, now)
        .await?
    {
        Revocation::Done => {}
        Revocation::NoSuchSession => return Err(AppError::NoSuchSession),
        Revocation::Yours => return Err(yours()),
    }
    bound_revocations(&req, session.binding, now).await;
    Ok(revoked(1))
}

#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn revoke_other_sessions(_: Sanctified, req: SignedIn) -> Result<Response, AppError> {
    let now = now_ms();
    let session = req.live_session(now).await?;
    let count = req
        .db
        .revoke_other_sessions(req.user_keys(), (&session.key, session.binding), now)
        .await?;
    bound_revocations(&req, session.binding, now).await;
    Ok(revoked(count))
}

/// After a sign-out committed: keeps the user's revoked bindings within their bound (`keep`, the
/// caller's binding, survives a fold). A failure only leaves rows too many for the next time, so
/// it is logged, not answered.
async fn bound_revocations(req: &SignedIn, keep: &str, now: i64) {
    if let Err(error) = req
        .db
        .bound_revocations(req.user.user_key(), keep, now)
        .await
    {
        tracing::warn!(%error, "bounding the revoked sessions failed");
    }
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
async fn export_data(
    _: Sanctified,
    Extension(limits): Extension<Arc<AccountLimits>>,
    req: SignedIn,
) -> Result<Response, AppError> {
    let SignedIn { db, user, .. } = &req;
    let now = now_ms();
    let session = req.live_session(now).await?;
    limits.take_or_refuse((Action::Export, user.identity_id().into()), now)?;
    let Some(row) = db.find_user(user.identity_id()).await? else {
        return Err(AppError::NotFound);
    };
    let sessions = db
        .list_sessions(user.identity_id(), now)
        .await?
        .into_iter()
        .map(|row| session_data(row, &session.key))
        .collect();
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
        sessions,
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
    _: Sanctified,
    Extension(limits): Extension<Arc<AccountLimits>>,
    req: SignedIn,
    ApiJson(body): ApiJson<DeleteAccountBody>,
) -> Result<Response, AppError> {
    if !body.confirm {
        return Err(AppError::InvalidField(
            "Send {\"confirm\": true} to delete the account.".into(),
        ));
    }
    let now = now_ms();
    let session = req.live_session(now).await?;
    limits.take_or_refuse((Action::Delete, req.user.identity_id().into()), now)?;
    let (identity_id, user_key) = req.user_keys();
    let deleted = req.db.delete_account(identity_id, user_key, now).await?;
    req.sessions.forget(&recorded_key(&session));
    bound_revocations(&req, "", now).await;
    Ok(Json(DeleteAnswer {
        data: AccountDeleted { deleted },
    })
    .into_response())
}

#[cfg(test)]
mod tests {
    use super::{account_limits, is_session_id, Action, ACCOUNT_ACTION_EVERY};

    #[test]
    fn only_hex_session_ids_of_the_right_length_pass() {
        assert!(is_session_id(&"a1".repeat(32)));
        assert!(!is_session_id(&"A1".repeat(32)));
        assert!(!is_session_id(&"a1".repeat(31)));
        assert!(!is_session_id(&"zz".repeat(32)));
        assert!(!is_session_id(""));
    }

    #[test]
    fn each_action_waits_its_interval_per_user() {
        let limits = account_limits();
        let every = i64::try_from(ACCOUNT_ACTION_EVERY.as_millis()).expect("ms");
        let take = |action, user: &str, at| limits.take((action, user.into()), at);
        assert!(take(Action::Export, "a", 0).is_ok());
        assert!(take(Action::Export, "a", every - 1).is_err());
        assert!(take(Action::Delete, "a", 1).is_ok(), "another action");
        assert!(take(Action::Export, "b", 1).is_ok(), "another user");
        assert!(take(Action::Export, "a", every).is_ok());
    }
}

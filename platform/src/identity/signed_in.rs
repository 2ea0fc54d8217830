//! The signed-in session every `/api/auth` route starts from: the verified user, which session of
//! theirs the request belongs to (the app's `X-Session-Id`, else the token), and recording its use
//! (at most once an hour per instance, labelled with the device on first sight, pruning expired
//! sessions now and then). A signed-out token never gets here: `AuthUser` refused it.

use std::{borrow::Cow, sync::Arc};

use axum::{
    extract::{FromRef, FromRequestParts},
    http::{request::Parts, HeaderMap},
};

use super::{
    device_label::device_label, is_sign_in_binding, sessions::SessionStore, sha256_hex,
    verify::SessionVerifier, AuthUser,
};
use crate::{db::Database, error::AppError, time::Clock};

/// The header in which the app names its session: a random id it creates at sign-in and keeps
/// beside the identity SDK's tokens until logout (docs/api.md "Sessions").
pub const SESSION_HEADER: &str = "x-session-id";
/// A browser's session stays counted this long after its last use: the identity provider's refresh
/// token lifetime (30 days, the emulator's and the hosted provider's default), after which that
/// browser is signed out anyway.
pub const SESSION_IDLE_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// How long this instance trusts its memory of a session before writing its use again (the expiry
/// then lags the last use by at most this much).
const TOUCH_EVERY_MS: i64 = 60 * 60 * 1000;

/// Which session a request belongs to, and until when that session lives.
#[derive(Debug)]
pub struct SessionRef<'a> {
    /// SHA-256 hex: of the user and the app's session id, or the session token's own hash.
    pub key: Cow<'a, str>,
    /// What ties the request's token to the session (`AuthUser::binding`): signing the session
    /// out revokes it.
    pub binding: &'a str,
    expires_at_ms: i64,
    /// Until when this instance need not write the session again.
    fresh_until_ms: i64,
}

/// The request's session: the app's `X-Session-Id` when sent (16-128 letters, digits, `-`, `_`),
/// else the session token itself (a client that names no session counts once per token, until the
/// token expires).
pub fn session_of<'a>(
    headers: &HeaderMap,
    user: &'a AuthUser,
    now: i64,
) -> Result<SessionRef<'a>, AppError> {
    let Some(value) = headers.get(SESSION_HEADER) else {
        return Ok(SessionRef {
            key: Cow::Borrowed(user.token_hash()),
            binding: user.binding(),
            expires_at_ms: user.expires_at_ms(),
            fresh_until_ms: user.expires_at_ms(),
        });
    };
    let id = value
        .to_str()
        .ok()
        .filter(|id| {
            (16..=128).contains(&id.len())
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
        .ok_or_else(|| {
            AppError::InvalidField(
                "X-Session-Id must be 16 to 128 letters, digits, '-' or '_'".into(),
            )
        })?;
    let expires_at_ms = now.saturating_add(SESSION_IDLE_MS);
    // A token that names its sign-in (`sid`) keeps it across refreshes: the sign-in is part of the
    // key, so another sign-in sending this session's id is a session of its own, listed and signed
    // out on its own, never folded into this one's row. A token without one has only the id.
    let key = if is_sign_in_binding(user.binding()) {
        format!("{}\n{id}\n{}", user.identity_id(), user.binding())
    } else {
        format!("{}\n{id}", user.identity_id())
    };
    Ok(SessionRef {
        key: Cow::Owned(sha256_hex(key.as_bytes())),
        binding: user.binding(),
        expires_at_ms,
        fresh_until_ms: now.saturating_add(TOUCH_EVERY_MS),
    })
}

/// What every route under `/api/auth` starts from: the verified user, the request's headers (which
/// name its session), the database and this instance's memory of sessions.
#[derive(Debug)]
pub struct SignedIn {
    pub db: Database,
    pub sessions: Arc<SessionStore>,
    pub user: AuthUser,
    headers: HeaderMap,
    /// The server's clock (`Config::clock`, the verifier's): what the routes stamp their writes
    /// with, so a test that moves it sees the writes and the tokens on one time.
    clock: Clock,
}

impl<S> FromRequestParts<S> for SignedIn
where
    S: Send + Sync,
    Database: FromRef<S>,
    Arc<SessionStore>: FromRef<S>,
    Option<Arc<SessionVerifier>>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let user = AuthUser::from_request_parts(parts, state).await?;
        let clock = Option::<Arc<SessionVerifier>>::from_ref(state)
            .map(|verifier| verifier.clock().clone())
            .unwrap_or_default();
        Ok(Self {
            db: Database::from_ref(state),
            sessions: Arc::<SessionStore>::from_ref(state),
            user,
            headers: parts.headers.clone(),
            clock,
        })
    }
}

impl SignedIn {
    /// A signed-in request from its parts, without HTTP: what the extractor builds, for the
    /// services' own tests.
    pub fn new(
        db: Database,
        sessions: Arc<SessionStore>,
        user: AuthUser,
        headers: HeaderMap,
    ) -> Self {
        Self {
            db,
            sessions,
            user,
            headers,
            clock: Clock::default(),
        }
    }

    /// Now, in unix milliseconds, on the server's clock.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The request's session (`session_of`), revoked or not.
    pub fn session(&self, now: i64) -> Result<SessionRef<'_>, AppError> {
        session_of(&self.headers, &self.user, now)
    }

    /// The request's session. A token signed out from another session or by the account's
    /// deletion never gets here: `AuthUser` refused it with 401 `session_revoked` (asked of the
    /// database on every request, so it holds on every instance and every route).
    pub async fn live_session(&self, now: i64) -> Result<SessionRef<'_>, AppError> {
        self.session(now)
    }

    /// The user's identity id and key (`identity::user_key`), as the revocation queries take them.
    pub fn user_keys(&self) -> (&str, &str) {
        (self.user.identity_id(), self.user.user_key())
    }

    /// Logout: ends the request's session for good. Its binding is revoked first (its tokens, and
    /// when they name their sign-in every token of that sign-in, also under another session id,
    /// are refused on every instance from then on, and the identity emulator refuses that
    /// sign-in's refresh token), then the session's row goes and this instance forgets it. True
    /// when there was something to end.
    pub async fn log_out(&self, now: i64) -> Result<bool, AppError> {
        let session = self.session(now)?;
        let revoked = self
            .db
            .revoke_own_binding(session.binding, self.user.user_key(), now)
            .await?;
        let ended = self
            .db
            .end_session(self.user.identity_id(), &session.key)
            .await?;
        self.sessions.forget(&recorded_key(&session));
        if let Err(error) = self
            .db
            .bound_revocations(self.user.user_key(), "", now)
            .await
        {
            tracing::warn!(%error, "bounding the revoked sessions failed");
        }
        Ok(revoked || ended)
    }

    /// Records a use of the session, at most once per `TOUCH_EVERY_MS` per instance; on such a
    /// write, at most once a minute, expired sessions of everyone are pruned. A session recorded for
    /// the first time is labelled with the browser and system its User-Agent names
    /// (`device_label`).
    pub async fn remember(&self, session: &SessionRef<'_>, now: i64) -> Result<(), AppError> {
        let (db, sessions) = (&self.db, &self.sessions);
        let recorded = recorded_key(session);
        if sessions.is_recorded(&recorded, now) {
            return Ok(());
        }
        let agent = self
            .headers
            .get(axum::http::header::USER_AGENT)
            .and_then(|value| value.to_str().ok());
        db.touch_labelled_session(
            self.user.identity_id(),
            (&session.key, session.binding),
            Some(&device_label(agent)),
            session.expires_at_ms,
            now,
        )
        .await?;
        sessions.remember_recorded(&recorded, session.fresh_until_ms);
        if sessions.prune_due(now) {
            match db.prune_expired_sessions(now).await {
                Ok(pruned) if pruned > 0 => tracing::debug!(pruned, "expired sessions pruned"),
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "pruning expired sessions failed"),
            }
        }
        Ok(())
    }
}

/// The session store's key of a recorded session: the session and the binding recorded with it,
/// so a new token of the session (a refresh) is written once, and the session row always names
/// the binding of a token it was used with. (No dots: never mistaken for a token.)
pub fn recorded_key(session: &SessionRef<'_>) -> String {
    format!("{}/{}", session.key, session.binding)
}

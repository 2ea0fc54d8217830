//! The account page's actions below HTTP: list the caller's sessions, sign one other session or all
//! others out, export what is stored about the caller, delete the account. Each starts from the
//! signed-in request (`SignedIn`), keeps the per-user limits, writes through the database's one
//! statement, and then keeps the user's revoked bindings within their bound. The routes
//! (`/api/auth/sessions*`, `/export`, `/delete-account`) extract, call one of these and answer.

use std::time::Duration;

use super::{
    is_sign_in_binding,
    signed_in::{recorded_key, SignedIn},
};
use crate::{
    db::{
        sessions::{Revocation, SessionRow},
        users::UserRow,
    },
    error::AppError,
    rate_limit::KeyedLimiter,
};

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

/// The user's unexpired sessions (the most recently active first) and which is the caller's.
#[derive(Debug)]
pub struct Sessions {
    pub rows: Vec<SessionRow>,
    /// The caller's session key (`SessionRow::session_key` of "this device").
    pub current: String,
}

impl Sessions {
    /// Whether `row`'s tokens name their sign-in at the identity provider, so that signing it out
    /// refuses every token that sign-in is refreshed to (docs/identity.md).
    pub fn bound_to_sign_in(row: &SessionRow) -> bool {
        row.binding.as_deref().is_some_and(is_sign_in_binding)
    }
}

/// What the sign-out actions refuse, in the account page's words.
const YOURS: &str = "This is the session you are using: log out instead.";

/// The account actions of one instance: they hold its per-user limits of exports and deletions.
#[derive(Debug)]
pub struct AccountActions {
    limits: KeyedLimiter<(Action, Box<str>)>,
}

impl Default for AccountActions {
    fn default() -> Self {
        let per_minute = u32::try_from(60 / ACCOUNT_ACTION_EVERY.as_secs().max(1)).unwrap_or(1);
        Self {
            limits: KeyedLimiter::new(per_minute, 1, LIMITED_USERS),
        }
    }
}

/// A session id as `sessions` hands it out: 64 lower-case hex digits.
pub fn is_session_id(id: &str) -> bool {
    id.len() == 64 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl AccountActions {
    /// The user's sessions. The caller's own is recorded first, so it is listed even when this is
    /// its first request (or its row was pushed out by newer ones).
    pub async fn sessions(&self, req: &SignedIn, now: i64) -> Result<Sessions, AppError> {
        let session = req.live_session(now).await?;
        req.remember(&session, now).await?;
        let rows = req.db.list_sessions(req.user.identity_id(), now).await?;
        Ok(Sessions {
            rows,
            current: session.key.into_owned(),
        })
    }

    /// Signs out the session `id` (a key from `sessions`) of the caller's: its binding is revoked,
    /// so its tokens are refused on every instance. Not the caller's own session (that is logout).
    pub async fn revoke(&self, req: &SignedIn, id: &str, now: i64) -> Result<u64, AppError> {
        if !is_session_id(id) {
            return Err(AppError::InvalidField(
                "id must be a session id from the sessions list (64 hex digits).".into(),
            ));
        }
        let session = req.live_session(now).await?;
        if id == session.key {
            return Err(AppError::InvalidField(YOURS.into()));
        }
        match req
            .db
            .revoke_session(req.user_keys(), id, session.binding, now)
            .await?
        {
            Revocation::Done => {}
            Revocation::NoSuchSession => return Err(AppError::NoSuchSession),
            Revocation::Yours => return Err(AppError::InvalidField(YOURS.into())),
        }
        bound_revocations(req, session.binding, now).await;
        Ok(1)
    }

    /// Signs out every session of the caller's but the caller's own: how many there were.
    pub async fn revoke_others(&self, req: &SignedIn, now: i64) -> Result<u64, AppError> {
        let session = req.live_session(now).await?;
        let count = req
            .db
            .revoke_other_sessions(req.user_keys(), (&session.key, session.binding), now)
            .await?;
        bound_revocations(req, session.binding, now).await;
        Ok(count)
    }

    /// Everything stored about the caller: their row and their sessions. Once per
    /// [`ACCOUNT_ACTION_EVERY`] per user (429 with `Retry-After` before).
    pub async fn export(&self, req: &SignedIn, now: i64) -> Result<(UserRow, Sessions), AppError> {
        let session = req.live_session(now).await?;
        self.limits
            .take_or_refuse((Action::Export, req.user.identity_id().into()), now)?;
        let Some(user) = req.db.find_user(req.user.identity_id()).await? else {
            return Err(AppError::NotFound);
        };
        let rows = req.db.list_sessions(req.user.identity_id(), now).await?;
        let current = session.key.into_owned();
        Ok((user, Sessions { rows, current }))
    }

    /// Deletes the caller's account and everything stored about them, in one committed statement
    /// (`Database::delete_account`), and forgets the caller's session on this instance. True when
    /// there was an account. Once per [`ACCOUNT_ACTION_EVERY`] per user.
    pub async fn delete(&self, req: &SignedIn, now: i64) -> Result<bool, AppError> {
        let session = req.live_session(now).await?;
        self.limits
            .take_or_refuse((Action::Delete, req.user.identity_id().into()), now)?;
        let (identity_id, user_key) = req.user_keys();
        let deleted = req.db.delete_account(identity_id, user_key, now).await?;
        req.sessions.forget(&recorded_key(&session));
        bound_revocations(req, "", now).await;
        Ok(deleted)
    }
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

#[cfg(test)]
#[path = "account_tests.rs"]
mod tests;

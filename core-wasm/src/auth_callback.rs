//! The OAuth return page (spec 4, 8, 9): code and state check, exchange outcome, profile update,
//! timeout, redirects.

use serde::{Deserialize, Serialize};

use crate::input::lenient;
use crate::text::{contains, join};

use crate::login::PROVIDERS;

pub const NO_CODE: &str = "No authorization code received from OAuth provider";
pub const PROVIDER_NOT_CONFIGURED: &str =
    "OAuth Provider Configuration Required - Discord may not be enabled in the identity provider";
pub const REGISTRATION_REQUIRED: &str =
    "New user registration may be required. Please contact support.";
pub const TIMEOUT: &str = "Authentication timeout - please try again";
/// The callback's `state` is missing or is not the one this browser stored when it started the
/// sign-in: the code was obtained elsewhere (a link someone else started) or this link was opened
/// before. Exchanging it could sign this browser in as someone else, so it is never exchanged.
pub const STATE_MISMATCH: &str = "This sign-in link was started in another browser or has already been used. Please sign in again.";
/// Without an outcome after this long the page gives up.
pub const TIMEOUT_MS: u64 = 10_000;
/// Delay before the error redirects.
pub const REDIRECT_DELAY_MS: u64 = 3_000;
/// The provider assumed when the identity user does not name one: the chat platform.
pub use mg_domain::FALLBACK_PROVIDER;

/// Why a sign-in failed, as the landing page's `?error=` names it (the landing's notice has a
/// sentence for each value).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum SignInError {
    NoCode,
    AuthFailed,
    CallbackError,
}

/// Where the page sends people, by page: the app maps each to its path in the page catalogue
/// (`app/common/routes.ts`), so no route path is spelled here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify))]
#[serde(tag = "page", rename_all = "camelCase")]
pub enum CallbackDestination {
    /// Signed in: the signed-in home (the dashboard).
    Home,
    /// Not signed in: the landing page, told why with `?error=`.
    Landing { error: SignInError },
}

impl CallbackDestination {
    const fn failed(error: SignInError) -> Self {
        Self::Landing { error }
    }
}

/// The identity provider's user as the SDK returns it (spec 3); every field optional, and one of
/// the wrong type, or null, reads as absent. Other fields of the SDK's user are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct IdentityUser {
    #[serde(default, deserialize_with = "lenient")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub display_name: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub username: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub given_name: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub nickname: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub picture: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub avatar: Option<String>,
    /// The user's login ids, e.g. 'discord-1234' (the first names the provider).
    #[serde(default, deserialize_with = "lenient")]
    #[cfg_attr(feature = "machines", tsify(type = "string[] | null"))]
    pub login_ids: Vec<String>,
}

fn first_present(values: &[&Option<String>]) -> Option<String> {
    values
        .iter()
        .filter_map(|v| v.as_deref().map(str::trim))
        .find(|v| !v.is_empty())
        .map(str::to_owned)
}

impl IdentityUser {
    /// The provider named by the first login id (e.g. 'discord-1234'), else the chat platform.
    pub fn provider(&self) -> &'static str {
        let first = self.login_ids.first().map(|id| id.to_ascii_lowercase());
        PROVIDERS
            .iter()
            .map(|(id, _)| *id)
            .find(|id| first.as_deref().is_some_and(|f| f.starts_with(id)))
            .unwrap_or(FALLBACK_PROVIDER)
    }

    /// The name the provider gives, if any.
    pub fn provider_name(&self) -> Option<String> {
        first_present(&[
            &self.name,
            &self.display_name,
            &self.given_name,
            &self.nickname,
            &self.username,
        ])
    }
}

/// The provider data stored with the profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct OauthData {
    pub username: Option<String>,
    pub display_name: Option<String>,
    pub avatar: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct ProviderProfile {
    pub oauth_provider: String,
    pub oauth_data: OauthData,
}

/// The body of POST /api/auth/update-profile (spec 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct ProfileUpdate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub profile: ProviderProfile,
}

impl ProfileUpdate {
    /// Sets the name only when none is stored and the provider gives one; the profile always.
    pub fn decide(stored_name: Option<&str>, user: &IdentityUser) -> Self {
        let has_name = stored_name.is_some_and(|n| !n.trim().is_empty());
        Self {
            name: if has_name { None } else { user.provider_name() },
            profile: ProviderProfile {
                oauth_provider: user.provider().to_owned(),
                oauth_data: OauthData {
                    username: first_present(&[&user.username, &user.nickname]),
                    display_name: first_present(&[&user.display_name, &user.name]),
                    avatar: first_present(&[&user.picture, &user.avatar]),
                },
            },
        }
    }
}

/// What the hook must do next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum CallbackEffect {
    Exchange { code: String },
    ReadUser,
    UpdateProfile { payload: ProfileUpdate },
    Navigate { to: CallbackDestination },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub enum CallbackPhase {
    #[default]
    Idle,
    Exchanging,
    ReadingUser,
    UpdatingProfile,
    Done,
    Failed,
}

/// What the callback page renders.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct CallbackSnapshot {
    pub phase: CallbackPhase,
    pub message: Option<String>,
    /// Show the 'Authentication Issue' help (diagnostics) rather than redirecting.
    pub show_help: bool,
    /// Where the page goes once the redirect delay has passed.
    pub redirect_to: Option<CallbackDestination>,
}

/// The SDK's exchange answer: ok, or an error code and message. A missing or non-boolean `ok`
/// is a failure; other fields of the wrong type read as absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct ExchangeOutcome {
    #[serde(default, deserialize_with = "lenient")]
    pub ok: bool,
    #[serde(default, deserialize_with = "lenient")]
    pub user: Option<IdentityUser>,
    #[serde(default, deserialize_with = "lenient")]
    pub error_code: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub message: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct AuthCallbackMachine {
    snap: CallbackSnapshot,
    on_localhost: bool,
    timeout_at: u64,
    redirect_at: Option<u64>,
    user: IdentityUser,
}

impl AuthCallbackMachine {
    pub fn new(on_localhost: bool) -> Self {
        Self {
            on_localhost,
            ..Self::default()
        }
    }

    pub fn snapshot(&self) -> &CallbackSnapshot {
        &self.snap
    }

    fn in_progress(&self) -> bool {
        matches!(
            self.snap.phase,
            CallbackPhase::Exchanging | CallbackPhase::ReadingUser | CallbackPhase::UpdatingProfile
        )
    }

    pub fn next_deadline(&self) -> Option<u64> {
        if self.in_progress() {
            Some(self.timeout_at)
        } else {
            self.redirect_at
        }
    }

    fn fail(&mut self, message: String, redirect: Option<SignInError>, now_ms: u64) {
        self.snap.phase = CallbackPhase::Failed;
        self.snap.message = Some(message);
        self.snap.show_help = redirect.is_none();
        self.snap.redirect_to = redirect.map(CallbackDestination::failed);
        self.redirect_at = redirect.map(|_| now_ms.saturating_add(REDIRECT_DELAY_MS));
    }

    /// The page opened with these query parameters. `error` is the provider's error parameter,
    /// `state` the query's `state`; `expected_state` is the one this browser stored when it started
    /// the sign-in (none if it started none, or if this callback already used it). A code is
    /// exchanged only when both states are present and equal.
    pub fn start(
        &mut self,
        code: Option<&str>,
        error: Option<&str>,
        state: Option<&str>,
        expected_state: Option<&str>,
        now_ms: u64,
    ) -> Option<CallbackEffect> {
        if self.snap.phase != CallbackPhase::Idle {
            return None;
        }
        if let Some(error) = error.map(str::trim).filter(|e| !e.is_empty()) {
            self.fail(
                join(&["Authentication error: ", error]),
                Some(SignInError::CallbackError),
                now_ms,
            );
            return None;
        }
        match code.map(str::trim).filter(|c| !c.is_empty()) {
            None => {
                self.fail(NO_CODE.to_owned(), Some(SignInError::NoCode), now_ms);
                None
            }
            Some(_) if !state_matches(state, expected_state) => {
                self.fail(
                    STATE_MISMATCH.to_owned(),
                    Some(SignInError::CallbackError),
                    now_ms,
                );
                None
            }
            Some(code) => {
                self.snap.phase = CallbackPhase::Exchanging;
                self.timeout_at = now_ms.saturating_add(TIMEOUT_MS);
                Some(CallbackEffect::Exchange {
                    code: code.to_owned(),
                })
            }
        }
    }

    /// The exchange answered (spec 8 table).
    pub fn exchanged(&mut self, outcome: ExchangeOutcome, now_ms: u64) -> Option<CallbackEffect> {
        if self.snap.phase != CallbackPhase::Exchanging {
            return None;
        }
        if outcome.ok {
            self.user = outcome.user.unwrap_or_default();
            self.snap.phase = CallbackPhase::ReadingUser;
            return Some(CallbackEffect::ReadUser);
        }
        let code = outcome.error_code.unwrap_or_default();
        let message = outcome.message.unwrap_or_default();
        if code == "E061301" || contains(&message, "Failed exchanging") {
            self.fail(PROVIDER_NOT_CONFIGURED.to_owned(), None, now_ms);
        } else if code == "E062209" || contains(&message, "user must exist") {
            self.fail(REGISTRATION_REQUIRED.to_owned(), None, now_ms);
        } else {
            let shown = if message.trim().is_empty() {
                code.as_str()
            } else {
                message.as_str()
            };
            let redirect = (!self.on_localhost).then_some(SignInError::AuthFailed);
            self.fail(join(&["Authentication failed: ", shown]), redirect, now_ms);
        }
        None
    }

    /// The exchange call threw.
    pub fn exchange_threw(&mut self, message: &str, now_ms: u64) {
        if self.snap.phase == CallbackPhase::Exchanging {
            self.fail(join(&["OAuth exchange failed: ", message]), None, now_ms);
        }
    }

    /// The current user was read; `stored_name` is the name the API holds.
    pub fn user_read(&mut self, stored_name: Option<&str>) -> Option<CallbackEffect> {
        if self.snap.phase != CallbackPhase::ReadingUser {
            return None;
        }
        self.snap.phase = CallbackPhase::UpdatingProfile;
        Some(CallbackEffect::UpdateProfile {
            payload: ProfileUpdate::decide(stored_name, &self.user),
        })
    }

    /// The profile was stored: go to the signed-in home.
    pub fn profile_updated(&mut self) -> Option<CallbackEffect> {
        if self.snap.phase != CallbackPhase::UpdatingProfile {
            return None;
        }
        self.snap.phase = CallbackPhase::Done;
        self.snap.redirect_to = Some(CallbackDestination::Home);
        Some(CallbackEffect::Navigate {
            to: CallbackDestination::Home,
        })
    }

    /// Reading the user or updating the profile failed.
    pub fn step_failed(&mut self, message: &str, now_ms: u64) {
        if matches!(
            self.snap.phase,
            CallbackPhase::ReadingUser | CallbackPhase::UpdatingProfile
        ) {
            self.fail(
                join(&["Authentication error: ", message]),
                Some(SignInError::CallbackError),
                now_ms,
            );
        }
    }

    /// Time passes: the 10 s timeout or a due redirect.
    pub fn tick(&mut self, now_ms: u64) -> Option<CallbackEffect> {
        if self.in_progress() {
            if now_ms >= self.timeout_at {
                self.fail(TIMEOUT.to_owned(), None, now_ms);
            }
            return None;
        }
        let at = self.redirect_at?;
        if now_ms < at {
            return None;
        }
        self.redirect_at = None;
        self.snap
            .redirect_to
            .map(|to| CallbackEffect::Navigate { to })
    }
}

/// True when the callback carries the state this browser stored for its sign-in. Compared exactly:
/// the state is opaque, and an empty one proves nothing.
fn state_matches(state: Option<&str>, expected: Option<&str>) -> bool {
    matches!((state, expected), (Some(state), Some(expected)) if !expected.is_empty() && state == expected)
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

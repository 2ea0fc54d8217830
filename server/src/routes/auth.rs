//! `/api/auth/*`: the signed-in person's record, read and updated through a verified session token.

use axum::response::{IntoResponse, Response};
use axum::{routing::post, Json, Router};
use serde::{Deserialize, Serialize};

use crate::{
    db::{
        users::{ProfileChange, UserRow},
        Database,
    },
    domain::{profile_text, AvatarUrl, DisplayName},
    error::AppError,
    extract::{ApiJson, NoFields},
    identity::signed_in::{recorded_key, SignedIn},
    state::AppState,
    time::rfc3339,
};

/// Routes nested under `/api/auth`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/current-user", post(get_current_user))
        .route("/update-profile", post(update_profile))
        .route("/logout", post(end_session))
}

/// The body of `update-profile`. Unknown fields are refused so a typo never silently does nothing.
/// `name` alone is the person's own edit; `profile` is the sign-in's sync of the provider's data.
#[derive(Debug, Deserialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "UpdateProfileRequest", optional_fields = nullable)
)]
#[serde(deny_unknown_fields)]
pub struct UpdateProfileBody {
    pub name: Option<String>,
    pub profile: Option<ProfileBody>,
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ProfileSync"))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProfileBody {
    pub oauth_provider: String,
    pub oauth_data: OauthData,
}

#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields = nullable))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OauthData {
    pub username: Option<String>,
    pub display_name: Option<String>,
    pub avatar: Option<String>,
}

#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn get_current_user(req: SignedIn, _: NoFields) -> Result<Response, AppError> {
    let SignedIn {
        db, sessions, user, ..
    } = &req;
    let now = req.now_ms();
    let session = req.session(now)?;
    // Hot path: a known session of a known user is one read (after `AuthUser`'s revocation check).
    if sessions.is_recorded(&recorded_key(&session), now) {
        if let Some(found) = db.find_user_with_sessions(user.identity_id(), now).await? {
            return Ok(user_json(&found.user, found.active_sessions).into_response());
        }
    }
    let row = db
        .find_or_create_user(user.identity_id(), user.email(), now)
        .await?;
    req.remember(&session, now).await?;
    respond_with_user(db, row, now).await
}

/// `POST /api/auth/logout`: ends the request's session for good (`SignedIn::log_out`: its tokens are
/// refused from then on), so 'Active sessions' counts one fewer. `{"data": {"ended": <whether there was one>}}`.
#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn end_session(req: SignedIn, _: NoFields) -> Result<Response, AppError> {
    let ended = req.log_out(req.now_ms()).await?;
    Ok(Json(LogoutAnswer {
        data: SessionEnded { ended },
    })
    .into_response())
}

#[tracing::instrument(skip_all, fields(identity_id = %req.user.identity_id()))]
async fn update_profile(
    req: SignedIn,
    ApiJson(body): ApiJson<UpdateProfileBody>,
) -> Result<Response, AppError> {
    // Everything is checked before anything is written: bad input stores nothing.
    let change = parse_change(body)?;
    let now = req.now_ms();
    let session = req.live_session(now).await?;
    // One statement: create-or-update, returning the row and its session count.
    let user = &req.user;
    let saved = req
        .db
        .save_profile(user.identity_id(), user.email(), &change, now)
        .await?;
    if req.sessions.is_recorded(&recorded_key(&session), now) {
        return Ok(user_json(&saved.user, saved.active_sessions).into_response());
    }
    // A session not seen before is recorded now (the user exists by then), and counted with it.
    req.remember(&session, now).await?;
    respond_with_user(&req.db, saved.user, now).await
}

fn parse_change(body: UpdateProfileBody) -> Result<ProfileChange, AppError> {
    let invalid = |error: crate::domain::InvalidInput| AppError::InvalidField(error.0);
    if body.name.is_none() && body.profile.is_none() {
        return Err(AppError::InvalidField(
            "Nothing to update: send a name or a profile.".into(),
        ));
    }
    let name = body
        .name
        .as_deref()
        .map(DisplayName::parse)
        .transpose()
        .map_err(|error| invalid(error.into()))?;
    // A body with `profile` is the sign-in's sync of the provider's data (spec 4); one without is the
    // person's own edit, the only kind that stamps `updated_at`.
    let mut change = ProfileChange {
        name,
        by_person: body.profile.is_none(),
        ..ProfileChange::default()
    };
    if let Some(profile) = body.profile {
        let provider =
            profile_text("oauthProvider", profile.oauth_provider.trim()).map_err(invalid)?;
        if provider.is_empty() {
            return Err(AppError::InvalidField(
                "oauthProvider cannot be empty".into(),
            ));
        }
        let data = profile.oauth_data;
        let username = data
            .username
            .map(|v| profile_text("username", &v))
            .transpose()
            .map_err(invalid)?;
        let display_name = data
            .display_name
            .map(|v| profile_text("displayName", &v))
            .transpose()
            .map_err(invalid)?;
        let avatar = data
            .avatar
            .filter(|v| !v.is_empty())
            .map(|v| AvatarUrl::parse(&v))
            .transpose()
            .map_err(invalid)?;
        let stored = ProviderData {
            avatar: avatar.as_ref().map(|url| url.as_str().to_owned()),
            display_name,
            username,
        };
        change.login_provider = Some(provider);
        change.provider_profile = Some(
            serde_json::to_string(&stored)
                .map_err(|error| AppError::Internal(format!("provider data: {error}")))?,
        );
    }
    Ok(change)
}

async fn respond_with_user(db: &Database, row: UserRow, now: i64) -> Result<Response, AppError> {
    let active = db.count_active_sessions(&row.identity_id, now).await?;
    Ok(user_json(&row, active).into_response())
}

/// The body of `POST /api/auth/logout`.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LogoutAnswer {
    pub data: SessionEnded,
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SessionEnded {
    /// Whether the request's session was still recorded (false: it had ended already).
    pub ended: bool,
}

/// The provider's data as the sign-in's sync stores it (the `provider_profile` column, as JSON)
/// and the user's answers hand it back: each value `null` when the provider gave none.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ProviderData {
    // In the order the column has always held them (alphabetical).
    /// An `https://` address.
    pub avatar: Option<String>,
    pub display_name: Option<String>,
    pub username: Option<String>,
}

/// The user as the app reads it (spec section 3), `updated_at` null until the first update.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "CurrentUser"))]
pub struct UserData<'a> {
    /// The identity provider's user id.
    pub id: &'a str,
    /// The display name; null until the person or the provider gave one.
    pub name: Option<&'a str>,
    pub email: Option<&'a str>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339 of the person's last own edit; null until the first.
    pub updated_at: Option<String>,
    /// How many browsers are signed in as this user (sessions not expired or ended).
    #[serde(rename = "activeSessions")]
    pub active_sessions: i64,
    /// What the last sign-in's sync stored; null before one.
    pub profile: Option<StoredProfile<'a>>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "UserProfile"))]
#[serde(rename_all = "camelCase")]
pub struct StoredProfile<'a> {
    pub oauth_provider: &'a str,
    /// Null when the stored JSON cannot be read.
    pub oauth_data: Option<ProviderData>,
}

/// The body of `POST /api/auth/current-user` and `POST /api/auth/update-profile`.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "UserAnswer"))]
pub struct UserEnvelope<'a> {
    pub data: UserData<'a>,
}

/// `{"data": <user>}`, serialized straight from the row (no intermediate JSON tree).
fn user_json(row: &UserRow, active_sessions: i64) -> Json<UserEnvelope<'_>> {
    let profile = match (&row.login_provider, &row.provider_profile) {
        (Some(provider), Some(data)) => Some(StoredProfile {
            oauth_provider: provider,
            oauth_data: serde_json::from_str::<ProviderData>(data).ok(),
        }),
        _ => None,
    };
    Json(UserEnvelope {
        data: UserData {
            id: &row.identity_id,
            name: row.name.as_deref(),
            email: row.email.as_deref(),
            created_at: rfc3339(row.created_at),
            updated_at: row.updated_at.map(rfc3339),
            active_sessions,
            profile,
        },
    })
}

/// Fuzzing the JSON bodies (docs/quality.md): any bytes sent to `update-profile` are refused with a
/// message or become a change that keeps every rule; nothing panics.
#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;
    use serde_json::{json, Value};

    use super::{parse_change, UpdateProfileBody};
    use crate::domain::MAX_NAME_CHARS;

    /// JSON values shaped like the body, with every field set to anything.
    fn body_like() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<f64>().prop_map(|n| json!(n)),
            "\\PC{0,20}".prop_map(Value::from),
            ".{0,120}".prop_map(Value::from),
            "https://[a-z]{1,8}\\.example/[a-z]{0,8}".prop_map(Value::from),
        ];
        let value = leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
                object_of(&["username", "displayName", "avatar"], inner, 4),
            ]
        });
        object_of(&["name", "profile", "oauthProvider"], value, 3)
    }

    /// JSON objects of fewer than `most` members, each `value`, named one of `names` or a short
    /// made-up word (each name as likely as a made-up word).
    fn object_of(
        names: &'static [&'static str],
        value: impl Strategy<Value = Value>,
        most: usize,
    ) -> impl Strategy<Value = Value> {
        let weight = u32::try_from(names.len()).expect("a few names");
        let name = prop_oneof![
            weight => proptest::sample::select(names).prop_map(str::to_owned),
            1 => "[a-z]{1,6}",
        ];
        proptest::collection::btree_map(name, value, 0..most)
            .prop_map(|m| Value::Object(m.into_iter().collect()))
    }

    fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
        let Ok(body) = serde_json::from_slice::<UpdateProfileBody>(bytes) else {
            return Ok(());
        };
        if let Ok(change) = parse_change(body) {
            if let Some(name) = change.name.as_ref().map(crate::domain::DisplayName::as_str) {
                prop_assert_eq!(name.trim(), name);
                prop_assert!(!name.is_empty() && name.chars().count() <= MAX_NAME_CHARS);
                prop_assert!(!name.chars().any(char::is_control));
            }
            if let Some(profile) = &change.provider_profile {
                let stored: Value = serde_json::from_str(profile).expect("stored JSON");
                if let Some(avatar) = stored["avatar"].as_str() {
                    prop_assert!(avatar.starts_with("https://"));
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            check(&bytes)?;
        }

        #[test]
        fn body_shaped_json_is_refused_or_kept_within_the_rules(body in body_like()) {
            check(body.to_string().as_bytes())?;
        }
    }
}

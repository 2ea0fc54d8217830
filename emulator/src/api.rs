//! The emulator's JSON API (docs/identity.md): keys, OAuth start and exchange, refresh, logout, me.

use std::collections::HashMap;

use axum::{
    body::Bytes,
    extract::{
        rejection::{BytesRejection, PathRejection, QueryRejection},
        Path, Query,
    },
    http::{header, HeaderMap},
    Json,
};
use serde_json::{json, Value};

use super::{
    error::EmulatorError,
    grants::{random_token, Attempt, ClientKey, Outcome},
    state::{origin_of, provider_name, Emu, Emulator, PAGE_PREFIX},
    tokens::{user_json, RefreshOf},
};
use crate::users::{EmulatorUserRow, EmulatorUsers};
use axum::extract::State;
use mg_platform::identity::{
    binding_of, ecdsa::canonical_token, issued_at_ms, sha256_hex, user_key,
};
use mg_platform::{db::Database, forwarded::ClientInfo, time::now_ms};

type Answer = Result<Json<Value>, EmulatorError>;

/// Any other `/v1/*` or `/v2/*` call: 404 JSON (still 404, from the extractor, when the emulator is off).
pub async fn unknown_call(Emu(_emulator): Emu) -> EmulatorError {
    EmulatorError::unknown_route()
}

/// `GET /v2/keys/{projectId}`: the JWKS; another project's keys are an empty set.
pub async fn get_keys(
    Emu(emulator): Emu,
    project_id: Result<Path<String>, PathRejection>,
) -> Answer {
    let Path(project_id) =
        project_id.map_err(|r| EmulatorError::rejected(r.status(), r.body_text()))?;
    if project_id == emulator.issuer.project_id() {
        Ok(Json(emulator.jwks()))
    } else {
        Ok(Json(json!({ "keys": [] })))
    }
}

/// Any method a route does not take: 405 in the emulator's shape (the SDK parses every body).
pub async fn method_not_allowed() -> EmulatorError {
    EmulatorError::rejected(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        "This call does not accept that method.",
    )
}

/// The body, or the emulator's error for a body axum refused (over the limit: 413).
fn read_body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, EmulatorError> {
    body.map_err(|r| EmulatorError::rejected(r.status(), r.body_text()))
}

/// The query, or the emulator's 400 for one that is not UTF-8 text.
pub fn read_query(
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<HashMap<String, String>, EmulatorError> {
    query
        .map(|Query(query)| query)
        .map_err(|r| EmulatorError::rejected(r.status(), r.body_text()))
}

/// `POST /v1/auth/oauth/authorize?provider=&redirectURL=`: `{"url"}` of the provider page.
#[tracing::instrument(skip_all)]
pub async fn start_oauth(
    Emu(emulator): Emu,
    client: ClientInfo,
    headers: HeaderMap,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let query = read_query(query)?;
    bearer(&emulator, &headers)?;
    json_body(&read_body(body)?)?;
    let provider = query.get("provider").map(String::as_str).unwrap_or("");
    if provider_name(provider).is_none() {
        return Err(EmulatorError::bad_request(format!(
            "Unknown OAuth provider '{provider}'"
        )));
    }
    let redirect = query
        .get("redirectURL")
        .or_else(|| query.get("redirectUrl"))
        .ok_or_else(|| EmulatorError::bad_request("redirectURL is required"))?;
    let redirect = emulator.allowed_redirect(redirect).ok_or_else(|| {
        EmulatorError::bad_request(format!(
            "redirectURL is not on an allowed origin (allowed: {})",
            emulator.redirect_origins().join(", ")
        ))
    })?;
    let state = emulator
        .grants
        .start(
            ClientKey::from(client.ip),
            Attempt {
                provider: provider.to_owned(),
                redirect_url: redirect.to_string(),
            },
        )
        .map_err(EmulatorError::refused)?;
    let url = format!(
        "{}{PAGE_PREFIX}/{provider}?state={state}",
        page_origin(&emulator, &client, &headers)
    );
    Ok(Json(json!({ "url": url })))
}

/// `POST /v1/auth/oauth/exchange` `{"code"}`: the JWT response, or the failure chosen on the page.
#[tracing::instrument(skip_all)]
pub async fn exchange_code(
    Emu(emulator): Emu,
    State(db): State<Database>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    bearer(&emulator, &headers)?;
    let body = json_body(&read_body(body)?)?;
    let code = body["code"]
        .as_str()
        .filter(|code| !code.is_empty())
        .ok_or_else(|| EmulatorError::bad_request("code is required"))?;
    let grant = emulator
        .grants
        .redeem(code)
        .ok_or_else(EmulatorError::invalid_code)?;
    match grant.outcome {
        Outcome::ProviderNotEnabled => Err(EmulatorError::provider_not_enabled(&grant.provider)),
        Outcome::UserMustExist => Err(EmulatorError::user_must_exist()),
        Outcome::SignIn => {
            let candidate = EmulatorUserRow {
                provider: grant.provider,
                email: grant.account.email,
                user_id: format!("U{}", &random_token()[..27]),
                name: grant.account.name,
                username: grant.account.username,
                created_at: now_ms(),
            };
            let (user, created) = EmulatorUsers(&db)
                .find_or_create_emulator_user(&candidate)
                .await?;
            Ok(Json(emulator.issuer.jwt_response(&user, None, created)?))
        }
    }
}

/// `POST /v1/auth/refresh` with `Bearer <projectId>:<refreshJwt>`: a new session token.
#[tracing::instrument(skip_all)]
pub async fn refresh_session(
    Emu(emulator): Emu,
    State(db): State<Database>,
    headers: HeaderMap,
) -> Answer {
    let refresh = required_refresh(&emulator, &headers)?;
    let (user, sign_in) = user_of(&emulator, &db, &refresh).await?;
    Ok(Json(emulator.issuer.jwt_response(
        &user,
        Some((&refresh, sign_in.sid.as_deref())),
        false,
    )?))
}

/// `POST /v1/auth/try-refresh`: like refresh, but no refresh token at all is `{}`, not an error.
#[tracing::instrument(skip_all)]
pub async fn try_refresh_session(emu: Emu, db: State<Database>, headers: HeaderMap) -> Answer {
    if bearer(&emu.0, &headers)?.is_none() {
        return Ok(Json(json!({})));
    }
    refresh_session(emu, db, headers).await
}

/// `POST /v1/auth/logout`: ends the refresh token if it is one this emulator signed and still takes.
#[tracing::instrument(skip_all)]
pub async fn logout(Emu(emulator): Emu, State(db): State<Database>, headers: HeaderMap) -> Answer {
    end_sessions(&emulator, &db, &headers, |refresh| {
        emulator.issuer.revoke(refresh).map(drop)
    })
    .await
}

/// `POST /v1/auth/logoutall`: ends every refresh token of the user.
#[tracing::instrument(skip_all)]
pub async fn logout_all(
    Emu(emulator): Emu,
    State(db): State<Database>,
    headers: HeaderMap,
) -> Answer {
    end_sessions(&emulator, &db, &headers, |refresh| {
        emulator.issuer.revoke_all(refresh)
    })
    .await
}

/// A logout: `end` ends the request's refresh token (and what goes with it) if the emulator would
/// still refresh it ([`user_of`]: signed by it, unexpired, not logged out, its sign-in not signed
/// out from the app, its account not deleted). `{}` whatever it was (the SDK clears its tokens
/// anyway), but a dead token changes nothing: a deleted account's old refresh token cannot log out
/// the sign-ins of the account made after it, on any instance. (When the database cannot say, the
/// token is ended as one that takes.)
async fn end_sessions(
    emulator: &Emulator,
    db: &Database,
    headers: &HeaderMap,
    end: impl FnOnce(&str) -> Result<(), EmulatorError>,
) -> Answer {
    if let Some(refresh) = bearer(emulator, headers)? {
        let ended = match user_of(emulator, db, &refresh).await {
            // The database not answering is no reason to keep a sign-in going: ended as before.
            Err(error) if error.status.is_server_error() => end(&refresh),
            Err(refused) => Err(refused),
            Ok(_) => end(&refresh),
        };
        if let Err(error) = ended {
            tracing::debug!(reason = %error.message, "logout of a token that no longer takes");
        }
    }
    Ok(Json(json!({})))
}

/// `GET /v1/auth/me`: the bare user object of the refresh token's user.
#[tracing::instrument(skip_all)]
pub async fn get_me(Emu(emulator): Emu, State(db): State<Database>, headers: HeaderMap) -> Answer {
    let refresh = required_refresh(&emulator, &headers)?;
    let (user, _) = user_of(&emulator, &db, &refresh).await?;
    Ok(Json(user_json(&user)))
}

/// `Bearer <projectId>` or `Bearer <projectId>:<refreshJwt>` (split at the first `:`); the
/// project must be the emulator's. Returns the refresh token, if any.
fn bearer(emulator: &Emulator, headers: &HeaderMap) -> Result<Option<String>, EmulatorError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(EmulatorError::unauthorized(
            "Authorization: Bearer <projectId> is required",
        ));
    };
    let value = value
        .to_str()
        .map_err(|_| EmulatorError::unauthorized("Authorization is not text"))?;
    let token = value
        .split_once(' ')
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .ok_or_else(|| EmulatorError::unauthorized("Authorization is not 'Bearer ...'"))?;
    let (project, refresh) = match token.split_once(':') {
        Some((project, refresh)) => (project, Some(refresh.trim())),
        None => (token, None),
    };
    if project != emulator.issuer.project_id() {
        return Err(EmulatorError::unauthorized(format!(
            "Unknown project '{project}'"
        )));
    }
    Ok(refresh.filter(|r| !r.is_empty()).map(str::to_owned))
}

fn required_refresh(emulator: &Emulator, headers: &HeaderMap) -> Result<String, EmulatorError> {
    bearer(emulator, headers)?
        .ok_or_else(|| EmulatorError::unauthorized("A refresh token is required"))
}

/// The user of a valid refresh token, and what it says. A refresh token whose sign-in the app
/// signed out (from another session, by "sign out all other sessions" or by deleting the account)
/// is refused as one logged out: the hosted provider's refresh tokens are ended by its management
/// logout, which the emulator stands in for by reading the same revocations the app's routes
/// check (`Database::token_refused`, with the binding its session tokens carry), so it holds on
/// every instance and across restarts.
async fn user_of(
    emulator: &Emulator,
    db: &Database,
    refresh: &str,
) -> Result<(EmulatorUserRow, RefreshOf), EmulatorError> {
    let sign_in = emulator.issuer.verify_refresh(refresh)?;
    let token_hash = sha256_hex(canonical_token(refresh).as_bytes());
    let refused = db
        .token_refused(
            &binding_of(&sign_in.user_id, sign_in.sid.as_deref(), &token_hash),
            &user_key(&sign_in.user_id),
            issued_at_ms(Some(sign_in.issued_at)),
            now_ms(),
        )
        .await?;
    if refused {
        return Err(EmulatorError::unauthorized(
            "Invalid refresh token: signed out",
        ));
    }
    let user = EmulatorUsers(db)
        .find_emulator_user_by_id(&sign_in.user_id)
        .await?
        .ok_or_else(|| EmulatorError::unauthorized("The user no longer exists"))?;
    Ok((user, sign_in))
}

/// The body as JSON; an empty body is `{}`. Fields the emulator does not know are ignored.
fn json_body(body: &[u8]) -> Result<Value, EmulatorError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(body)
        .map_err(|_| EmulatorError::bad_request("The request body is not valid JSON"))
}

/// Where the provider page link points: the origin the SDK called (its `Host`, or the scheme and
/// host a trusted proxy forwarded) when that is one of the emulator's own origins, so the link
/// works whether or not the app shares the server's origin; otherwise the first configured
/// (or bound) origin. What a client writes in `Host` cannot send the link anywhere else.
fn page_origin(emulator: &Emulator, client: &ClientInfo, headers: &HeaderMap) -> String {
    let scheme = if client.over_tls { "https" } else { "http" };
    let called = client
        .forwarded_host
        .as_ref()
        .or_else(|| headers.get(header::HOST))
        .and_then(|host| host.to_str().ok())
        .and_then(|host| origin_of(&format!("{scheme}://{host}/")));
    let origins = emulator.redirect_origins();
    match called {
        Some(origin) if origins.contains(&origin) => origin,
        _ => origins.first().cloned().unwrap_or_default(),
    }
}

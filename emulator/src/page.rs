//! The emulator's provider page: where a person (or a test) picks or types an account, or a failure
//! to simulate, and continues back to the app with `?code=` or `?err=`.

use std::collections::HashMap;

use axum::{
    extract::{
        rejection::{FormRejection, PathRejection, QueryRejection},
        Path, Query,
    },
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    Form,
};

use mg_platform::{forwarded::ClientInfo, html::escape};

use super::{
    error::EmulatorError,
    grants::{Account, Attempt, ClientKey, Grant, Outcome},
    state::{provider_name, Emu, Emulator, PAGE_PREFIX},
};

/// The accounts offered on every provider page (the e-mail keeps them apart per provider anyway).
pub const PRESET_ACCOUNTS: [(&str, &str, &str); 2] = [
    ("ada.lovelace@example.com", "Ada Lovelace", "ada"),
    ("alan.turing@example.com", "Alan Turing", "alan"),
];

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;\
padding:0 1rem;color:#111;background:#fafafa}.banner{background:#fff3cd;border:1px solid #c9a227;\
padding:.5rem .75rem;border-radius:4px}fieldset{margin:1rem 0;border:1px solid #999;border-radius:4px}\
label{display:block;margin:.35rem 0}input[type=text],input[type=email]{width:100%;padding:.35rem;\
box-sizing:border-box}button{font:inherit;padding:.5rem 1.25rem;margin-top:.5rem}\
.error{color:#8b0000;font-weight:600}:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}";

/// `GET /emulator/oauth/{provider}?state=...`: the page, or a 400 page for a bad or stale link.
pub async fn show_provider_page(
    Emu(emulator): Emu,
    provider: Result<Path<String>, PathRejection>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    let (provider, query) = match (provider, super::api::read_query(query)) {
        (Ok(Path(provider)), Ok(query)) => (provider, query),
        (Err(r), _) => return EmulatorError::rejected(r.status(), r.body_text()).into_response(),
        (_, Err(error)) => return error.into_response(),
    };
    let state = query.get("state").map(String::as_str).unwrap_or("");
    match attempt_for(&emulator, &provider, state) {
        Some(attempt) => render_form(&attempt, state, None, StatusCode::OK),
        None => invalid_link(),
    }
}

/// `POST /emulator/oauth/{provider}` (the form): redirects back to the app with a one-time code,
/// or with `?err=` for a simulated provider-side error. Bad account fields show the form again.
pub async fn continue_sign_in(
    Emu(emulator): Emu,
    client: ClientInfo,
    provider: Result<Path<String>, PathRejection>,
    form: Result<Form<HashMap<String, String>>, FormRejection>,
) -> Response {
    let (provider, form) = match (provider, form) {
        (Ok(Path(provider)), Ok(Form(form))) => (provider, form),
        (Err(r), _) => return EmulatorError::rejected(r.status(), r.body_text()).into_response(),
        (_, Err(r)) => return EmulatorError::rejected(r.status(), r.body_text()).into_response(),
    };
    let field = |name: &str| form.get(name).map(|v| v.trim()).unwrap_or("");
    let state = field("state");
    let Some(attempt) = attempt_for(&emulator, &provider, state) else {
        return invalid_link();
    };
    let outcome = match field("outcome") {
        "" | "sign-in" => Some(Outcome::SignIn),
        "provider-not-enabled" => Some(Outcome::ProviderNotEnabled),
        "user-must-exist" => Some(Outcome::UserMustExist),
        "provider-error" => None,
        _ => {
            return render_form(
                &attempt,
                state,
                Some("Choose an outcome."),
                StatusCode::BAD_REQUEST,
            )
        }
    };
    let Some(outcome) = outcome else {
        let err = field("err");
        let err = if err.is_empty() { "access_denied" } else { err };
        if err.len() > 64
            || !err
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
        {
            return render_form(
                &attempt,
                state,
                Some(
                    "The error code may hold only letters, digits, '_', '-' and '.' (64 at most).",
                ),
                StatusCode::BAD_REQUEST,
            );
        }
        emulator.grants.finish(state);
        return redirect_back(&attempt, "err", err);
    };
    let account = match chosen_account(&form) {
        Ok(account) => account,
        Err(message) => {
            return render_form(&attempt, state, Some(message), StatusCode::BAD_REQUEST)
        }
    };
    // The attempt is used up: reloading the page or posting again cannot mint a second code.
    if emulator.grants.finish(state).is_none() {
        return invalid_link();
    }
    let grant = Grant {
        provider: attempt.provider.clone(),
        account,
        outcome,
    };
    match emulator
        .grants
        .issue_code(ClientKey::from(client.ip), grant)
    {
        Ok(code) => redirect_back(&attempt, "code", &code),
        Err(refused) => EmulatorError::refused(refused).into_response(),
    }
}

fn attempt_for(emulator: &Emulator, provider: &str, state: &str) -> Option<Attempt> {
    emulator
        .grants
        .attempt(state)
        .filter(|attempt| attempt.provider == provider)
}

/// The preset account picked, or the typed one checked (name and username default from the e-mail).
fn chosen_account(form: &HashMap<String, String>) -> Result<Account, &'static str> {
    let field = |name: &str| form.get(name).map(|v| v.trim()).unwrap_or("");
    // A typed e-mail wins over the preset radio button: typing an account means using it.
    if !field("email").is_empty() {
        return typed_account(form);
    }
    let choice = field("account");
    if let Some(index) = choice.strip_prefix("preset-") {
        let (email, name, username) = index
            .parse::<usize>()
            .ok()
            .and_then(|i| PRESET_ACCOUNTS.get(i))
            .ok_or("Choose one of the listed accounts.")?;
        return Ok(Account {
            email: (*email).to_owned(),
            name: (*name).to_owned(),
            username: (*username).to_owned(),
        });
    }
    if !choice.is_empty() && choice != "custom" {
        return Err("Choose one of the listed accounts.");
    }
    typed_account(form)
}

/// The account typed into the e-mail, name and username fields.
fn typed_account(form: &HashMap<String, String>) -> Result<Account, &'static str> {
    let field = |name: &str| form.get(name).map(|v| v.trim()).unwrap_or("");
    let email = field("email").to_ascii_lowercase();
    let plausible = email.len() <= 254
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && domain.contains('.') && !domain.starts_with('.')
        })
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    if !plausible {
        return Err("Enter an e-mail address like name@example.com.");
    }
    let local = email.split('@').next().unwrap_or("user").to_owned();
    let name = match field("name") {
        "" => local.clone(),
        name => name.to_owned(),
    };
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err("The name must be at most 100 characters, without control characters.");
    }
    let username = match field("username") {
        "" => local,
        username => username.to_owned(),
    };
    if username.chars().count() > 64
        || !username
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.".contains(c))
    {
        return Err("The username may hold only letters, digits, '_', '-' and '.' (64 at most).");
    }
    Ok(Account {
        email,
        name,
        username,
    })
}

fn redirect_back(attempt: &Attempt, key: &str, value: &str) -> Response {
    let mut target = match url::Url::parse(&attempt.redirect_url) {
        Ok(url) => url,
        Err(_) => return invalid_link(),
    };
    target.query_pairs_mut().append_pair(key, value);
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(location) = HeaderValue::from_str(target.as_str()) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    no_store(&mut response);
    response
}

fn render_form(
    attempt: &Attempt,
    state: &str,
    error: Option<&str>,
    status: StatusCode,
) -> Response {
    let provider = escape(provider_name(&attempt.provider).unwrap_or("OAuth"));
    let action = escape(&format!("{}/{}", PAGE_PREFIX, attempt.provider));
    let error = error
        .map(|message| format!(r#"<p class="error" role="alert">{}</p>"#, escape(message)))
        .unwrap_or_default();
    let presets: String = PRESET_ACCOUNTS
        .iter()
        .enumerate()
        .map(|(i, (email, name, _))| {
            let checked = if i == 0 { " checked" } else { "" };
            format!(
                r#"<label><input type="radio" name="account" value="preset-{i}"{checked}> {} &lt;{}&gt;</label>"#,
                escape(name),
                escape(email)
            )
        })
        .collect();
    let redirect_origin = url::Url::parse(&attempt.redirect_url)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_default();
    let body = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with {provider} (local identity emulator)</title><style>{STYLE}</style></head>
<body><main>
<p class="banner"><strong>Local identity emulator</strong>: for development only. No real {provider} account is used.</p>
<h1>Sign in with {provider}</h1>
<p>Returning to <strong>{origin}</strong>.</p>
{error}
<form method="post" action="{action}">
<input type="hidden" name="state" value="{state}">
<fieldset><legend>Account</legend>
{presets}
<label><input type="radio" name="account" value="custom"> Another account: type it below (a typed e-mail is always used)</label>
<label for="email">E-mail</label><input type="email" id="email" name="email" autocomplete="off">
<label for="name">Name</label><input type="text" id="name" name="name" autocomplete="off">
<label for="username">Username</label><input type="text" id="username" name="username" autocomplete="off">
</fieldset>
<fieldset><legend>Outcome</legend>
<label><input type="radio" name="outcome" value="sign-in" checked> Sign in successfully</label>
<label><input type="radio" name="outcome" value="provider-not-enabled"> Fail: {provider} is not enabled in the identity project (E061301)</label>
<label><input type="radio" name="outcome" value="user-must-exist"> Fail: the user must exist, sign-up is closed (E062209)</label>
<label><input type="radio" name="outcome" value="provider-error"> Fail at {provider} (back with <code>?err=</code>)</label>
<label for="err">Provider error code</label><input type="text" id="err" name="err" value="access_denied" autocomplete="off">
</fieldset>
<button type="submit">Continue</button>
</form>
</main></body></html>"#,
        origin = escape(&redirect_origin),
        state = escape(state),
    );
    html_response(status, body, &redirect_origin)
}

fn invalid_link() -> Response {
    let body = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in link not valid (local identity emulator)</title>
<style>{STYLE}</style></head><body><main>
<p class="banner"><strong>Local identity emulator</strong>: for development only.</p>
<h1>This sign-in link is not valid</h1>
<p role="alert">It is unknown, expired or already used, or it was started for another provider.
Go back to the app and start signing in again.</p>
</main></body></html>"#
    );
    html_response(StatusCode::BAD_REQUEST, body, "")
}

/// HTML with its own CSP: no scripts at all, inline style only, forms back to this origin (and
/// the redirect's origin, which a form submission's redirect must be allowed to reach).
fn html_response(status: StatusCode, body: String, redirect_origin: &str) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    let csp = format!(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' {redirect_origin}; \
         base-uri 'none'; frame-ancestors 'none'"
    );
    if let Ok(value) = HeaderValue::from_str(&csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    no_store(&mut response);
    response
}

fn no_store(response: &mut Response) {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_account_is_checked_and_defaults_from_the_email() {
        let form: HashMap<String, String> = [("account", "custom"), ("email", "Grace@Example.com")]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        let account = chosen_account(&form).expect("valid");
        assert_eq!(account.email, "grace@example.com");
        assert_eq!(account.name, "grace");
        assert_eq!(account.username, "grace");
        let mut bad = form.clone();
        bad.insert("email".into(), "not-an-email".into());
        assert!(chosen_account(&bad).is_err());
        let mut bad_user = form;
        bad_user.insert("username".into(), "<b>".into());
        assert!(chosen_account(&bad_user).is_err());
    }
}

//! The local identity emulator over HTTP: the OAuth round trip through its provider page, codes,
//! redirects and simulated failures; and the helpers the other emulator tests share.

use std::time::Duration;

use mg_server::config::{Config, EMULATOR_CODE_TTL, LOCAL_EMULATOR_PROJECT_ID};
use serde_json::{json, Value};

use crate::helpers::{chunked_post, header, TestApp};

/// The configuration of `make run` offline: no external identity provider, so the emulator is on.
pub fn emulator_on(config: &mut Config) {
    config.identity_base_url = None;
    config.identity_project_id = None;
}

/// `emulator_on`, then `more`: the emulator's configuration with a change of the test's own.
pub fn emulator_and(more: impl FnOnce(&mut Config)) -> impl FnOnce(&mut Config) {
    move |config| {
        emulator_on(config);
        more(config);
    }
}

/// A client that shows redirects instead of following them.
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

pub fn callback(app: &TestApp) -> String {
    format!("{}/auth/callback", app.address)
}

/// `POST /v1/auth/oauth/authorize` as the SDK sends it.
pub async fn authorize(app: &TestApp, provider: &str, redirect: &str) -> reqwest::Response {
    authorize_with(app, provider, redirect, &[]).await
}

/// `authorize` with these request headers too (a proxy's forwarding headers, say).
pub async fn authorize_with(
    app: &TestApp,
    provider: &str,
    redirect: &str,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut request = browser()
        .post(format!("{}/v1/auth/oauth/authorize", app.address))
        .query(&[("provider", provider), ("redirectURL", redirect)])
        .bearer_auth(LOCAL_EMULATOR_PROJECT_ID)
        .json(&json!({}));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.expect("authorize answers")
}

/// Starts a sign-in that returns to `redirect` and gives the provider page URL.
pub async fn provider_page_url_to(app: &TestApp, provider: &str, redirect: &str) -> String {
    let response = authorize(app, provider, redirect).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON");
    body["url"].as_str().expect("url").to_owned()
}

/// Starts a sign-in and returns the provider page URL.
pub async fn provider_page_url(app: &TestApp, provider: &str) -> String {
    provider_page_url_to(app, provider, &callback(app)).await
}

/// Submits the provider page's form with `fields` and returns where the browser is sent.
pub async fn submit_page(app: &TestApp, provider: &str, fields: &[(&str, &str)]) -> String {
    submit_page_to(app, provider, &callback(app), fields).await
}

/// The same, for a sign-in that returns to `redirect`.
pub async fn submit_page_to(
    app: &TestApp,
    provider: &str,
    redirect: &str,
    fields: &[(&str, &str)],
) -> String {
    let page_url = provider_page_url_to(app, provider, redirect).await;
    let page = browser().get(&page_url).send().await.expect("page");
    assert_eq!(page.status(), 200);
    let html = page.text().await.expect("html");
    assert!(html.contains("Local identity emulator"), "{html}");
    let state = page_url.split("state=").nth(1).expect("state in the url");
    let mut form: Vec<(&str, &str)> = vec![("state", state)];
    form.extend_from_slice(fields);
    let response = browser()
        .post(page_url.split('?').next().expect("path"))
        .form(&form)
        .send()
        .await
        .expect("form post");
    assert_eq!(response.status(), 303, "{:?}", response.text().await);
    header(&response, "location").to_owned()
}

/// The one-time code of a successful page submission.
pub async fn code_for(app: &TestApp, provider: &str, fields: &[(&str, &str)]) -> String {
    let location = submit_page(app, provider, fields).await;
    let prefix = format!("{}?code=", callback(app));
    location
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{location} goes back to the callback with a code"))
        .to_owned()
}

pub async fn exchange(app: &TestApp, code: &str) -> reqwest::Response {
    app.client
        .post(format!("{}/v1/auth/oauth/exchange", app.address))
        .bearer_auth(LOCAL_EMULATOR_PROJECT_ID)
        .json(&json!({ "code": code }))
        .send()
        .await
        .expect("exchange answers")
}

/// Signs in as preset account 0 (Ada) through the page and returns the JWT response.
pub async fn sign_in(app: &TestApp, provider: &str, fields: &[(&str, &str)]) -> Value {
    let code = code_for(app, provider, fields).await;
    let response = exchange(app, &code).await;
    assert_eq!(response.status(), 200);
    response.json().await.expect("JWT response")
}

pub async fn with_refresh(app: &TestApp, path: &str, refresh: &str) -> reqwest::Response {
    let request = if path.ends_with("/me") {
        app.client.get(format!("{}{path}", app.address))
    } else {
        app.client
            .post(format!("{}{path}", app.address))
            .json(&json!({}))
    };
    request
        .header(
            "authorization",
            format!("Bearer {LOCAL_EMULATOR_PROJECT_ID}:{refresh}"),
        )
        .send()
        .await
        .expect("answers")
}

pub async fn error_of(response: reqwest::Response, status: u16) -> Value {
    assert_eq!(response.status(), status);
    let body: Value = response.json().await.expect("JSON error");
    for field in ["errorCode", "errorDescription", "errorMessage"] {
        assert!(body[field].is_string(), "{field} in {body}");
    }
    body
}

async fn round_trip_signs_in_and_the_api_accepts_the_session(app: TestApp) {
    let jwt = sign_in(&app, "github", &[("account", "preset-0")]).await;
    let user = &jwt["user"];
    assert_eq!(user["email"], "ada.lovelace@example.com");
    assert_eq!(user["name"], "Ada Lovelace");
    assert_eq!(user["givenName"], "Ada");
    assert_eq!(user["familyName"], "Lovelace");
    let user_id = user["userId"].as_str().expect("userId");
    assert_eq!(
        user["loginIds"],
        json!([format!("github-{user_id}"), "ada.lovelace@example.com"])
    );
    assert_eq!(user["status"], "enabled");
    assert_eq!(user["verifiedEmail"], true);
    assert_eq!(user["OAuth"], json!({"github": true}));
    assert_eq!(user["customAttributes"], json!({}));
    assert!(user["createdTime"].as_i64().expect("createdTime") > 1_700_000_000);
    assert_eq!(jwt["firstSeen"], true);
    assert_eq!(jwt["claims"]["sub"], user["userId"]);
    assert_eq!(jwt["claims"]["iss"], LOCAL_EMULATOR_PROJECT_ID);
    assert_eq!(jwt["claims"]["drn"], "DS");
    assert_eq!(jwt["claims"]["amr"], json!(["oauth"]));
    assert_eq!(jwt["sessionExpiration"], jwt["claims"]["exp"]);
    for field in ["cookiePath", "cookieDomain"] {
        assert!(jwt[field].is_string(), "{field}");
    }
    for field in ["cookieMaxAge", "cookieExpiration"] {
        assert!(jwt[field].is_u64(), "{field}");
    }
    let session = jwt["sessionJwt"].as_str().expect("sessionJwt");
    let kid = jsonwebtoken::decode_header(session).expect("header").kid;
    let keys: Value = app
        .get(&format!("/v2/keys/{LOCAL_EMULATOR_PROJECT_ID}"))
        .await
        .json()
        .await
        .expect("JWKS");
    assert_eq!(keys["keys"][0]["kid"].as_str(), kid.as_deref());
    assert_eq!(keys["keys"][0]["use"], "sig");
    let response = app.current_user(session).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(body["data"]["id"], user["userId"]);
    assert_eq!(body["data"]["email"], "ada.lovelace@example.com");
}
on_both_backends!(
    an_oauth_round_trip_through_the_provider_page_yields_a_session_the_api_accepts,
    round_trip_signs_in_and_the_api_accepts_the_session,
    emulator_on
);

async fn signing_in_again_returns_the_same_user_id_and_first_seen_false(app: TestApp) {
    let typed = [
        ("account", "custom"),
        ("email", "grace@example.com"),
        ("name", "Grace <b>Hopper</b>"),
        ("username", "grace"),
    ];
    let first = sign_in(&app, "discord", &typed).await;
    assert_eq!(first["firstSeen"], true);
    assert_eq!(first["user"]["name"], "Grace <b>Hopper</b>");
    assert_eq!(first["user"]["username"], "grace");
    let again = sign_in(&app, "discord", &typed).await;
    assert_eq!(again["firstSeen"], false);
    assert_eq!(again["user"]["userId"], first["user"]["userId"]);
    let elsewhere = sign_in(&app, "google", &typed).await;
    assert_ne!(elsewhere["user"]["userId"], first["user"]["userId"]);
    assert_eq!(app.count_rows("emulator_users").await, 2);
}
on_both_backends!(signing_in_again_returns_the_same_user_id_and_first_seen_false, with emulator_on);

async fn a_code_is_exchanged_only_once(app: TestApp) {
    let code = code_for(&app, "google", &[("account", "preset-1")]).await;
    assert_eq!(exchange(&app, &code).await.status(), 200);
    let reused = error_of(exchange(&app, &code).await, 400).await;
    assert_eq!(reused["errorCode"], "E011003");
    assert!(!reused["errorMessage"]
        .as_str()
        .expect("message")
        .contains("Failed exchanging"));
    let made_up = error_of(exchange(&app, "made-up").await, 400).await;
    assert_eq!(made_up["errorCode"], "E011003");
}
on_both_backends!(a_code_is_exchanged_only_once, with emulator_on);

/// The app puts its sign-in state in the redirect URL's query (docs/identity.md, "The sign-in's
/// state"): the browser must come back with that query as it was and the code or error added.
async fn the_redirect_urls_own_query_comes_back_with_the_code_added(app: TestApp) {
    let redirect = format!("{}?state=Zm9vYmFyLWJhei1xdXV4LTE", callback(&app));
    let back = submit_page_to(&app, "google", &redirect, &[("account", "preset-0")]).await;
    let code = back
        .strip_prefix(&format!("{redirect}&code="))
        .unwrap_or_else(|| panic!("{back} keeps the state and adds the code"));
    assert_eq!(exchange(&app, code).await.status(), 200);
    let failed = submit_page_to(
        &app,
        "github",
        &redirect,
        &[("outcome", "provider-error"), ("err", "access_denied")],
    )
    .await;
    assert_eq!(failed, format!("{redirect}&err=access_denied"));
}
on_both_backends!(the_redirect_urls_own_query_comes_back_with_the_code_added, with emulator_on);

async fn a_code_older_than_its_lifetime_is_refused(app: TestApp) {
    let code = code_for(&app, "google", &[("account", "preset-0")]).await;
    // The emulator's clock moved past the code's lifetime.
    app.config
        .clock
        .advance(EMULATOR_CODE_TTL + Duration::from_millis(1));
    let expired = error_of(exchange(&app, &code).await, 400).await;
    assert_eq!(expired["errorCode"], "E011003");
}
on_both_backends!(a_code_older_than_its_lifetime_is_refused, with emulator_on);

async fn no_open_redirect(app: TestApp) {
    for target in [
        "https://evil.example.com/auth/callback",
        "http://localhost:1/auth/callback",
        "javascript:alert(1)",
        "//evil.example.com/",
    ] {
        let refused = error_of(authorize(&app, "google", target).await, 400).await;
        assert_eq!(refused["errorCode"], "E011003", "{target}");
    }
    let lower_case = browser()
        .post(format!("{}/v1/auth/oauth/authorize", app.address))
        .query(&[
            ("provider", "google"),
            ("redirectUrl", "https://evil.example.com/"),
        ])
        .bearer_auth(LOCAL_EMULATOR_PROJECT_ID)
        .send()
        .await
        .expect("answers");
    error_of(lower_case, 400).await;
    let unknown = error_of(authorize(&app, "myspace", &callback(&app)).await, 400).await;
    assert!(unknown["errorMessage"]
        .as_str()
        .expect("message")
        .contains("Unknown OAuth provider"));
    let forged = browser()
        .get(format!(
            "{}/emulator/oauth/google?state=forged",
            app.address
        ))
        .send()
        .await
        .expect("page");
    assert_eq!(forged.status(), 400);
    assert!(forged.text().await.expect("html").contains("not valid"));
    // A state started for one provider does not open another provider's page.
    let page = provider_page_url(&app, "github").await;
    let other = browser()
        .get(page.replace("/github?", "/google?"))
        .send()
        .await
        .expect("page");
    assert_eq!(other.status(), 400);
}
on_both_backends!(
    redirects_go_only_to_allowed_origins_and_bad_links_get_a_400_page,
    no_open_redirect,
    emulator_on
);

/// The exchange of a code `provider` gave with the simulated `outcome`: a 400 with `error_code`;
/// its body.
async fn failed_exchange(app: &TestApp, provider: &str, outcome: &str, error_code: &str) -> Value {
    let code = code_for(
        app,
        provider,
        &[("account", "preset-0"), ("outcome", outcome)],
    )
    .await;
    let body = error_of(exchange(app, &code).await, 400).await;
    assert_eq!(body["errorCode"], error_code, "{provider} {outcome}");
    body
}

async fn each_simulated_failure_answers_its_exact_error(app: TestApp) {
    let body = failed_exchange(&app, "linkedin", "provider-not-enabled", "E061301").await;
    for field in ["errorDescription", "errorMessage"] {
        assert!(
            body[field]
                .as_str()
                .expect(field)
                .contains("Failed exchanging"),
            "{body}"
        );
    }
    let body = failed_exchange(&app, "facebook", "user-must-exist", "E062209").await;
    assert!(body["errorMessage"]
        .as_str()
        .expect("message")
        .contains("user must exist"));
    let location = submit_page(
        &app,
        "microsoft",
        &[("outcome", "provider-error"), ("err", "access_denied")],
    )
    .await;
    assert_eq!(location, format!("{}?err=access_denied", callback(&app)));
    assert_eq!(
        app.count_rows("emulator_users").await,
        0,
        "no one signed in"
    );
}
on_both_backends!(each_simulated_failure_answers_its_exact_error, with emulator_on);

async fn unknown_calls_answer_json_and_both_redirect_spellings_work(app: TestApp) {
    let response = app.post("/v1/auth/otp/signup/email").await;
    let body = error_of(response, 404).await;
    assert_eq!(body["errorCode"], "E000404");
    // `redirectUrl` is accepted like `redirectURL`.
    let response = browser()
        .post(format!("{}/v1/auth/oauth/authorize", app.address))
        .query(&[("provider", "google"), ("redirectUrl", &callback(&app))])
        .bearer_auth(LOCAL_EMULATOR_PROJECT_ID)
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status(), 200);
    // A typed e-mail is used even if the preset radio button stayed selected.
    let jwt = sign_in(
        &app,
        "google",
        &[("account", "preset-0"), ("email", "typed@example.com")],
    )
    .await;
    assert_eq!(jwt["user"]["email"], "typed@example.com");
    assert_eq!(jwt["user"]["name"], "typed");
}
on_both_backends!(unknown_calls_answer_json_and_both_redirect_spellings_work, with emulator_on);

/// Checks an emulator error: the status, JSON content type, the emulator's three fields.
async fn emulator_refusal(response: reqwest::Response, status: u16) -> Value {
    let url = response.url().clone();
    assert_eq!(response.status(), status, "{url}");
    assert!(
        header(&response, "content-type").starts_with("application/json"),
        "{url}: {:?}",
        response.headers()
    );
    error_of(response, status).await
}

async fn rejections_in_the_emulators_shape(app: TestApp) {
    // Before: 400/415/405/413 text/plain from axum (or the API's shape), which the SDK cannot read.
    let client = browser();
    let at = |path: &str| format!("{}{path}", app.address);
    emulator_refusal(
        client.get(at("/v2/keys/%ff")).send().await.expect("answer"),
        400,
    )
    .await;
    emulator_refusal(
        client
            .get(at("/emulator/oauth/%ff?state=x"))
            .send()
            .await
            .expect("answer"),
        400,
    )
    .await;
    let not_a_form = client
        .post(at("/emulator/oauth/google"))
        .header("content-type", "text/plain")
        .body("state=x")
        .send()
        .await
        .expect("answer");
    let body = emulator_refusal(not_a_form, 415).await;
    assert_eq!(body["errorCode"], "E011003");
    let wrong_method = client
        .delete(at("/v1/auth/refresh"))
        .send()
        .await
        .expect("answer");
    assert_eq!(wrong_method.headers()["allow"], "POST");
    emulator_refusal(wrong_method, 405).await;
    let big = json!({ "code": "x".repeat(mg_server::extract::BODY_LIMIT_BYTES) }).to_string();
    let declared = client
        .post(at("/v1/auth/oauth/exchange"))
        .bearer_auth(LOCAL_EMULATOR_PROJECT_ID)
        .header("content-type", "application/json")
        .body(big.clone())
        .send()
        .await
        .expect("answer");
    emulator_refusal(declared, 413).await;
    // Chunked: no Content-Length, so the limit is met while reading the body.
    let (status, body) = chunked_post(
        &app,
        "/v1/auth/oauth/exchange",
        LOCAL_EMULATOR_PROJECT_ID,
        big.as_bytes(),
    )
    .await;
    assert_eq!(status, 413, "{body}");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["errorCode"], "E011003", "{body}");
}
on_sqlite!(
    path_query_form_method_and_size_refusals_answer_in_the_emulators_shape,
    rejections_in_the_emulators_shape,
    emulator_on
);

//! The emulator's session calls, keys across restarts, CORS, rate limits, and its absence when an
//! external identity provider is configured.

use mg_server::config::LOCAL_EMULATOR_PROJECT_ID;
use serde_json::{json, Value};

use crate::emulator::{
    authorize, callback, emulator_and, emulator_on, error_of, sign_in, with_refresh,
};
use crate::helpers::{assert_cors_allows, header, spawn_sibling, TestApp};

async fn refresh_me_and_logout_work_with_the_project_and_refresh_token(app: TestApp) {
    let jwt = sign_in(&app, "github", &[("account", "preset-0")]).await;
    let refresh = jwt["refreshJwt"].as_str().expect("refreshJwt");
    let refreshed = with_refresh(&app, "/v1/auth/refresh", refresh).await;
    assert_eq!(refreshed.status(), 200);
    let refreshed: Value = refreshed.json().await.expect("JSON");
    assert_eq!(refreshed["firstSeen"], false);
    assert_eq!(refreshed["user"]["userId"], jwt["user"]["userId"]);
    let new_session = refreshed["sessionJwt"].as_str().expect("sessionJwt");
    assert_ne!(new_session, jwt["sessionJwt"].as_str().expect("old"));
    assert_eq!(app.current_user(new_session).await.status(), 200);
    let tried = with_refresh(&app, "/v1/auth/try-refresh", refresh).await;
    assert_eq!(tried.status(), 200);
    let me = with_refresh(&app, "/v1/auth/me", refresh).await;
    assert_eq!(me.status(), 200);
    let me: Value = me.json().await.expect("JSON");
    assert_eq!(me["userId"], jwt["user"]["userId"]);
    assert_eq!(me["email"], "ada.lovelace@example.com");
    // A refresh token is not a session token.
    assert_eq!(app.current_user(refresh).await.status(), 401);
    let out = with_refresh(&app, "/v1/auth/logout", refresh).await;
    assert_eq!(out.status(), 200);
    assert_eq!(out.json::<Value>().await.expect("JSON"), json!({}));
    let after = error_of(with_refresh(&app, "/v1/auth/refresh", refresh).await, 401).await;
    assert_eq!(after["errorCode"], "E061004");
    // The other spelling of the signed-out token's signature verifies too; it is signed out as well.
    let twin = crate::forged_tokens_more::high_s_twin(refresh);
    error_of(with_refresh(&app, "/v1/auth/refresh", &twin).await, 401).await;
    error_of(with_refresh(&app, "/v1/auth/me", refresh).await, 401).await;
    let bare = app
        .client
        .post(format!("{}/v1/auth/try-refresh", app.address))
        .bearer_auth(LOCAL_EMULATOR_PROJECT_ID)
        .send()
        .await
        .expect("answers");
    assert_eq!(bare.status(), 200);
    assert_eq!(bare.json::<Value>().await.expect("JSON"), json!({}));
    let forged = with_refresh(&app, "/v1/auth/refresh", "not.a.token").await;
    error_of(forged, 401).await;
    let second = sign_in(&app, "github", &[("account", "preset-0")]).await;
    let second_refresh = second["refreshJwt"].as_str().expect("refreshJwt");
    let all = with_refresh(&app, "/v1/auth/logoutall", second_refresh).await;
    assert_eq!(all.json::<Value>().await.expect("JSON"), json!({}));
    error_of(
        with_refresh(&app, "/v1/auth/refresh", second_refresh).await,
        401,
    )
    .await;
}
on_both_backends!(refresh_me_and_logout_work_with_the_project_and_refresh_token, with emulator_on);

async fn every_emulator_route_answers_404_when_an_external_provider_is_configured(app: TestApp) {
    for (method, path) in [
        ("GET", format!("/v2/keys/{LOCAL_EMULATOR_PROJECT_ID}")),
        (
            "POST",
            "/v1/auth/oauth/authorize?provider=google".to_owned(),
        ),
        ("POST", "/v1/auth/oauth/exchange".to_owned()),
        ("POST", "/v1/auth/refresh".to_owned()),
        ("GET", "/v1/auth/me".to_owned()),
        ("GET", "/emulator/oauth/google?state=x".to_owned()),
    ] {
        let response = if method == "GET" {
            app.get(&path).await
        } else {
            app.post(&path).await
        };
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().await.expect("JSON");
        assert_eq!(body["errorCode"], "E000404", "{path}");
    }
}
on_both_backends!(every_emulator_route_answers_404_when_an_external_provider_is_configured);

async fn the_signing_key_survives_a_restart(app: TestApp) {
    let jwt = sign_in(&app, "google", &[("account", "preset-0")]).await;
    let session = jwt["sessionJwt"].as_str().expect("sessionJwt");
    let kid = jsonwebtoken::decode_header(session).expect("header").kid;
    // The same configuration (database, data directory, emulator mode): the same server restarted.
    let address = spawn_sibling(&app, |_| {}).await;
    let keys: Value = reqwest::get(format!("{address}/v2/keys/{LOCAL_EMULATOR_PROJECT_ID}"))
        .await
        .expect("JWKS")
        .json()
        .await
        .expect("JSON");
    assert_eq!(keys["keys"][0]["kid"].as_str(), kid.as_deref());
    // A session from before the restart is accepted.
    crate::helpers::current_user_at(&app.client, &address, session).await;
}
on_both_backends!(the_signing_key_survives_a_restart, with emulator_on);

async fn the_sdk_may_call_the_emulator_from_configured_origins_only(app: TestApp) {
    let preflight = |origin, headers| app.preflight("/v1/auth/refresh", origin, headers);
    let allowed = preflight(
        "http://localhost:5173",
        "authorization,content-type,x-descope-sdk-name,x-descope-sdk-version",
    )
    .await;
    assert_cors_allows(&allowed, "http://localhost:5173");
    assert!(header(&allowed, "access-control-allow-headers").contains("x-descope-sdk-name"));
    let odd = preflight("http://localhost:5173", "authorization,x-evil").await;
    assert!(!odd.headers().contains_key("access-control-allow-headers"));
    let other = preflight("https://evil.example.com", "authorization").await;
    assert!(!other.headers().contains_key("access-control-allow-origin"));
    let keys = app
        .client
        .get(format!(
            "{}/v2/keys/{LOCAL_EMULATOR_PROJECT_ID}",
            app.address
        ))
        .header("origin", "http://localhost:5173")
        .send()
        .await
        .expect("answer");
    assert_eq!(
        keys.headers()["access-control-allow-origin"],
        "http://localhost:5173"
    );
    // The configured origin is also a valid redirect target.
    let start = authorize(&app, "google", "http://localhost:5173/auth/callback").await;
    assert_eq!(start.status(), 200);
}
on_both_backends!(
    the_sdk_may_call_the_emulator_from_configured_origins_only,
    with emulator_and(|config| config.allowed_origins = vec!["http://localhost:5173".into()])
);

async fn starting_sign_ins_shares_the_sign_in_rate_limit(app: TestApp) {
    let mut answers = Vec::new();
    for _ in 0..3 {
        answers.push(authorize(&app, "google", &callback(&app)).await);
    }
    let refused = answers
        .into_iter()
        .find(|a| a.status() == reqwest::StatusCode::TOO_MANY_REQUESTS)
        .expect("a start over the limit is refused");
    assert!(refused.headers().contains_key("retry-after"));
    // In the provider's error shape, which the SDK parses.
    let refused = error_of(refused, 429).await;
    assert_eq!(refused["errorCode"], "E130429", "{refused}");
    // Keys are never limited: every page load of the app may need them.
    for _ in 0..3 {
        let keys = app
            .get(&format!("/v2/keys/{LOCAL_EMULATOR_PROJECT_ID}"))
            .await;
        assert_eq!(keys.status(), 200);
    }
}
on_both_backends!(
    starting_sign_ins_shares_the_sign_in_rate_limit,
    with emulator_and(|config| config.rate_limit_per_minute = 4)
);

/// A client whose connections come from `ip` (any 127.0.0.0/8 address works on loopback).
fn client_from(ip: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(ip))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

async fn authorize_from(app: &TestApp, client: &reqwest::Client) -> reqwest::Response {
    client
        .post(format!("{}/v1/auth/oauth/authorize", app.address))
        .query(&[("provider", "github"), ("redirectURL", &callback(app))])
        .bearer_auth(LOCAL_EMULATOR_PROJECT_ID)
        .json(&json!({}))
        .send()
        .await
        .expect("authorize answers")
}

async fn flood_of_authorize(app: TestApp) {
    // Before: a client past its bound pushed out its own oldest attempts and went on (200), so a
    // few hundred addresses doing so filled the global store, which then refused everyone (503)
    // for 15 minutes. Now a client at its bound is refused (429) and everyone else still starts.
    let person = client_from([127, 0, 0, 2]);
    let flooder = client_from([127, 0, 0, 3]);
    let started = authorize_from(&app, &person).await;
    assert_eq!(started.status(), 200);
    let page_url = started.json::<Value>().await.expect("JSON")["url"]
        .as_str()
        .expect("url")
        .to_owned();
    let first_of_flood = authorize_from(&app, &flooder)
        .await
        .json::<Value>()
        .await
        .expect("JSON")["url"]
        .as_str()
        .expect("url")
        .to_owned();
    for _ in 1..mg_server::emulator::grants::PER_CLIENT {
        assert_eq!(authorize_from(&app, &flooder).await.status(), 200);
    }
    for _ in 0..10 {
        let refused = authorize_from(&app, &flooder).await;
        assert_eq!(refused.headers()["content-type"], "application/json");
        let refused = error_of(refused, 429).await;
        assert_eq!(refused["errorCode"], "E130429", "{refused}");
        assert_eq!(refused["errorDescription"], "Too many requests");
    }
    assert_eq!(
        flooder
            .get(&first_of_flood)
            .send()
            .await
            .expect("page")
            .status(),
        200,
        "what the flooder holds is kept until it ends or expires"
    );
    let newcomer = authorize_from(&app, &client_from([127, 0, 0, 4])).await;
    assert_eq!(newcomer.status(), 200, "another client still starts");
    let page = person.get(&page_url).send().await.expect("page");
    assert_eq!(page.status(), 200, "the person's sign-in is still there");
    let state = page_url.split("state=").nth(1).expect("state");
    let submitted = person
        .post(page_url.split('?').next().expect("path"))
        .form(&[("state", state), ("account", "preset-0")])
        .send()
        .await
        .expect("form post");
    assert_eq!(submitted.status(), 303);
    let location = header(&submitted, "location");
    let code = location.split("code=").nth(1).expect("a code");
    let jwt = crate::emulator::exchange(&app, code).await;
    assert_eq!(jwt.status(), 200, "the sign-in completes");
}
on_both_backends!(
    a_client_over_its_sign_in_bound_gets_429_while_others_still_sign_in,
    flood_of_authorize,
    emulator_on
);

async fn junk_logouts(app: TestApp) {
    let jwt = sign_in(&app, "github", &[("account", "preset-0")]).await;
    let refresh = jwt["refreshJwt"].as_str().expect("refreshJwt");
    assert_eq!(
        with_refresh(&app, "/v1/auth/logout", refresh)
            .await
            .status(),
        200
    );
    for n in 0..300 {
        let junk = with_refresh(&app, "/v1/auth/logout", &format!("junk.{n}.x")).await;
        assert_eq!(junk.json::<Value>().await.expect("JSON"), json!({}));
    }
    error_of(with_refresh(&app, "/v1/auth/refresh", refresh).await, 401).await;
}
on_both_backends!(
    junk_logouts_answer_as_before_and_the_signed_out_token_stays_out,
    junk_logouts,
    emulator_on
);

//! The emulator's session calls, keys across restarts, CORS, rate limits, and its absence when an
//! external identity provider is configured.

use mg_server::config::{Config, LOCAL_EMULATOR_PROJECT_ID};
use serde_json::{json, Value};

use crate::emulator::{authorize, callback, emulator_on, error_of, sign_in, with_refresh};
use crate::helpers::TestApp;

async fn session_calls(app: TestApp) {
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
on_both_backends!(
    refresh_me_and_logout_work_with_the_project_and_refresh_token,
    session_calls,
    emulator_on
);

async fn off_when_external(app: TestApp) {
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
on_both_backends!(
    every_emulator_route_answers_404_when_an_external_provider_is_configured,
    off_when_external
);

async fn keys_survive_a_restart(app: TestApp) {
    let jwt = sign_in(&app, "google", &[("account", "preset-0")]).await;
    let session = jwt["sessionJwt"].as_str().expect("sessionJwt");
    let kid = jsonwebtoken::decode_header(session).expect("header").kid;
    let mut config = Config::from_lookup(|_| None).expect("defaults");
    config.port = 0;
    config.data_dir = app.data_dir.path().to_path_buf();
    config.database_url = app.database_url.clone();
    config.database_max_connections = Some(4);
    config.static_dir = app.data_dir.path().join("dist");
    let restarted = mg_server::startup::Application::build(config)
        .await
        .expect("restarts");
    let address = format!("http://127.0.0.1:{}", restarted.port());
    tokio::spawn(restarted.run_until_stopped());
    let keys: Value = reqwest::get(format!("{address}/v2/keys/{LOCAL_EMULATOR_PROJECT_ID}"))
        .await
        .expect("JWKS")
        .json()
        .await
        .expect("JSON");
    assert_eq!(keys["keys"][0]["kid"].as_str(), kid.as_deref());
    let accepted = app
        .client
        .post(format!("{address}/api/auth/current-user"))
        .bearer_auth(session)
        .json(&json!({}))
        .send()
        .await
        .expect("answers");
    assert_eq!(accepted.status(), 200, "a session from before the restart");
}
on_both_backends!(
    the_signing_key_survives_a_restart,
    keys_survive_a_restart,
    emulator_on
);

async fn cors_for_the_sdk(app: TestApp) {
    let preflight = |origin: &'static str, headers: &'static str| {
        app.client
            .request(
                reqwest::Method::OPTIONS,
                format!("{}/v1/auth/refresh", app.address),
            )
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", headers)
            .send()
    };
    let allowed = preflight(
        "http://localhost:5173",
        "authorization,content-type,x-descope-sdk-name,x-descope-sdk-version",
    )
    .await
    .expect("answer");
    assert_eq!(
        allowed.headers()["access-control-allow-origin"],
        "http://localhost:5173"
    );
    assert_eq!(
        allowed.headers()["access-control-allow-credentials"],
        "true"
    );
    assert!(allowed.headers()["access-control-allow-headers"]
        .to_str()
        .expect("text")
        .contains("x-descope-sdk-name"));
    let odd = preflight("http://localhost:5173", "authorization,x-evil")
        .await
        .expect("answer");
    assert!(!odd.headers().contains_key("access-control-allow-headers"));
    let other = preflight("https://evil.example.com", "authorization")
        .await
        .expect("answer");
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
    cors_for_the_sdk,
    |config: &mut Config| {
        emulator_on(config);
        config.allowed_origins = vec!["http://localhost:5173".into()];
    }
);

async fn sign_in_starts_are_rate_limited(app: TestApp) {
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(authorize(&app, "google", &callback(&app)).await.status());
    }
    assert!(
        statuses.contains(&reqwest::StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
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
    sign_in_starts_are_rate_limited,
    |config: &mut Config| {
        emulator_on(config);
        config.rate_limit_per_minute = 4;
    }
);

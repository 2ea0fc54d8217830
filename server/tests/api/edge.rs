//! The server as it meets the internet: metric labels clients cannot grow, forwarding headers
//! believed only from `TRUSTED_PROXIES`, rate limits per derived client, and `/metrics` for loopback
//! or a token holder only. Connections: `connections.rs`.

use crate::{
    emulator::{authorize_with, callback, emulator_and, emulator_on, with_refresh},
    helpers::{spawn_app_with, TestApp, TestBackend},
};
use mg_server::{config::Config, forwarded::TrustedProxies};
use serde_json::Value;

pub async fn sqlite_app(adjust: impl FnOnce(&mut Config)) -> TestApp {
    spawn_app_with(TestBackend::Sqlite, adjust)
        .await
        .expect("SQLite always runs")
}

fn trust_loopback(config: &mut Config) {
    config.network.trusted_proxies = TrustedProxies::parse("127.0.0.1/32").expect("valid");
}

async fn metrics_text(app: &TestApp) -> String {
    let response = app.get("/metrics").await;
    assert_eq!(response.status(), 200);
    response.text().await.expect("text")
}

#[tokio::test]
async fn thousands_of_invented_methods_do_not_grow_the_metrics() {
    let app = sqlite_app(|_| {}).await;
    let send = |n: usize| {
        let method = reqwest::Method::from_bytes(format!("X{n:X}").as_bytes()).expect("token");
        let path = if n % 2 == 0 {
            "/health".to_owned()
        } else {
            format!("/junk/{n}")
        };
        app.client
            .request(method, format!("{}{path}", app.address))
            .send()
    };
    for n in 0..20 {
        send(n).await.expect("answer");
    }
    // The first scrape adds `/metrics` itself to what the second one shows.
    metrics_text(&app).await;
    let before = metrics_text(&app).await.len();
    for n in 20..3_000 {
        let response = send(n).await.expect("answer");
        assert!(response.status().is_client_error(), "{}", response.status());
    }
    let text = metrics_text(&app).await;
    assert!(
        text.len() <= before + 200,
        "/metrics grew from {before} to {} bytes",
        text.len()
    );
    assert!(
        text.contains(r#"mg_http_requests_total{method="other",route="/health",status="405"}"#),
        "{text}"
    );
    assert!(!text.contains("X7D0"), "an invented method became a label");
}

async fn post_wisdom_as(app: &TestApp, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = app
        .client
        .post(format!("{}/api/wisdom", app.address))
        .header("content-type", "application/json")
        .body("{}");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.expect("answer")
}

#[tokio::test]
async fn forwarding_headers_from_a_peer_that_is_not_a_trusted_proxy_are_ignored() {
    // No TRUSTED_PROXIES (the default): the test client is just a client.
    // 12 per minute: a burst of 3 (authorize below takes one).
    let app = sqlite_app(emulator_and(|config| config.rate_limit_per_minute = 12)).await;
    // Claiming TLS does not turn on HSTS.
    let tls = [("x-forwarded-proto", "https"), ("forwarded", "proto=https")];
    let response = app.get_with("/health", &tls).await;
    assert!(!response.headers().contains_key("strict-transport-security"));
    // The host of the emulator's provider page link is not the client's to choose.
    let forged = [
        ("host", "evil.example"),
        ("x-forwarded-host", "evil.example"),
        ("x-forwarded-proto", "https"),
    ];
    let response = authorize_with(&app, "github", &callback(&app), &forged).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON");
    let url = body["url"].as_str().expect("url");
    let port = app.address.rsplit(':').next().expect("port");
    assert!(
        url.starts_with(&format!(
            "http://localhost:{port}/emulator/oauth/github?state="
        )),
        "{url}"
    );
    // A new address in every request does not make a new bucket: the rest of the burst, then 429.
    let mut statuses = Vec::new();
    for n in 0..4 {
        let spoofed = format!("198.51.100.{n}");
        let forwarded = format!("for={spoofed}");
        let response = post_wisdom_as(
            &app,
            &[
                ("x-forwarded-for", spoofed.as_str()),
                ("forwarded", forwarded.as_str()),
            ],
        )
        .await;
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses, [200, 200, 429, 429]);
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_client_is_limited_and_its_tls_turns_on_hsts() {
    let app = sqlite_app(|config| {
        config.rate_limit_per_minute = 8;
        trust_loopback(config);
        config.allowed_origins = vec!["https://mg.example.com".into()];
        emulator_on(config);
        // Behind a proxy the emulator runs only when asked for.
        config.identity_emulator_public = true;
    })
    .await;
    let tls = [
        ("x-forwarded-for", "203.0.113.1"),
        ("x-forwarded-proto", "https"),
    ];
    let response = app.get_with("/health", &tls).await;
    assert!(response.headers().contains_key("strict-transport-security"));
    // Two clients behind the proxy: two buckets. A client's own X-Forwarded-For entry in front of
    // the one the proxy appended does not change whose bucket it is.
    let alice = [("x-forwarded-for", "203.0.113.1")];
    let alice_spoofing = [("x-forwarded-for", "198.51.100.77, 203.0.113.1")];
    let bob = [("x-forwarded-for", "203.0.113.2")];
    assert_eq!(post_wisdom_as(&app, &alice).await.status(), 200);
    assert_eq!(post_wisdom_as(&app, &alice_spoofing).await.status(), 200);
    let refused = post_wisdom_as(&app, &alice).await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    assert_eq!(post_wisdom_as(&app, &alice_spoofing).await.status(), 429);
    assert_eq!(post_wisdom_as(&app, &bob).await.status(), 200);
    // IPv6 clients count per /64.
    let six_a = [("x-forwarded-for", "2001:db8:5:6::1")];
    let six_b = [("x-forwarded-for", "2001:db8:5:6::9999")];
    assert_eq!(post_wisdom_as(&app, &six_a).await.status(), 200);
    assert_eq!(post_wisdom_as(&app, &six_b).await.status(), 200);
    assert_eq!(post_wisdom_as(&app, &six_a).await.status(), 429);

    // The emulator's link uses the scheme and host the proxy forwarded, when it is an own origin.
    let forwarded = [
        ("x-forwarded-for", "203.0.113.50"),
        ("x-forwarded-host", "mg.example.com"),
        ("x-forwarded-proto", "https"),
    ];
    let own_origin = "https://mg.example.com/auth/callback";
    let response = authorize_with(&app, "github", own_origin, &forwarded).await;
    let body: Value = response.json().await.expect("JSON");
    assert!(
        body["url"]
            .as_str()
            .expect("url")
            .starts_with("https://mg.example.com/emulator/oauth/github?state="),
        "{body}"
    );
}

#[tokio::test]
async fn metrics_answer_loopback_peers_and_the_token_holder_only() {
    let app = sqlite_app(|config| {
        trust_loopback(config);
        config.network.metrics_token = Some("scrape-me".into());
    })
    .await;
    // Straight from this machine.
    assert_eq!(app.get("/metrics").await.status(), 200);
    // Through a proxy on this machine, for someone outside: refused, unless they hold the token.
    let forwarded = |token: Option<&str>| {
        let mut request = app
            .client
            .get(format!("{}/metrics", app.address))
            .header("x-forwarded-for", "203.0.113.9");
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    let refused = forwarded(None).await.expect("answer");
    assert_eq!(refused.status(), 404);
    let body: Value = refused.json().await.expect("JSON");
    assert_eq!(body["code"], "not_found");
    assert_eq!(
        forwarded(Some("wrong")).await.expect("answer").status(),
        404
    );
    assert_eq!(
        forwarded(Some("scrape-me")).await.expect("answer").status(),
        200
    );
    // A byte that is not text in X-Forwarded-For: before, the whole header was unreadable and the
    // client counted as the proxy itself, loopback, so it read the metrics.
    let junk = app
        .client
        .get(format!("{}/metrics", app.address))
        .header(
            "x-forwarded-for",
            reqwest::header::HeaderValue::from_bytes(b"\xff").expect("obs-text"),
        )
        .send()
        .await
        .expect("answer");
    assert_eq!(junk.status(), 404);
}

#[tokio::test]
async fn refresh_and_try_refresh_are_rate_limited_like_the_other_sign_in_calls() {
    let app = sqlite_app(emulator_and(|config| config.rate_limit_per_minute = 8)).await;
    let mut statuses = Vec::new();
    for path in [
        "/v1/auth/refresh",
        "/v1/auth/try-refresh",
        "/v1/auth/refresh",
    ] {
        let response = with_refresh(&app, path, "not-a-refresh-token").await;
        statuses.push(response.status().as_u16());
    }
    // A burst of 2, then 429 with Retry-After.
    assert_eq!(statuses, [401, 401, 429]);
    let response = with_refresh(&app, "/v1/auth/try-refresh", "x").await;
    assert_eq!(response.status(), 429);
    assert!(response.headers().contains_key("retry-after"));
}

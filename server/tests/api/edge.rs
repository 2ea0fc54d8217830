//! The server as it meets the internet: metric labels clients cannot grow, connections that are
//! timed out and capped (raw sockets), forwarding headers believed only from `TRUSTED_PROXIES`,
//! and `/metrics` for loopback or a token holder only.

use std::time::{Duration, Instant};

use mg_server::{config::Config, forwarded::TrustedProxies};
use serde_json::Value;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::{
    emulator::{callback, emulator_on, with_refresh},
    helpers::{spawn_app_with, TestApp, TestBackend},
};

async fn sqlite_app(adjust: impl FnOnce(&mut Config)) -> TestApp {
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

/// Reads until the server closes the connection; `None` if it is still open after `limit`.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<(Duration, Vec<u8>)> {
    let started = Instant::now();
    let mut received = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let remaining = limit.checked_sub(started.elapsed())?;
        match tokio::time::timeout(remaining, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some((started.elapsed(), received)),
            Ok(Ok(n)) => received.extend_from_slice(&buf[..n]),
        }
    }
}

fn authority(app: &TestApp) -> String {
    app.address.trim_start_matches("http://").to_owned()
}

#[tokio::test]
async fn a_half_sent_header_block_is_closed_within_the_header_timeout() {
    let app = sqlite_app(|config| {
        config.network.header_read_timeout = Duration::from_secs(1);
    })
    .await;
    let mut stream = TcpStream::connect(authority(&app)).await.expect("connect");
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .expect("write");
    let (after, _) = closed_within(&mut stream, Duration::from_secs(5))
        .await
        .expect("the server closes a connection whose headers never end");
    assert!(
        after >= Duration::from_millis(900),
        "closed after {after:?}"
    );
    // Whole requests are still served.
    assert_eq!(app.get("/health").await.status(), 200);
}

#[tokio::test]
async fn idle_connections_are_closed_after_the_idle_timeout() {
    let app = sqlite_app(|config| {
        config.network.idle_timeout = Duration::from_secs(1);
    })
    .await;
    // A connection that never sends a byte.
    let mut silent = TcpStream::connect(authority(&app)).await.expect("connect");
    let (after, _) = closed_within(&mut silent, Duration::from_secs(5))
        .await
        .expect("a silent connection is closed");
    assert!(
        after >= Duration::from_millis(900),
        "closed after {after:?}"
    );
    // A keep-alive connection after one answered request.
    let mut kept = TcpStream::connect(authority(&app)).await.expect("connect");
    kept.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let (_, answer) = closed_within(&mut kept, Duration::from_secs(5))
        .await
        .expect("the idle keep-alive connection is closed");
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
}

#[tokio::test]
async fn a_request_head_larger_than_the_connection_buffer_is_refused_with_431() {
    let app = sqlite_app(|_| {}).await;
    let mut stream = TcpStream::connect(authority(&app)).await.expect("connect");
    let head = format!(
        "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(100 * 1024)
    );
    // The server may stop reading once it has seen enough; its answer is what counts.
    let _ = stream.write_all(head.as_bytes()).await;
    let (_, answer) = closed_within(&mut stream, Duration::from_secs(5))
        .await
        .expect("answered and closed");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
}

#[tokio::test]
async fn health_keeps_answering_while_500_idle_connections_are_held() {
    let app = sqlite_app(|_| {}).await;
    let mut held = Vec::new();
    for i in 0..500 {
        let mut stream = TcpStream::connect(authority(&app)).await.expect("connect");
        if i % 2 == 0 {
            // Half of them half-open: a header block that never ends.
            stream
                .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
                .await
                .expect("write");
        }
        held.push(stream);
    }
    let client = reqwest::Client::new();
    for _ in 0..20 {
        let started = Instant::now();
        let response = client
            .get(format!("{}/health", app.address))
            .timeout(Duration::from_secs(2))
            .send()
            .await
            .expect("/health answers beside 500 idle connections");
        assert_eq!(response.status(), 200);
        assert!(started.elapsed() < Duration::from_secs(1));
    }
    drop(held);
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_until_one_closes() {
    let app = sqlite_app(|config| config.network.max_connections = 3).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(authority(&app)).await.expect("connect");
        // Served (so it holds a slot), then kept open.
        stream
            .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("write");
        let mut buf = [0u8; 512];
        let n = tokio::time::timeout(Duration::from_secs(2), stream.read(&mut buf))
            .await
            .expect("answered in time")
            .expect("read");
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
        held.push(stream);
    }
    let waiting = reqwest::Client::new()
        .get(format!("{}/health", app.address))
        .timeout(Duration::from_millis(700))
        .send()
        .await;
    assert!(waiting.is_err(), "a fourth connection was served at once");
    held.pop();
    let response = reqwest::Client::new()
        .get(format!("{}/health", app.address))
        .timeout(Duration::from_secs(2))
        .send()
        .await
        .expect("served once a slot is free");
    assert_eq!(response.status(), 200);
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
    let app = sqlite_app(|config| {
        config.rate_limit_per_minute = 12;
        emulator_on(config);
    })
    .await;
    // Claiming TLS does not turn on HSTS.
    let response = app
        .client
        .get(format!("{}/health", app.address))
        .header("x-forwarded-proto", "https")
        .header("forwarded", "proto=https")
        .send()
        .await
        .expect("answer");
    assert!(!response.headers().contains_key("strict-transport-security"));
    // The host of the emulator's provider page link is not the client's to choose.
    let response = app
        .client
        .post(format!("{}/v1/auth/oauth/authorize", app.address))
        .query(&[("provider", "github"), ("redirectURL", &callback(&app))])
        .bearer_auth(mg_server::config::LOCAL_EMULATOR_PROJECT_ID)
        .header("host", "evil.example")
        .header("x-forwarded-host", "evil.example")
        .header("x-forwarded-proto", "https")
        .json(&serde_json::json!({}))
        .send()
        .await
        .expect("answer");
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
    })
    .await;
    let response = app
        .client
        .get(format!("{}/health", app.address))
        .header("x-forwarded-for", "203.0.113.1")
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .expect("answer");
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
    let response = app
        .client
        .post(format!("{}/v1/auth/oauth/authorize", app.address))
        .query(&[
            ("provider", "github"),
            ("redirectURL", "https://mg.example.com/auth/callback"),
        ])
        .bearer_auth(mg_server::config::LOCAL_EMULATOR_PROJECT_ID)
        .header("x-forwarded-for", "203.0.113.50")
        .header("x-forwarded-host", "mg.example.com")
        .header("x-forwarded-proto", "https")
        .json(&serde_json::json!({}))
        .send()
        .await
        .expect("answer");
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
}

#[tokio::test]
async fn refresh_and_try_refresh_are_rate_limited_like_the_other_sign_in_calls() {
    let app = sqlite_app(|config| {
        config.rate_limit_per_minute = 8;
        emulator_on(config);
    })
    .await;
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

#[tokio::test]
async fn sigterm_stops_the_server_promptly_even_with_idle_and_half_open_connections() {
    let app = sqlite_app(|_| {}).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_mg-server"))
        .env("HOST", "127.0.0.1")
        .env("PORT", port.to_string())
        .env("DATA_DIR", app.data_dir.path())
        .env("DATABASE_URL", &app.database_url)
        .env("STATIC_DIR", app.data_dir.path().join("dist"))
        .env("IDENTITY_PROJECT_ID", &app.identity.project_id)
        .env("IDENTITY_BASE_URL", &app.identity.base_url)
        .env("HEADER_READ_TIMEOUT_SECS", "2")
        .env("RUST_LOG", "error")
        .spawn()
        .expect("start mg-server");
    let base = format!("http://127.0.0.1:{port}");
    let mut ready = false;
    for _ in 0..200 {
        if app
            .client
            .get(format!("{base}/health"))
            .send()
            .await
            .is_ok()
        {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(ready, "mg-server started");
    let _silent = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let mut half = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    half.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let status = std::process::Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(status.success());
    let started = Instant::now();
    loop {
        if let Some(exit) = server.try_wait().expect("wait") {
            assert!(exit.success(), "{exit:?}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "still running 5 s after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(TcpStream::connect(("127.0.0.1", port)).await.is_err());
}

//! Security headers, CSP with the hashed theme script, rate limits, CORS, request ids, compression.

use base64::{engine::general_purpose::STANDARD, Engine};
use serde_json::Value;

use crate::helpers::{assert_cors_allows, header, TestApp, THEME_SCRIPT};

async fn every_response_carries_the_security_headers_and_a_csp_with_the_theme_script_hash(
    app: TestApp,
) {
    let digest = ring::digest::digest(&ring::digest::SHA256, THEME_SCRIPT.as_bytes());
    let theme_hash = format!("'sha256-{}'", STANDARD.encode(digest));
    for path in ["/", "/health", "/api/nope"] {
        let response = app.get(path).await;
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().expect("ascii");
        assert!(csp.contains(&theme_hash), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}");
        let script_src = csp
            .split(';')
            .find(|d| d.trim().starts_with("script-src"))
            .expect("script-src");
        assert!(!script_src.contains("unsafe-inline"), "{path}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(
            headers["referrer-policy"],
            "strict-origin-when-cross-origin"
        );
        assert!(headers.contains_key("permissions-policy"), "{path}");
        assert!(headers.contains_key("x-request-id"), "{path}");
        assert!(
            !headers.contains_key("strict-transport-security"),
            "{path}: plain HTTP"
        );
    }
}
on_sqlite!(every_response_carries_the_security_headers_and_a_csp_with_the_theme_script_hash);

async fn rate_limited_after_a_burst(app: TestApp) {
    // 8 per minute: a burst of 2, then 429.
    for _ in 0..2 {
        assert_eq!(app.post("/api/wisdom").await.status(), 200);
    }
    let response = app.post("/api/wisdom").await;
    assert_eq!(response.status(), 429);
    let retry_after: u64 = header(&response, "retry-after").parse().expect("seconds");
    assert!((1..=8).contains(&retry_after), "{retry_after}");
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["code"], "rate_limited");
    // Health is not rate-limited.
    assert_eq!(app.get("/health").await.status(), 200);
}
on_both_backends!(
    wisdom_and_sign_in_routes_answer_429_with_retry_after_past_the_rate_limit,
    rate_limited_after_a_burst,
    |config: &mut mg_server::config::Config| config.rate_limit_per_minute = 8
);

async fn cors_only_for_configured_origins(app: TestApp) {
    let ask = |origin| {
        app.preflight(
            "/api/auth/current-user",
            origin,
            "authorization,content-type",
        )
    };
    assert_cors_allows(
        &ask("https://app.example.com").await,
        "https://app.example.com",
    );
    let other = ask("https://evil.example.com").await;
    assert!(!other.headers().contains_key("access-control-allow-origin"));
}
on_sqlite!(
    cross_origin_calls_are_allowed_only_from_configured_origins,
    cors_only_for_configured_origins,
    |config: &mut mg_server::config::Config| {
        config.allowed_origins = vec!["https://app.example.com".into()]
    }
);

async fn text_assets_are_gzip_compressed_for_clients_that_accept_it(app: TestApp) {
    let big_text = "wisdom ".repeat(2000);
    std::fs::write(app.data_dir.path().join("dist/assets/big-1.js"), &big_text).expect("write");
    let response = app
        .client
        .get(format!("{}/assets/big-1.js", app.address))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("answer");
    assert_eq!(response.headers()["content-encoding"], "gzip");
    let compressed = response.bytes().await.expect("body");
    assert!(compressed.len() < big_text.len() / 10);
}
on_sqlite!(text_assets_are_gzip_compressed_for_clients_that_accept_it);

/// Exactly one `Vary` value of `response` names `accept-encoding`.
fn assert_varies_once_on_accept_encoding(response: &reqwest::Response) {
    let varies = response
        .headers()
        .get_all("vary")
        .iter()
        .filter(|vary| vary.to_str().expect("ascii").contains("accept-encoding"))
        .count();
    assert_eq!(varies, 1, "{:?}", response.headers());
}

/// The build's own compressed copies (app/vite/precompress.ts) are sent as they are: Brotli when the
/// browser takes it, else gzip, else the file; the type and caching are the file's.
async fn precompressed_brotli_and_gzip_copies_are_sent_untouched(app: TestApp) {
    let assets = app.data_dir.path().join("dist/assets");
    let text = "export const wisdom = 'simplicity';\n".repeat(200);
    std::fs::write(assets.join("page-2.js"), &text).expect("write");
    // Not real compressed data: the test checks the file is sent untouched, not decoded.
    std::fs::write(assets.join("page-2.js.br"), b"brotli copy").expect("write br");
    std::fs::write(assets.join("page-2.js.gz"), b"gzip copy").expect("write gz");
    let fetch = |accept: &'static str| {
        app.client
            .get(format!("{}/assets/page-2.js", app.address))
            .header("accept-encoding", accept)
            .send()
    };

    let response = fetch("gzip, deflate, br, zstd").await.expect("answer");
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-encoding"], "br");
    assert_eq!(response.headers()["content-type"], "text/javascript");
    assert!(header(&response, "cache-control").contains("immutable"));
    assert_varies_once_on_accept_encoding(&response);
    assert_eq!(&response.bytes().await.expect("body")[..], b"brotli copy");

    let response = fetch("gzip").await.expect("answer");
    assert_eq!(response.headers()["content-encoding"], "gzip");
    assert_varies_once_on_accept_encoding(&response);
    assert_eq!(&response.bytes().await.expect("body")[..], b"gzip copy");

    let response = fetch("identity").await.expect("answer");
    assert!(response.headers().get("content-encoding").is_none());
    assert_eq!(response.text().await.expect("body"), text);
}
on_sqlite!(precompressed_brotli_and_gzip_copies_are_sent_untouched);

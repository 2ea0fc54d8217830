//! One request through the server's whole tower stack, in process (no sockets, no wrk noise):
//! `GET /health` through `app()` against a bare axum router, and `POST /api/auth/current-user`
//! (session-token check + SQLite read). The ratio of the first two is the middleware's cost,
//! which `benches/load.sh` measures over real connections.

use std::{
    net::SocketAddr,
    sync::Arc,
    time::{SystemTime, UNIX_EPOCH},
};

use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{header, Request},
    routing::get,
    Json, Router,
};
use criterion::{criterion_group, criterion_main, Criterion};
use mg_server::{
    config::Config,
    db::Database,
    identity::{
        keys::{jwks, CurveAlgorithm, SigningKey},
        verify::SessionVerifier,
    },
    startup::{app, AppState, HttpService},
};
use serde_json::json;
use tower::ServiceExt;

const PROJECT: &str = "Pbench";

fn client_address() -> ConnectInfo<SocketAddr> {
    ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000)))
}

fn get_health() -> Request<Body> {
    let mut request = Request::get("/health")
        .body(Body::empty())
        .expect("request");
    request.extensions_mut().insert(client_address());
    request
}

fn post_current_user(token: &str) -> Request<Body> {
    let mut request = Request::post("/api/auth/current-user")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::from("{}"))
        .expect("request");
    request.extensions_mut().insert(client_address());
    request
}

/// The full application on a fresh SQLite database, trusting one generated key; and a token it signed.
async fn full_app(dir: &std::path::Path) -> (HttpService, String) {
    let key = SigningKey::generate("bench-key", CurveAlgorithm::Es256).expect("key");
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let token = key
        .sign(&json!({
            "sub": "bench-user", "iss": PROJECT, "iat": now, "exp": now + 3600,
            "drn": "DS", "amr": ["oauth"],
        }))
        .expect("token");
    let static_dir = dir.join("dist");
    std::fs::create_dir_all(&static_dir).expect("dist");
    std::fs::write(
        static_dir.join("index.html"),
        "<!doctype html><title>bench</title>",
    )
    .expect("index");
    let mut config = Config::from_lookup(|name| match name {
        "DATA_DIR" => Some(dir.display().to_string()),
        "STATIC_DIR" => Some(static_dir.display().to_string()),
        "IDENTITY_PROJECT_ID" => Some(PROJECT.into()),
        "IDENTITY_BASE_URL" => Some("http://127.0.0.1:9".into()),
        "RATE_LIMIT_PER_MINUTE" => Some("100000000".into()),
        _ => None,
    })
    .expect("config");
    config.port = 0;
    let db = Database::connect(&config.database_url, None)
        .await
        .expect("database");
    let mut state = AppState::new(db, config, None);
    state.verifier = Some(Arc::new(SessionVerifier::with_fixed_keys(
        PROJECT,
        &jwks(&[&key]),
    )));
    (app(state), token)
}

fn stack(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let (full, token) = runtime.block_on(full_app(dir.path()));
    let bare = Router::new().route("/health", get(|| async { Json(json!({"status": "ok"})) }));

    // Warm up: the first current-user call creates the user and records the session.
    let first = runtime.block_on(full.clone().oneshot(post_current_user(&token)));
    assert_eq!(first.expect("answer").status(), 200);

    let mut group = c.benchmark_group("server");
    group.bench_function("bare_axum_get_health", |b| {
        b.to_async(&runtime)
            .iter(|| async { bare.clone().oneshot(get_health()).await.expect("answer") })
    });
    group.bench_function("app_get_health", |b| {
        b.to_async(&runtime)
            .iter(|| async { full.clone().oneshot(get_health()).await.expect("answer") })
    });
    group.bench_function("app_post_current_user_sqlite", |b| {
        b.to_async(&runtime).iter(|| async {
            let response = full
                .clone()
                .oneshot(post_current_user(&token))
                .await
                .expect("answer");
            assert_eq!(response.status(), 200);
            response
        })
    });
    group.finish();
}

criterion_group!(benches, stack);
criterion_main!(benches);

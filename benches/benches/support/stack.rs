//! The server's whole stack in process, shared by the criterion bench `server_stack` and the
//! callgrind driver `examples/profile_stack.rs`: the app on a fresh SQLite database trusting one
//! generated key, a session token that key signed, and the two requests they send.

use std::{
    net::SocketAddr,
    sync::Arc,
    time::{SystemTime, UNIX_EPOCH},
};

use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{header, Request},
};
use mg_server::{
    config::Config,
    db::Database,
    emulator::keys::{jwks, CurveAlgorithm, SigningKey},
    identity::verify::SessionVerifier,
    startup::{app, build_state, HttpService},
};
use serde_json::json;

const PROJECT: &str = "Pbench";

fn client_address() -> ConnectInfo<SocketAddr> {
    ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000)))
}

pub fn get_health() -> Request<Body> {
    let mut request = Request::get("/health")
        .body(Body::empty())
        .expect("request");
    request.extensions_mut().insert(client_address());
    request
}

pub fn post_current_user(token: &str) -> Request<Body> {
    let mut request = Request::post("/api/auth/current-user")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::from("{}"))
        .expect("request");
    request.extensions_mut().insert(client_address());
    request
}

/// The full application on a fresh SQLite database, trusting one generated key; and a token it signed.
pub async fn full_app(dir: &std::path::Path) -> (HttpService, String) {
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
    let mut state = build_state(db, config, None);
    state.verifier = Some(Arc::new(SessionVerifier::with_fixed_keys(
        PROJECT,
        &jwks(&[&key]),
    )));
    (app(state), token)
}

//! A stand-in identity provider for the load bench: serves a JWKS at `/v2/keys/Pbench` and prints
//! one session token (valid for an hour) on stdout, then serves until killed.
//! It signs with the identity emulator's keys, in a process of its own, so the server under load does
//! no emulator work and is configured as in production (IDENTITY_BASE_URL, IDENTITY_PROJECT_ID).

use std::time::{SystemTime, UNIX_EPOCH};

use axum::{routing::get, Json, Router};
use mg_server::emulator::keys::{jwks, CurveAlgorithm, SigningKey};
use serde_json::json;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let port: u16 = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3998);
    let key = SigningKey::generate("bench-key", CurveAlgorithm::Es256)?;
    let now = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
    let token = key.sign(&json!({
        "sub": "bench-user", "iss": "Pbench", "iat": now, "exp": now + 3600,
        "drn": "DS", "amr": ["oauth"],
    }))?;
    let published = jwks(&[&key]);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("{token}");
    let router = Router::new().route(
        "/v2/keys/Pbench",
        get(move || {
            let published = published.clone();
            async move { Json(published) }
        }),
    );
    axum::serve(listener, router).await?;
    Ok(())
}

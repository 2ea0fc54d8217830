//! Serves the built app: hashed assets cached for a year, everything else falls back to `index.html`.

use std::path::Path;

use axum::{
    extract::Request,
    http::{header, HeaderValue},
    middleware::{self, Next},
    response::Response,
    Router,
};
use tower_http::services::{ServeDir, ServeFile};

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

/// The app's files under `dir`, with a single-page-app fallback to `dir/index.html`.
pub fn router(dir: &Path) -> Router {
    let spa = ServeDir::new(dir)
        .precompressed_gzip()
        .fallback(ServeFile::new(dir.join("index.html")));
    Router::new()
        .fallback_service(spa)
        .layer(middleware::from_fn(cache_control))
}

/// Vite puts content-hashed files under `/assets/`: they never change, so browsers may keep them.
/// Everything else (index.html and the SPA fallback) must be revalidated so deploys show at once.
async fn cache_control(request: Request, next: Next) -> Response {
    let hashed = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    if response.status().is_success() {
        let value = if hashed { IMMUTABLE } else { REVALIDATE };
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    response
}

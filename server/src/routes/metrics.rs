//! `GET /metrics`: Prometheus text exposition.

use axum::{extract::State, http::header, response::IntoResponse, routing::get, Router};

use tower_http::compression::CompressionLayer;

use crate::startup::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/metrics", get(get_metrics))
        .layer(CompressionLayer::new())
}

#[tracing::instrument(skip(state))]
async fn get_metrics(State(state): State<AppState>) -> impl IntoResponse {
    let pool = state.db.pool();
    let text = state.metrics.render(pool.size(), pool.num_idle());
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
}

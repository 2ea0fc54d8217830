//! One request through the server's whole tower stack, in process (no sockets, no wrk noise):
//! `GET /health` through `app()` against a bare axum router, and `POST /api/auth/current-user`
//! (session-token check + SQLite read). The ratio of the first two is the middleware's cost,
//! which `benches/load.sh` measures over real connections.

#[path = "support/stack.rs"]
mod stack;

use axum::{routing::get, Json, Router};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use stack::{full_app, get_health, post_current_user};
use tower::ServiceExt;

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

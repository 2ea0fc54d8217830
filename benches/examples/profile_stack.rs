//! Fixed-count driver of the server stack for instruction-level profiling (callgrind):
//! `valgrind --tool=callgrind target/release/examples/profile_stack health 20000`.
#[path = "../benches/support/stack.rs"]
mod stack;

use stack::{full_app, get_health, post_current_user};
use tower::ServiceExt;

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "health".into());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(10000);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("rt");
    let dir = tempfile::tempdir().expect("dir");
    let (full, token) = runtime.block_on(full_app(dir.path()));
    runtime.block_on(async {
        for _ in 0..count {
            let request = if what == "health" {
                get_health()
            } else {
                post_current_user(&token)
            };
            let response = full.clone().oneshot(request).await.expect("answer");
            assert_eq!(response.status(), 200);
            let _ = axum::body::to_bytes(response.into_body(), 1 << 20).await;
        }
    });
}

//! Cross-origin isolation: the graphics bench page (`/bench`, and `/bench/`) is sent with
//! `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`, so
//! its timer is fine-grained; no other document or file is.

use crate::helpers::{header, TestApp};

const COOP: &str = "cross-origin-opener-policy";
const COEP: &str = "cross-origin-embedder-policy";

async fn the_bench_page_alone_is_cross_origin_isolated(app: TestApp) {
    // Before: `/bench/`, the same page, came without the headers, so its timer was coarse.
    for path in ["/bench", "/bench/"] {
        let bench = app.get(path).await;
        assert_eq!(bench.status(), 200, "{path}");
        assert_eq!(bench.headers()[COOP], "same-origin", "{path}");
        assert_eq!(bench.headers()[COEP], "require-corp", "{path}");
        // A revalidation keeps the headers (a browser updates its stored ones from a 304).
        let etag = header(&bench, "etag").to_owned();
        let again = app.get_with(path, &[("if-none-match", &etag)]).await;
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()[COEP], "require-corp", "{path}");
    }

    for path in [
        "/",
        "/telekinesis",
        "/mg/overview",
        "/index.html",
        "/bench/extra",
        "/nope",
        "/assets/app-3f9a1c.js",
        "/health",
    ] {
        let response = app.get(path).await;
        assert!(response.headers().get(COOP).is_none(), "{path} has no COOP");
        assert!(response.headers().get(COEP).is_none(), "{path} has no COEP");
    }
}
on_sqlite!(the_bench_page_alone_is_cross_origin_isolated);

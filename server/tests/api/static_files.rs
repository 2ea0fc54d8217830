//! Serving the built app: cache headers, SPA fallback, and JSON 404s for unknown API paths.

use crate::helpers::{header, sha256_base64, TestApp};
use serde_json::Value;

async fn hashed_assets_get_long_cache_headers(app: TestApp) {
    let response = app.get("/assets/app-3f9a1c.js").await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(response.text().await.expect("body"), "console.log('app')");
}
on_sqlite!(hashed_assets_get_long_cache_headers);

async fn a_not_modified_answer_carries_the_cache_policy_and_vary(app: TestApp) {
    let first = app.get("/assets/app-3f9a1c.js").await;
    let modified = header(&first, "last-modified").to_owned();
    let again = app
        .get_with("/assets/app-3f9a1c.js", &[("if-modified-since", &modified)])
        .await;
    assert_eq!(again.status(), 304);
    assert_eq!(
        again.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(header(&again, "vary").contains("accept-encoding"));
}
on_sqlite!(a_not_modified_answer_carries_the_cache_policy_and_vary);

async fn spa_paths_serve_index_html(app: TestApp) {
    for path in ["/", "/mg/overview", "/telekinesis", "/home"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        let body = response.text().await.expect("body");
        assert!(body.contains("mg test build"), "{path} serves index.html");
    }
}
on_sqlite!(spa_paths_serve_index_html);

async fn unknown_api_paths_answer_json_404(app: TestApp) {
    for path in ["/api/nope", "/api/auth/unknown", "/api/", "/api"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().await.expect("JSON, not the app's HTML");
        assert_eq!(body["code"], "not_found", "{path}");
        assert_eq!(body["error"], "There is nothing at this address.", "{path}");
    }
}
on_sqlite!(unknown_api_paths_answer_json_404);

async fn unknown_app_paths_answer_404(app: TestApp) {
    for path in ["/nope", "/mg/nope", "/mg/cli/zzz", "/telekinesis/extra"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        let body = response.text().await.expect("body");
        // The app still loads, so it can render its own 404 page.
        assert!(body.contains("mg test build"), "{path} serves index.html");
    }
    for path in ["/mg/cli/dmt", "/mg/quickstart", "/docs", "/apotheosis"] {
        assert_eq!(app.get(path).await.status(), 200, "{path}");
    }
    // Only the build's routes.json knows this page: the server has no route table of its own.
    assert_eq!(app.get("/mg/made-up").await.status(), 200);
}
on_sqlite!(unknown_app_paths_answer_404);

async fn nothing_outside_the_static_dir_is_served_through_a_symlink(app: TestApp) {
    // Before: ServeDir followed the links and sent the file outside STATIC_DIR.
    let dist = app.data_dir.path().join("dist");
    let outside = app.data_dir.path().join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::write(outside.join("secret.txt"), "TOP SECRET").expect("write");
    std::os::unix::fs::symlink(outside.join("secret.txt"), dist.join("assets/leak.txt"))
        .expect("file link");
    std::os::unix::fs::symlink(&outside, dist.join("linked")).expect("directory link");
    std::os::unix::fs::symlink(outside.join("secret.txt"), dist.join("assets/app.js.gz"))
        .expect("precompressed twin link");
    std::fs::write(dist.join("assets/app.js"), "console.log(1)").expect("write");
    std::os::unix::fs::symlink(dist.join("assets/app-3f9a1c.js"), dist.join("inside.js"))
        .expect("link inside");
    for path in [
        "/assets/leak.txt",
        "/linked/secret.txt",
        "/linked/%73ecret.txt",
        "/assets/app.js",
    ] {
        let response = app.get_with(path, &[("accept-encoding", "gzip")]).await;
        assert_eq!(response.status(), 404, "{path}");
        let body = response.text().await.expect("body");
        assert!(!body.contains("TOP SECRET"), "{path}: {body}");
    }
    let inside = app.get("/inside.js").await;
    assert_eq!(inside.status(), 200, "a link that stays inside is fine");
    assert_eq!(inside.text().await.expect("body"), "console.log('app')");
}
on_sqlite!(nothing_outside_the_static_dir_is_served_through_a_symlink);

async fn an_index_html_linked_out_of_the_static_dir_is_not_served(app: TestApp) {
    let dist = app.data_dir.path().join("dist");
    let outside = app.data_dir.path().join("elsewhere.html");
    std::fs::write(&outside, "<title>not the app</title>").expect("write");
    std::fs::remove_file(dist.join("index.html")).expect("rm");
    std::os::unix::fs::symlink(&outside, dist.join("index.html")).expect("link");
    for path in ["/", "/index.html", "/mg/overview"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        assert!(!response.text().await.expect("body").contains("not the app"));
    }
}
on_sqlite!(an_index_html_linked_out_of_the_static_dir_is_not_served);

async fn the_csp_hash_always_matches_the_index_html_that_is_served(app: TestApp) {
    // Before: the CSP was computed once at start, so an index.html rebuilt afterwards was served
    // with the old hashes and the browser blocked its theme script.
    let old = format!("'sha256-{}'", sha256_base64(crate::helpers::THEME_SCRIPT));
    let first = app.get("/").await;
    let csp = header(&first, "content-security-policy").to_owned();
    assert!(csp.contains(&old), "{csp}");
    let rebuilt_script = "document.documentElement.dataset.theme='void'";
    std::fs::write(
        app.data_dir.path().join("dist/index.html"),
        format!("<!doctype html><title>mg test build</title><script>{rebuilt_script}</script>"),
    )
    .expect("rebuild");
    for path in ["/", "/index.html", "/mg/overview", "/nope"] {
        let response = app.get(path).await;
        let csp = header(&response, "content-security-policy").to_owned();
        assert!(
            csp.contains(&format!("'sha256-{}'", sha256_base64(rebuilt_script))),
            "{path}: {csp}"
        );
        assert!(!csp.contains(&old), "{path}: {csp}");
        assert!(response
            .text()
            .await
            .expect("body")
            .contains(rebuilt_script));
    }
}
on_sqlite!(the_csp_hash_always_matches_the_index_html_that_is_served);

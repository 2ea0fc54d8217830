//! Serving the built app: cache headers, SPA fallback, and JSON 404s for unknown API paths.

use crate::helpers::TestApp;
use serde_json::Value;

async fn hashed_assets_are_cached_for_a_year(app: TestApp) {
    let response = app.get("/assets/app-3f9a1c.js").await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(response.text().await.expect("body"), "console.log('app')");
}
on_both_backends!(
    hashed_assets_get_long_cache_headers,
    hashed_assets_are_cached_for_a_year
);

async fn app_routes_fall_back_to_index_html(app: TestApp) {
    for path in ["/", "/mg/overview", "/telekinesis", "/home"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        let body = response.text().await.expect("body");
        assert!(body.contains("mg test build"), "{path} serves index.html");
    }
}
on_both_backends!(
    spa_paths_serve_index_html,
    app_routes_fall_back_to_index_html
);

async fn unknown_api_paths_are_json_404s(app: TestApp) {
    for path in ["/api/nope", "/api/auth/unknown", "/api/", "/api"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().await.expect("JSON, not the app's HTML");
        assert_eq!(body["code"], "not_found", "{path}");
        assert_eq!(body["error"], "There is nothing at this address.", "{path}");
    }
}
on_both_backends!(
    unknown_api_paths_answer_json_404,
    unknown_api_paths_are_json_404s
);

async fn unknown_app_paths_are_http_404_with_the_app(app: TestApp) {
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
on_both_backends!(
    unknown_app_paths_answer_404,
    unknown_app_paths_are_http_404_with_the_app
);

//! Not-found pages, other spellings of the build's paths, the build's redirects, directories.

use super::*;

/// The name of one of the build's prerendered files under `pages/`.
fn a_prerendered_file(app: &TestApp) -> String {
    std::fs::read_dir(dist(app).join("pages"))
        .expect("pages dir")
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .find(|name| name.ends_with(".html"))
        .expect("a prerendered file")
}

async fn not_found_and_personal(app: TestApp) {
    for path in ["/nope", "/mg/nope", "/mg/cli/zzz", "/apotheosis/extra"] {
        let (status, variant) = variant_of(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(variant.as_deref(), Some("signin-apotheosis-110"), "{path}");
    }
    // The prerendered files themselves, fetched raw, would carry unfilled placeholders.
    let raw = a_prerendered_file(&app);
    let (status, variant) = variant_of(&app, &format!("/pages/{raw}")).await;
    assert_eq!(status, 404, "/pages/{raw}");
    assert_eq!(variant.as_deref(), Some("signin-apotheosis-110"));
    let body = app.get_text("/nope").await;
    assert!(body.contains("Page not found"), "{body}");
    for path in ["/auth/callback", "/index.html", "/docs"] {
        assert_eq!(variant_of(&app, path).await, (200, None), "{path}");
    }
    // The sign-in route the build framed: its frame in this server's variant, however spelled.
    for path in [FRAME, "/home/"] {
        assert_eq!(
            variant_of(&app, path).await,
            (200, Some("signin-apotheosis-110".into())),
            "{path}"
        );
        assert!(app.get_text(path).await.contains("data-frame"), "{path}");
    }
}
on_sqlite!(
    unknown_paths_get_the_not_found_page_with_404_and_personal_routes_their_frame_or_the_shell,
    not_found_and_personal,
    with_build(json!({}), |_| {})
);

/// `GET path` sent as written (an HTTP client would tidy the path first): status and answer.
async fn raw_get(app: &TestApp, path: &str) -> (u16, String) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    raw_exchange(app, request.as_bytes()).await
}

async fn other_spellings(app: TestApp) {
    // Before: these spellings of the build's own files got past the rules written for their
    // plain spelling and served them unfilled (placeholders, no runtime config, a stale CSP).
    let raw = a_prerendered_file(&app);
    for path in [
        format!("//pages/{raw}"),
        format!("/%70ages/{raw}"),
        format!("/./pages/{raw}"),
        format!("/%2Fpages/{raw}"),
        format!("/mg/../pages/{raw}"),
    ] {
        let (status, answer) = raw_get(&app, &path).await;
        assert_eq!(status, 404, "{path}");
        assert!(!answer.contains("__MG_"), "{path}: {answer}");
    }
    for path in [
        "//index.html",
        "/./index.html",
        "/robots%2etxt",
        "//robots.txt",
    ] {
        let (status, answer) = raw_get(&app, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(!answer.contains("__MG_"), "{path} is filled in: {answer}");
    }
    let (status, answer) = raw_get(&app, "//index.html").await;
    assert_eq!(status, 200);
    assert!(answer.contains("mg-runtime-config"), "{answer}");
    // A path that climbs above the root, or escapes that are not text: a JSON 400.
    for path in ["/../etc/passwd", "/%ff", "/a%00b"] {
        let (status, answer) = raw_get(&app, path).await;
        assert_eq!(status, 400, "{path}");
        assert!(
            answer.contains("\"code\":\"bad_request\""),
            "{path}: {answer}"
        );
    }
}
on_sqlite!(
    other_spellings_of_the_build_files_paths_never_serve_them_raw,
    other_spellings,
    with_build(json!({}), |_| {})
);

async fn open_not_found(app: TestApp) {
    // Sign-in routes do not exist in open mode: the open variant's not-found page, 404 (though the
    // fixture build has a frame of /home in the open variant too).
    for path in ["/home", "/auth/callback"] {
        assert_eq!(
            variant_of(&app, path).await,
            (404, Some("open-apotheosis-100".into())),
            "{path}"
        );
    }
}
on_sqlite!(
    personal_routes_of_an_open_server_are_not_found,
    open_not_found,
    with_build(json!({}), |config| config.sanctified = false)
);

async fn redirects_keep_the_query(app: TestApp) {
    let client = browser();
    for (path, location) in [
        ("/mg", "/mg/overview"),
        ("/mg?tab=cli&x=%20y", "/mg/overview?tab=cli&x=%20y"),
        ("/metagenesis", "/mg/overview"),
    ] {
        let response = client
            .get(format!("{}{path}", app.address))
            .send()
            .await
            .expect("answer");
        assert_eq!(response.status(), 308, "{path}");
        assert_eq!(response.headers()["location"], location, "{path}");
    }
}
on_sqlite!(
    the_builds_redirects_answer_308_with_the_query_string,
    redirects_keep_the_query,
    with_build(json!({}), |_| {})
);

async fn directories_are_pages(app: TestApp) {
    // dist/mg/ and dist/mg/cli/ are directories (of twins): never a redirect or a listing.
    for (path, status) in [("/mg/cli", 200), ("/mg/cli/", 200), ("/mg/", 200)] {
        let response = app.get_with(path, &[]).await;
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(header(&response, "location"), "", "{path}");
        let body = response.text().await.expect("body");
        assert!(body.contains("<div id=\"root\">"), "{path}: {body}");
    }
    let (_, variant) = variant_of(&app, "/mg/cli").await;
    assert_eq!(variant.as_deref(), Some("signin-apotheosis-110"));
    // Without the build's redirect, /mg (the directory of the twins) is still no directory redirect.
    let manifest = std::fs::read_to_string(dist(&app).join("pages.json")).expect("read");
    let mut manifest: serde_json::Value = serde_json::from_str(&manifest).expect("json");
    manifest["redirects"] = json!({});
    std::fs::write(dist(&app).join("pages.json"), manifest.to_string()).expect("write");
    let mg = app.get_with("/mg", &[]).await;
    assert_eq!(
        mg.status(),
        200,
        "/mg is an app route of the fixture's routes.json"
    );
    assert_eq!(header(&mg, "location"), "");
    assert!(mg.text().await.expect("body").contains("mg test build"));
}
on_sqlite!(
    the_directories_of_the_twins_are_never_redirected_or_listed,
    directories_are_pages,
    with_build(json!({}), |_| {})
);

//! Paths no file of the build can have: a name too long for the file system, a file taken for a
//! directory, a file's path with a trailing slash. Each is a JSON 404 (the API's not-found body),
//! never an empty 500 or a raw build file served under another path.

use serde_json::Value;

use crate::helpers::TestApp;

/// `path` answers the API's not-found body, even to a browser asking for HTML.
async fn expect_json_404(app: &TestApp, path: &str) {
    let shown = &path[..path.len().min(60)];
    let response = app.get_with(path, &[("accept", "text/html")]).await;
    assert_eq!(response.status(), 404, "{shown}");
    let text = response.text().await.expect("body");
    let body: Value =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("{shown}: JSON, not {text}"));
    assert_eq!(body["code"], "not_found", "{shown}");
    assert_eq!(
        body["error"], "There is nothing at this address.",
        "{shown}"
    );
}

/// The files of a build beside the helper's fake one: what the build writes at the top and the
/// docs' Markdown twins.
fn write_text_files(app: &TestApp) {
    let dist = app.data_dir.path().join("dist");
    std::fs::create_dir_all(dist.join("mg")).expect("mg dir");
    std::fs::write(dist.join("mg/overview.md"), "# Overview\n").expect("twin");
    std::fs::write(dist.join("robots.txt"), "User-agent: *\nAllow: /\n").expect("robots");
    std::fs::write(dist.join("sitemap.xml"), "<urlset></urlset>").expect("sitemap");
}

async fn a_path_with_a_name_too_long_for_the_file_system_is_a_json_404(app: TestApp) {
    // Before: the file system refused the name (ENAMETOOLONG) and the file server answered an
    // empty 500, logging the whole path twice.
    for path in [
        format!("/{}", "a".repeat(300)),
        format!("/assets/{}.js", "a".repeat(300)),
        format!("/mg/{}", "b".repeat(300)),
        format!("/{}.md", "c".repeat(300)),
        format!("/{}", "%C3%A9".repeat(150)),
        format!("/{}", "d".repeat(31 * 1024)),
        format!("/{}", ["segment"; 31 * 1024 / 8].join("/")),
    ] {
        expect_json_404(&app, &path).await;
    }
    // A name as long as the file system takes is looked up as any other.
    let long_name = format!("{}.js", "f".repeat(245));
    let dist = app.data_dir.path().join("dist");
    std::fs::write(dist.join("assets").join(&long_name), "console.log(1)").expect("write");
    let found = app
        .get_with(
            &format!("/assets/{long_name}"),
            &[("accept-encoding", "br")],
        )
        .await;
    assert_eq!(found.status(), 200);
    let missing = app.get(&format!("/{}", "g".repeat(250))).await;
    assert_eq!(missing.status(), 404);
    let body = missing.text().await.expect("body");
    assert!(body.contains("mg test build"), "{body}");
}
on_sqlite!(a_path_with_a_name_too_long_for_the_file_system_is_a_json_404);

async fn a_path_through_a_file_as_if_it_were_a_directory_is_a_json_404(app: TestApp) {
    write_text_files(&app);
    for path in [
        "/index.html/x",
        "/assets/app-3f9a1c.js/x",
        "/robots.txt/x",
        "/robots.txt/x.md",
        "/mg/overview.md/x",
    ] {
        expect_json_404(&app, path).await;
    }
}
on_sqlite!(a_path_through_a_file_as_if_it_were_a_directory_is_a_json_404);

async fn a_files_path_with_a_trailing_slash_is_a_json_404(app: TestApp) {
    write_text_files(&app);
    // Before: the file server dropped the slash and sent the raw build file (placeholders
    // unfilled, no runtime configuration, the documents' headers missing).
    for path in [
        "/sitemap.xml/",
        "/robots.txt/",
        "/index.html/",
        "/mg/overview.md/",
        "/assets/app-3f9a1c.js/",
    ] {
        expect_json_404(&app, path).await;
        let slashless = path.trim_end_matches('/');
        assert_eq!(app.get(slashless).await.status(), 200, "{slashless}");
    }
    // A page's path with a trailing slash is still that page, as before (no redirect).
    for path in ["/mg/overview/", "/mg/", "/telekinesis/"] {
        let response = app.get_with(path, &[]).await;
        assert_eq!(response.status(), 200, "{path}");
        assert!(response.headers().get("location").is_none(), "{path}");
    }
}
on_sqlite!(a_files_path_with_a_trailing_slash_is_a_json_404);

//! ETags and 304s, compressed copies, the Markdown twins, the other text files, and a build
//! rewritten under a running server.

use super::*;

async fn etags_and_304(app: TestApp) {
    for path in ["/mg/overview", "/", "/home", "/llms.txt", "/mg/cli/dmt.md"] {
        let first = app.get_with(path, &[]).await;
        assert_eq!(first.status(), 200, "{path}");
        let etag = header(&first, "etag");
        assert!(
            etag.starts_with('"') && etag.ends_with('"') && etag.len() > 10,
            "{path}: strong tag {etag}"
        );
        assert_eq!(header(&first, "cache-control"), "no-cache", "{path}");
        let body = first.text().await.expect("body");
        assert_eq!(
            app.get_with(path, &[]).await.headers()["etag"],
            etag.as_str(),
            "{path}: stable"
        );
        for matching in [etag.as_str(), "*", &format!("\"nope\", {etag}")] {
            let again = app.get_with(path, &[("if-none-match", matching)]).await;
            assert_eq!(again.status(), 304, "{path} {matching}");
            assert_eq!(header(&again, "etag"), etag, "{path}");
            assert_eq!(header(&again, "cache-control"), "no-cache", "{path}");
            assert!(again.text().await.expect("body").is_empty(), "{path}");
        }
        let changed = app
            .get_with(path, &[("if-none-match", "\"0123456789abcdef\"")])
            .await;
        assert_eq!(changed.status(), 200, "{path}");
        assert_eq!(changed.text().await.expect("body"), body, "{path}");
    }
    let head = app
        .send_with(reqwest::Method::HEAD, "/mg/overview", &[])
        .await;
    assert_eq!(head.status(), 200);
    assert_eq!(
        header(&head, "etag"),
        header(&app.get_with("/mg/overview", &[]).await, "etag")
    );
    assert!(head.text().await.expect("body").is_empty());
    // A page's 304 keeps the page's own policy (a browser updates its stored headers from it).
    let page = app.get_with("/mg/cli", &[]).await;
    let etag = header(&page, "etag");
    let revalidated = app.get_with("/mg/cli", &[("if-none-match", &etag)]).await;
    assert_eq!(revalidated.status(), 304);
    assert_eq!(
        header(&revalidated, "content-security-policy"),
        header(&page, "content-security-policy")
    );
    // The variants differ, and so do their tags.
    assert_ne!(
        header(&app.get_with("/", &[]).await, "etag"),
        header(&app.get_with("/home", &[]).await, "etag")
    );
    // The not-found page is never "not modified".
    let missing = app.get_with("/nope", &[("if-none-match", "*")]).await;
    assert_eq!(missing.status(), 404);
    let body = missing.text().await.expect("body");
    assert!(body.contains("Page not found"), "{body}");
}
on_sqlite!(
    every_document_has_a_strong_etag_and_a_matching_request_gets_304,
    etags_and_304,
    with_build(json!({}), |_| {})
);

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(bytes), &mut text)
        .expect("gzip");
    text
}

fn unbrotli(bytes: &[u8]) -> String {
    let mut out = Vec::new();
    brotli::BrotliDecompress(&mut &bytes[..], &mut out).expect("brotli");
    String::from_utf8(out).expect("utf-8")
}

async fn compressed_copies(app: TestApp) {
    for path in ["/mg/overview", "/home", "/sitemap.xml"] {
        let plain = app.get_with(path, &[]).await;
        assert_eq!(header(&plain, "content-encoding"), "", "{path}");
        let plain_tag = header(&plain, "etag");
        let text = plain.text().await.expect("body");
        let gz = app.get_with(path, &[("accept-encoding", "gzip")]).await;
        assert_eq!(header(&gz, "content-encoding"), "gzip", "{path}");
        assert!(header(&gz, "vary").contains("accept-encoding"), "{path}");
        let gz_tag = header(&gz, "etag");
        assert_eq!(gunzip(&gz.bytes().await.expect("body")), text, "{path}");
        let br = app
            .get_with(path, &[("accept-encoding", "gzip, deflate, br, zstd")])
            .await;
        assert_eq!(header(&br, "content-encoding"), "br", "{path}");
        let br_tag = header(&br, "etag");
        assert_eq!(unbrotli(&br.bytes().await.expect("body")), text, "{path}");
        assert!(
            plain_tag != gz_tag && gz_tag != br_tag && plain_tag != br_tag,
            "{path}"
        );
        let revalidated = app
            .get_with(
                path,
                &[("accept-encoding", "br"), ("if-none-match", &br_tag)],
            )
            .await;
        assert_eq!(revalidated.status(), 304, "{path}");
    }
}
on_sqlite!(
    documents_are_sent_compressed_from_copies_made_once,
    compressed_copies,
    with_build(json!({}), |_| {})
);

async fn text_files(app: TestApp) {
    for (path, content_type, expected) in [
        (
            "/mg/overview.md",
            "text/markdown; charset=utf-8",
            "# Overview\n\nWhat mg is.\n".to_owned(),
        ),
        (
            "/mg/cli/dmt.md",
            "text/markdown; charset=utf-8",
            "# dmt\n\nThe DMT command line.\n".to_owned(),
        ),
        (
            "/llms.txt",
            "text/plain; charset=utf-8",
            "# mg\n\n- [Overview](https://mg.example.com/mg/overview.md)\n".to_owned(),
        ),
        (
            "/llms-full.txt",
            "text/plain; charset=utf-8",
            "# Overview\n\n# dmt\n".to_owned(),
        ),
        (
            "/robots.txt",
            "text/plain; charset=utf-8",
            "User-agent: *\nAllow: /\nSitemap: https://mg.example.com/sitemap.xml\n".to_owned(),
        ),
    ] {
        let response = app.get_with(path, &[]).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(header(&response, "content-type"), content_type, "{path}");
        assert_eq!(response.text().await.expect("body"), expected, "{path}");
    }
    let sitemap = app.get_with("/sitemap.xml", &[]).await;
    assert_eq!(header(&sitemap, "content-type"), "application/xml");
    let xml = sitemap.text().await.expect("body");
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let locations: Vec<_> = document
        .descendants()
        .filter(|node| node.has_tag_name("loc"))
        .filter_map(|node| node.text())
        .collect();
    assert_eq!(locations, ["https://mg.example.com/mg/overview"]);
    // A twin that does not exist is the not-found page.
    assert_eq!(app.get_with("/mg/nope.md", &[]).await.status(), 404);
}
on_sqlite!(
    twins_llms_sitemap_and_robots_have_their_types_and_the_site_url,
    text_files,
    with_build(json!({}), |config| config.public_url =
        "https://mg.example.com".into())
);

/// `GET /mg/cli/dmt` with `Accept: accept`: a 200 in `content_type` whose `Vary` names `Accept`.
async fn dmt_accepting(app: &TestApp, accept: &str, content_type: &str) -> reqwest::Response {
    let response = app.get_with("/mg/cli/dmt", &[("accept", accept)]).await;
    assert_eq!(response.status(), 200, "{accept}");
    assert_eq!(header(&response, "content-type"), content_type, "{accept}");
    let vary = header(&response, "vary");
    let mut names = vary.split(',').map(str::trim);
    assert!(names.any(|name| name == "accept"), "{accept}: {vary}");
    response
}

async fn markdown_on_request(app: TestApp) {
    for accept in [
        "text/markdown",
        "text/markdown, text/html;q=0.9",
        "text/plain, text/markdown;q=0.9, */*;q=0.1",
    ] {
        let response = dmt_accepting(&app, accept, "text/markdown; charset=utf-8").await;
        assert_eq!(
            header(&response, "content-location"),
            "/mg/cli/dmt.md",
            "{accept}"
        );
        assert_eq!(
            response.text().await.expect("body"),
            "# dmt\n\nThe DMT command line.\n"
        );
    }
    for accept in [
        "text/html, text/markdown;q=0.5",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        "*/*",
    ] {
        let response = dmt_accepting(&app, accept, "text/html; charset=utf-8").await;
        assert!(
            response
                .text()
                .await
                .expect("body")
                .contains("data-variant"),
            "{accept}"
        );
    }
    // No twin, no Markdown: the page itself.
    let cli = app
        .get_with("/mg/cli", &[("accept", "text/markdown")])
        .await;
    assert_eq!(header(&cli, "content-type"), "text/html; charset=utf-8");
}
on_sqlite!(
    a_docs_url_asked_for_markdown_answers_its_twin,
    markdown_on_request,
    with_build(json!({}), |_| {})
);

async fn link_headers(app: TestApp) {
    for (path, link) in [
        (
            "/mg/overview",
            "</mg/overview.md>; rel=\"alternate\"; type=\"text/markdown\"",
        ),
        (
            "/mg/cli/dmt",
            "</mg/cli/dmt.md>; rel=\"alternate\"; type=\"text/markdown\"",
        ),
    ] {
        let response = app.get_with(path, &[]).await;
        assert_eq!(header(&response, "link"), link, "{path}");
    }
    // No twin (mg/cli.md), or not a docs page: no link.
    for path in ["/mg/cli", "/", "/apotheosis", "/home", "/mg/nope"] {
        assert_eq!(header(&app.get_with(path, &[]).await, "link"), "", "{path}");
    }
    // The shell of a docs page the build did not render links its twin too.
    std::fs::write(
        dist(&app).join("pages.json"),
        r#"{"version": 1, "pages": {}}"#,
    )
    .expect("write");
    let shell = app.get_with("/mg/overview", &[]).await;
    assert!(header(&shell, "link").starts_with("</mg/overview.md>"));
}
on_sqlite!(
    docs_pages_link_their_markdown_twin,
    link_headers,
    with_build(json!({}), |_| {})
);

async fn rebuilt_files_are_served(app: TestApp) {
    let dist = dist(&app);
    let first = app
        .get_with("/apotheosis", &[("accept-encoding", "br")])
        .await;
    let etag = header(&first, "etag");
    assert!(unbrotli(&first.bytes().await.expect("body")).contains("/apotheosis of deployment"));
    // The build rewrites the page's file in place.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dist.join("pages.json")).expect("read"))
            .expect("json");
    let file = manifest["pages"]["/apotheosis"]["signin-apotheosis-110"]
        .as_str()
        .expect("file");
    std::fs::write(
        dist.join(file),
        "<html><head></head><body><main data-variant=\"rebuilt\">new</main></body></html>",
    )
    .expect("rewrite");
    let second = app
        .get_with(
            "/apotheosis",
            &[("accept-encoding", "br"), ("if-none-match", &etag)],
        )
        .await;
    assert_eq!(second.status(), 200, "the old tag no longer matches");
    assert_ne!(header(&second, "etag"), etag);
    assert!(unbrotli(&second.bytes().await.expect("body")).contains("data-variant=\"rebuilt\""));
    // A twin rewritten, and a new manifest pointing elsewhere.
    std::fs::write(dist.join("mg/overview.md"), "# Overview, rebuilt\n").expect("rewrite");
    assert_eq!(
        app.get_with("/mg/overview.md", &[])
            .await
            .text()
            .await
            .expect("md"),
        "# Overview, rebuilt\n"
    );
    let page = write_page(
        &dist,
        "<html><head></head><body><main data-variant=\"moved\"></main></body></html>",
    );
    std::fs::write(
        dist.join("pages.json"),
        json!({"version": 1, "pages": {"/apotheosis": {"signin-apotheosis-110": page}}})
            .to_string(),
    )
    .expect("new manifest");
    assert_eq!(
        variant_of(&app, "/apotheosis").await,
        (200, Some("moved".into()))
    );
    // And the shell.
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><title>mg test build, rebuilt</title>",
    )
    .expect("shell");
    let shell = app
        .get_with("/home", &[])
        .await
        .text()
        .await
        .expect("shell");
    assert!(shell.contains("rebuilt"), "{shell}");
}
on_sqlite!(
    a_rebuilt_page_twin_manifest_or_shell_is_served_without_a_restart,
    rebuilt_files_are_served,
    with_build(json!({}), |_| {})
);

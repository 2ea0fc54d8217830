//! Prerendered public pages: the variant matching the configuration, the shell where
//! none fits, the not-found page with 404, redirects, placeholders, ETags and 304s, the Markdown
//! twins and the other text files. Each test writes a small build of its own (`write_build`).

use std::path::Path;

use mg_server::config::Config;
use serde_json::json;

use crate::emulator::{browser, emulator_on};
use crate::helpers::{TestApp, THEME_SCRIPT};

/// The prerendered paths of the fixture build.
const PAGES: [&str; 5] = ["/", "/apotheosis", "/mg/overview", "/mg/cli", "/mg/cli/dmt"];
/// The variants the fixture build renders.
const KEYS: [&str; 8] = [
    "signin-apotheosis-110",
    "open-apotheosis-100",
    "emulator-apotheosis-110",
    "signin-ethereal-011",
    "open-ethereal-001",
    "signin-metagenesis-010",
    "signin-telekinesis-110",
    "signin-apotheosis-100",
];

/// The page the build renders for `path` in variant `key`.
fn page_html(path: &str, key: &str) -> String {
    format!(
        "<!doctype html><html><head><title>{path} {key}</title>\
         <link rel=\"canonical\" href=\"__MG_SITE_URL__{path}\"><script>{THEME_SCRIPT}</script>\
         <script>window.variant='{key}'</script></head><body><div id=\"root\">\
         <main data-variant=\"{key}\">{path} of deployment __MG_DEPLOYMENT_ID__ {}</main></div></body></html>",
        "prerendered text ".repeat(20)
    )
}

/// Writes `html` content-addressed under `pages/`, as the build does; returns its manifest path.
fn write_page(dist: &Path, html: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, html.as_bytes());
    let hex: String = digest.as_ref()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let file = format!("pages/{hex}.html");
    std::fs::create_dir_all(dist.join("pages")).expect("pages dir");
    std::fs::write(dist.join(&file), html).expect("write page");
    file
}

/// A build with every page of [`PAGES`] in every variant of [`KEYS`], a not-found page per variant,
/// the Markdown twins of the docs pages, llms, sitemap and robots; `build` is the manifest's
/// `build` block.
fn write_build(dist: &Path, build: serde_json::Value) {
    let mut pages = serde_json::Map::new();
    for path in PAGES {
        let variants: serde_json::Map<_, _> = KEYS
            .iter()
            .map(|key| {
                (
                    key.to_string(),
                    json!(write_page(dist, &page_html(path, key))),
                )
            })
            .collect();
        pages.insert(path.to_owned(), variants.into());
    }
    let not_found: serde_json::Map<_, _> = KEYS
        .iter()
        .map(|key| {
            let html = format!(
                "<!doctype html><html><head><title>Page not found</title></head><body>\
                 <main data-variant=\"{key}\">Page not found</main></body></html>"
            );
            (key.to_string(), json!(write_page(dist, &html)))
        })
        .collect();
    let manifest = json!({
        "version": 1,
        "build": build,
        "redirects": {"/mg": "/mg/overview", "/metagenesis": "/mg/overview"},
        "pages": pages,
        "notFound": not_found,
    });
    std::fs::write(dist.join("pages.json"), manifest.to_string()).expect("pages.json");
    std::fs::create_dir_all(dist.join("mg/cli")).expect("mg/cli");
    std::fs::write(dist.join("mg/overview.md"), "# Overview\n\nWhat mg is.\n").expect("md");
    std::fs::write(
        dist.join("mg/cli/dmt.md"),
        "# dmt\n\nThe DMT command line.\n",
    )
    .expect("md");
    std::fs::write(
        dist.join("llms.txt"),
        "# mg\n\n- [Overview](__MG_SITE_URL__/mg/overview.md)\n",
    )
    .expect("llms");
    std::fs::write(dist.join("llms-full.txt"), "# Overview\n\n# dmt\n").expect("llms-full");
    std::fs::write(
        dist.join("sitemap.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
         <url><loc>__MG_SITE_URL__/mg/overview</loc></url></urlset>",
    )
    .expect("sitemap");
    std::fs::write(
        dist.join("robots.txt"),
        "User-agent: *\nAllow: /\nSitemap: __MG_SITE_URL__/sitemap.xml\n",
    )
    .expect("robots");
}

fn dist(app: &TestApp) -> std::path::PathBuf {
    app.data_dir.path().join("dist")
}

/// The variant a page was rendered for, `None` for the shell.
async fn variant_of(app: &TestApp, path: &str) -> (u16, Option<String>) {
    let response = app.get(path).await;
    let status = response.status().as_u16();
    let body = response.text().await.expect("body");
    let variant = body
        .split("data-variant=\"")
        .nth(1)
        .map(|rest| rest.split('"').next().expect("attribute ends").to_owned());
    if variant.is_none() {
        assert!(
            body.contains("mg test build"),
            "{path}: neither a page nor the shell: {body}"
        );
    }
    (status, variant)
}

/// The build is written before the server starts (`write_build` inside `adjust`).
fn with_build(
    build: serde_json::Value,
    adjust: impl FnOnce(&mut Config),
) -> impl FnOnce(&mut Config) {
    move |config: &mut Config| {
        // The helper has written the fake build (index.html, routes.json) by now.
        write_build(&config.static_dir, build);
        adjust(config);
    }
}

async fn expect_variant(app: TestApp, expected: Option<&str>) {
    for path in PAGES {
        let (status, variant) = variant_of(&app, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(variant.as_deref(), expected, "{path}");
    }
}

async fn signin_variant(app: TestApp) {
    expect_variant(app, Some("signin-apotheosis-110")).await;
}
on_both_backends!(
    a_sanctified_server_with_an_identity_project_serves_the_sign_in_variant,
    signin_variant,
    with_build(json!({}), |_| {})
);

async fn open_variant(app: TestApp) {
    expect_variant(app, Some("open-apotheosis-100")).await;
}
on_both_backends!(
    an_open_server_serves_the_open_variant,
    open_variant,
    with_build(json!({}), |config| config.sanctified = false)
);

async fn emulator_variant(app: TestApp) {
    expect_variant(app, Some("emulator-apotheosis-110")).await;
}
on_both_backends!(
    a_public_emulator_serves_the_variant_with_its_marker,
    emulator_variant,
    with_build(json!({}), |config| {
        emulator_on(config);
        config.identity_emulator_public = true;
    })
);

async fn loopback_emulator_variant(app: TestApp) {
    expect_variant(app, Some("signin-apotheosis-110")).await;
}
on_both_backends!(
    a_loopback_emulator_serves_the_sign_in_variant,
    loopback_emulator_variant,
    with_build(json!({}), emulator_on)
);

async fn ethereal_variant(app: TestApp) {
    expect_variant(app, Some("signin-ethereal-011")).await;
}
on_both_backends!(
    an_ethereal_type_in_any_case_serves_the_ethereal_variant,
    ethereal_variant,
    with_build(json!({}), |config| config.deployment_type =
        Some("ETHEREAL".into()))
);
on_both_backends!(
    the_ethereal_flag_makes_any_type_ethereal,
    ethereal_variant,
    with_build(json!({}), |config| {
        config.deployment_type = Some("telekinesis".into());
        config.deployment_flags = Some(r#"{"ethereal": true, "apotheosis": true}"#.into());
    })
);

async fn open_ethereal_variant(app: TestApp) {
    expect_variant(app, Some("open-ethereal-001")).await;
}
on_both_backends!(
    the_sanctified_switch_overrides_the_sanctified_flag,
    open_ethereal_variant,
    with_build(json!({}), |config| {
        config.sanctified = false;
        config.deployment_flags = Some(r#"{"sanctified": true, "ethereal": true}"#.into());
    })
);

async fn metagenesis_variant(app: TestApp) {
    expect_variant(app, Some("signin-metagenesis-010")).await;
}
on_both_backends!(
    type_and_flags_of_the_server_choose_the_variant,
    metagenesis_variant,
    with_build(json!({}), |config| {
        config.deployment_type = Some("Metagenesis".into());
        config.deployment_flags = Some(r#"{"apotheosis": false}"#.into());
    })
);

async fn telekinesis_variant(app: TestApp) {
    expect_variant(app, Some("signin-telekinesis-110")).await;
}
on_both_backends!(
    the_builds_values_count_where_the_server_sets_none,
    telekinesis_variant,
    with_build(
        json!({"deploymentType": "telekinesis", "deploymentFlags": "{\"sanctified\": false}", "sanctified": false}),
        |_| {}
    )
);

async fn unreadable_build_flags(app: TestApp) {
    expect_variant(app, Some("signin-ethereal-011")).await;
}
on_both_backends!(
    unreadable_build_flags_are_the_defaults_and_the_servers_values_win,
    unreadable_build_flags,
    with_build(
        json!({"deploymentType": "metagenesis", "deploymentFlags": "{\"apotheosis\": fals"}),
        |config| config.deployment_type = Some("ethereal".into())
    )
);

async fn shell_everywhere(app: TestApp) {
    // The manifest is read (its redirects work); only no page fits.
    let redirect = browser()
        .get(format!("{}/mg", app.address))
        .send()
        .await
        .expect("answer");
    assert_eq!(redirect.status(), 308);
    assert_eq!(variant_of(&app, "/nope").await, (404, None));
    expect_variant(app, None).await;
}
on_both_backends!(
    sanctified_without_an_identity_project_gets_the_shell,
    shell_everywhere,
    with_build(json!({}), |config| config.identity_project_id = None)
);
on_both_backends!(
    a_variant_the_build_did_not_render_gets_the_shell,
    shell_everywhere,
    with_build(json!({}), |config| {
        // signin-telekinesis-110 is rendered, signin-telekinesis-010 is not.
        config.deployment_type = Some("telekinesis".into());
        config.deployment_flags = Some(r#"{"apotheosis": false}"#.into());
    })
);

async fn unreadable_manifest(app: TestApp) {
    assert_eq!(
        variant_of(&app, "/").await,
        (200, Some("signin-apotheosis-110".into()))
    );
    // A build that broke its manifest: every page is the shell again, without a restart.
    std::fs::write(
        dist(&app).join("pages.json"),
        "{\"version\": 1, \"pages\": [",
    )
    .expect("write");
    expect_variant(app, None).await;
}
on_both_backends!(
    an_unreadable_manifest_gets_the_shell_everywhere,
    unreadable_manifest,
    with_build(json!({}), |_| {})
);

async fn placeholders_are_filled(app: TestApp) {
    let html = app.get("/mg/overview").await.text().await.expect("html");
    assert!(
        html.contains("of deployment &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; "),
        "{html}"
    );
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(!html.contains("__MG_"), "{html}");
    assert!(
        html.contains(r#"<link rel="canonical" href="https://mg.example.com/mg/overview">"#),
        "{html}"
    );
    // The runtime configuration is injected into prerendered pages as into the shell.
    assert!(
        html.contains(r#"<script type="application/json" id="mg-runtime-config">{"#),
        "{html}"
    );
}
on_both_backends!(
    placeholders_are_filled_and_the_deployment_id_is_escaped,
    placeholders_are_filled,
    with_build(json!({"deploymentId": "from-the-build"}), |config| {
        config.deployment_id = Some("<script>alert(\"x\")</script>".into());
        config.public_url = "https://mg.example.com".into();
    })
);

async fn build_deployment_id(app: TestApp) {
    let html = app.get("/").await.text().await.expect("html");
    assert!(html.contains("of deployment from-the-build "), "{html}");
}
on_both_backends!(
    the_builds_deployment_id_fills_in_when_the_server_has_none,
    build_deployment_id,
    with_build(json!({"deploymentId": " from-the-build "}), |_| {})
);

fn sha256_base64(text: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .encode(ring::digest::digest(&ring::digest::SHA256, text.as_bytes()))
}

async fn csp_of_the_page(app: TestApp) {
    let response = app.get("/mg/cli").await;
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .expect("ascii")
        .to_owned();
    let script = "window.variant='signin-apotheosis-110'";
    assert!(csp.contains(&sha256_base64(script)), "{csp}");
    assert!(csp.contains(&sha256_base64(THEME_SCRIPT)), "{csp}");
    let scripts = csp
        .split(';')
        .find(|d| d.trim().starts_with("script-src"))
        .expect("script-src");
    assert!(!scripts.contains("unsafe-inline"), "{csp}");
}
on_both_backends!(
    a_prerendered_page_carries_the_hashes_of_its_own_inline_scripts,
    csp_of_the_page,
    with_build(json!({}), |_| {})
);

async fn not_found_and_personal(app: TestApp) {
    for path in ["/nope", "/mg/nope", "/mg/cli/zzz", "/apotheosis/extra"] {
        let (status, variant) = variant_of(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(variant.as_deref(), Some("signin-apotheosis-110"), "{path}");
    }
    // The prerendered files themselves, fetched raw, would carry unfilled placeholders.
    let raw = std::fs::read_dir(dist(&app).join("pages"))
        .expect("pages dir")
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .find(|name| name.ends_with(".html"))
        .expect("a prerendered file");
    let (status, variant) = variant_of(&app, &format!("/pages/{raw}")).await;
    assert_eq!(status, 404, "/pages/{raw}");
    assert_eq!(variant.as_deref(), Some("signin-apotheosis-110"));
    let body = app.get("/nope").await.text().await.expect("body");
    assert!(body.contains("Page not found"), "{body}");
    for path in ["/home", "/auth/callback", "/index.html", "/docs"] {
        assert_eq!(variant_of(&app, path).await, (200, None), "{path}");
    }
}
on_both_backends!(
    unknown_paths_get_the_not_found_page_with_404_and_personal_routes_the_shell,
    not_found_and_personal,
    with_build(json!({}), |_| {})
);

/// `GET path` sent as written (an HTTP client would tidy the path first): status and body.
async fn raw_get(app: &TestApp, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(app.address.trim_start_matches("http://"))
        .await
        .expect("connect");
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .expect("write");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("read");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

async fn other_spellings(app: TestApp) {
    // Before: these spellings of the build's own files got past the rules written for their
    // plain spelling and served them unfilled (placeholders, no runtime config, a stale CSP).
    let raw = std::fs::read_dir(dist(&app).join("pages"))
        .expect("pages dir")
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .find(|name| name.ends_with(".html"))
        .expect("a prerendered file");
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
on_both_backends!(
    other_spellings_of_the_build_files_paths_never_serve_them_raw,
    other_spellings,
    with_build(json!({}), |_| {})
);

async fn open_not_found(app: TestApp) {
    // Sign-in routes do not exist in open mode: the open variant's not-found page, 404.
    for path in ["/home", "/auth/callback"] {
        assert_eq!(
            variant_of(&app, path).await,
            (404, Some("open-apotheosis-100".into())),
            "{path}"
        );
    }
}
on_both_backends!(
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
on_both_backends!(
    the_builds_redirects_answer_308_with_the_query_string,
    redirects_keep_the_query,
    with_build(json!({}), |_| {})
);

fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().expect("ascii").to_owned())
        .unwrap_or_default()
}

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
    let head = browser()
        .head(format!("{}/mg/overview", app.address))
        .send()
        .await
        .expect("answer");
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
    assert!(missing
        .text()
        .await
        .expect("body")
        .contains("Page not found"));
}
on_both_backends!(
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
on_both_backends!(
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
on_both_backends!(
    twins_llms_sitemap_and_robots_have_their_types_and_the_site_url,
    text_files,
    with_build(json!({}), |config| config.public_url =
        "https://mg.example.com".into())
);

async fn markdown_on_request(app: TestApp) {
    for accept in [
        "text/markdown",
        "text/markdown, text/html;q=0.9",
        "text/plain, text/markdown;q=0.9, */*;q=0.1",
    ] {
        let response = app.get_with("/mg/cli/dmt", &[("accept", accept)]).await;
        assert_eq!(response.status(), 200, "{accept}");
        assert_eq!(
            header(&response, "content-type"),
            "text/markdown; charset=utf-8",
            "{accept}"
        );
        assert!(header(&response, "vary").contains("accept"), "{accept}");
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
        let response = app.get_with("/mg/cli/dmt", &[("accept", accept)]).await;
        assert_eq!(
            header(&response, "content-type"),
            "text/html; charset=utf-8",
            "{accept}"
        );
        assert!(header(&response, "vary").contains("accept, "), "{accept}");
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
on_both_backends!(
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
on_both_backends!(
    docs_pages_link_their_markdown_twin,
    link_headers,
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
on_both_backends!(
    the_directories_of_the_twins_are_never_redirected_or_listed,
    directories_are_pages,
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
on_both_backends!(
    a_rebuilt_page_twin_manifest_or_shell_is_served_without_a_restart,
    rebuilt_files_are_served,
    with_build(json!({}), |_| {})
);

//! Prerendered public pages (issue 17): the variant matching the configuration, the shell where
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

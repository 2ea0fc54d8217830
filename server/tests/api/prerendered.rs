//! Prerendered public pages. Each test writes a small build of its own (`write_build`, here); the
//! tests are split by subject: which variant the configuration chooses, and the shell where none
//! fits (`variants`); the frames of sign-in routes, not-found pages, other spellings of paths, redirects and directories
//! (`routes`); ETags and 304s, compressed copies, the Markdown twins, the other text files and
//! rebuilds (`files`).

use std::path::Path;

use mg_server::config::Config;
use serde_json::json;

use crate::emulator::{browser, emulator_and, emulator_on};
use crate::helpers::{raw_exchange, TestApp, THEME_SCRIPT};

/// The prerendered paths of the fixture build.
const PAGES: [&str; 5] = ["/", "/apotheosis", "/mg/overview", "/mg/cli", "/mg/cli/dmt"];
/// The sign-in route the fixture build prerenders as its frame.
const FRAME: &str = "/home";
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

/// A build with every page of [`PAGES`] in every variant of [`KEYS`], the frame of [`FRAME`] in
/// every variant too (an open server must not serve it all the same), a not-found page per variant,
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
    let frames: serde_json::Map<_, _> = KEYS
        .iter()
        .map(|key| {
            let html = page_html(FRAME, key).replace("<main ", "<main data-frame ");
            (key.to_string(), json!(write_page(dist, &html)))
        })
        .collect();
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
        "signedIn": {FRAME: frames},
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

fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().expect("ascii").to_owned())
        .unwrap_or_default()
}

mod files;
mod routes;
mod variants;

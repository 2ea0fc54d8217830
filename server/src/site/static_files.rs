//! Serves the built app: hashed assets cached for a year; documents (prerendered pages, the shell
//! `index.html`, Markdown twins, llms/sitemap/robots) from `pages`, with the runtime configuration
//! injected as a JSON script element. Nothing outside the app's directory is served, even through
//! a symlink inside it; a path no file could have (a name too long for the file system, a file
//! taken for a directory, a file's path with a trailing slash) is a JSON 404, never a lookup that
//! fails with a 500 or a raw file under another path.

use std::{
    convert::Infallible,
    future::Future,
    path::Path,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
};

use axum::{
    extract::{Request, State},
    handler::HandlerWithoutStateExt,
    http::{header, HeaderValue, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use serde::Serialize;
use tower::{Service, ServiceExt};
use tower_http::{compression::CompressionLayer, services::ServeDir};

use super::{pages, root::Root};
use crate::{config::Config, error::AppError};

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// The longest path segment looked up on disk, in bytes once decoded: a file name is at most 255
/// bytes (NAME_MAX), less the `.br`/`.gz` suffix of the compressed copies looked up beside it.
pub const MAX_NAME_BYTES: usize = 255 - ".br".len();
/// The longest path looked up on disk, in bytes once decoded. The build's deepest file is far
/// shorter, and under any sane `STATIC_DIR` this stays below PATH_MAX (4096).
pub const MAX_LOOKUP_BYTES: usize = 1024;
const REVALIDATE: &str = "no-cache";
/// The id of the injected element; the app reads `document.getElementById(...)`.
pub const RUNTIME_CONFIG_ID: &str = "mg-runtime-config";

/// The app's files under `config.static_dir`: documents from [`pages::Site`] (each carrying
/// [`runtime_config`] and a CSP computed from the very HTML sent), other files as they are.
pub fn router(config: &Config) -> SiteService {
    let dir = config.static_dir.as_path();
    let root = Arc::new(Root::new(dir));
    let site = Arc::new(pages::Site::new(
        root.clone(),
        config,
        &runtime_config(config),
    ));
    let fallback_site = site.clone();
    let shell_site = site.clone();
    // The build writes Brotli and gzip copies beside the text files and the .wasm
    // (app/vite/precompress.ts); a browser that accepts one gets it as it is, with no work per request.
    let serve_dir = ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip()
        // Directories (`/`, `/mg/`, which holds the Markdown twins) are never listed or
        // redirected: they fall through to the documents.
        .append_index_html_on_directories(false)
        .fallback((move |request: Request| fallback_site.clone().fallback(request)).into_service());
    let files = Router::new()
        .route(
            "/index.html",
            get(move |request: Request| shell_site.clone().shell(request)),
        )
        .fallback_service(serve_dir)
        .layer(middleware::from_fn_with_state(root, confine_to_root))
        .layer(middleware::from_fn(cache_control))
        // Text assets are what is worth compressing; the API's small JSON answers are not.
        .layer(CompressionLayer::new());
    SiteService { site, files }
}

/// The site as one service: documents first, answered from memory by [`pages::Site`] before any
/// layer of the files' stack (they come compressed, tagged and with their own headers: nothing
/// there would change them), then the files. A page is a file the manifest names, not one the
/// request names, and every file filled in is checked when it is read, so the documents need no
/// confinement layer either.
#[derive(Debug, Clone)]
pub struct SiteService {
    site: Arc<pages::Site>,
    files: Router,
}

impl Service<Request> for SiteService {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let site = self.site.clone();
        let files = self.files.clone();
        Box::pin(async move {
            // Before anything looks on disk: the file system would refuse the name (ENAMETOOLONG),
            // and the file server would answer that with an empty 500.
            if !fits_the_file_system(request.uri().path()) {
                return Ok(AppError::NotFound.into_response());
            }
            Ok(match pages::document_first(&site, request).await {
                Ok(answer) => answer,
                Err(request) => files.oneshot(request).await.into_response(),
            })
        })
    }
}

/// Whether every segment of `path` and `path` itself, percent-decoded, are short enough to be
/// looked up ([`MAX_NAME_BYTES`], [`MAX_LOOKUP_BYTES`]).
pub fn fits_the_file_system(path: &str) -> bool {
    let decoded_len = |text: &str| percent_encoding::percent_decode_str(text).count();
    decoded_len(path) <= MAX_LOOKUP_BYTES
        && path
            .split('/')
            .all(|segment| decoded_len(segment) <= MAX_NAME_BYTES)
}

/// What the file system says of the file a request names, before the file server opens it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lookup {
    /// Nothing against it: the file server answers (the file, or the fallback).
    Go,
    /// No file can be there: a file's path with a trailing slash (`/robots.txt/` names a
    /// directory `robots.txt`), or a file taken for a directory (`/index.html/x`, ENOTDIR).
    NoSuchFile,
    /// It, or its `.br`/`.gz` twin, resolves outside the app's directory.
    Escapes,
}

/// Refuses (404) a request whose file cannot exist ([`Lookup::NoSuchFile`]), or whose file or its
/// `.br`/`.gz` twin resolves outside the app's directory.
async fn confine_to_root(State(root): State<Arc<Root>>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if let Some(file) = root.file_for(path) {
        let checked = root.clone();
        let trailing_slash = path.len() > 1 && path.ends_with('/');
        // The lookups on one blocking thread (a refusal when that thread cannot run).
        let lookup = tokio::task::spawn_blocking(move || {
            match std::fs::metadata(&file) {
                Ok(meta) if trailing_slash && !meta.is_dir() => return Lookup::NoSuchFile,
                Err(error) if error.kind() == std::io::ErrorKind::NotADirectory => {
                    return Lookup::NoSuchFile
                }
                _ => {}
            }
            let escapes = ["", ".br", ".gz"].into_iter().any(|suffix| {
                let mut candidate = file.clone().into_os_string();
                candidate.push(suffix);
                checked.escapes_blocking(Path::new(&candidate))
            });
            if escapes {
                Lookup::Escapes
            } else {
                Lookup::Go
            }
        })
        .await
        .unwrap_or(Lookup::Escapes);
        match lookup {
            Lookup::Go => {}
            Lookup::NoSuchFile => return AppError::NotFound.into_response(),
            Lookup::Escapes => {
                tracing::warn!(%path, "refused: a symlink out of STATIC_DIR");
                return AppError::NotFound.into_response();
            }
        }
    }
    next.run(request).await
}

/// The deployment values the app reads from the page (app/src/config/runtime-config.ts): the one
/// definition of their names and types. The app's type is generated from this struct, and the build's
/// prerender writes the same object for each variant it renders (app/common/variant.ts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RuntimeConfig<'a> {
    // Fields in the order the element has always listed them (alphabetical).
    /// `DEPLOYMENT_FLAGS`, the raw JSON text (the app's wasm core reads it); absent when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub deployment_flags: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub deployment_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub deployment_type: Option<&'a str>,
    /// Base URL of the identity service, no trailing slash; "" means this page's own origin (the
    /// server's identity emulator).
    pub identity_base_url: &'a str,
    /// Present (and true) only when the identity emulator runs on a public address on purpose:
    /// the app shows its marker, since this server signs anyone in.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional, type = "true"))]
    pub identity_emulator: Option<bool>,
    /// Absent when sanctified mode has no identity project (the app then shows its notice).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub identity_project_id: Option<&'a str>,
    pub sanctified: bool,
}

impl<'a> RuntimeConfig<'a> {
    pub fn of(config: &'a Config) -> Self {
        Self {
            deployment_flags: config.deployment_flags.as_deref(),
            deployment_id: config.deployment_id.as_deref(),
            deployment_type: config.deployment_type.as_deref(),
            identity_base_url: config
                .identity_base_url
                .as_deref()
                .map_or("", |url| url.trim_end_matches('/')),
            identity_emulator: config.shows_emulator_marker().then_some(true),
            identity_project_id: config.effective_identity_project_id(),
            sanctified: config.sanctified,
        }
    }
}

/// `<script type="application/json" id="mg-runtime-config">{...}</script>` for `config`: its
/// [`RuntimeConfig`]. A JSON script never executes, so the CSP is unaffected; `<`, `>` and `&` are
/// escaped so no value can close the element.
pub fn runtime_config(config: &Config) -> String {
    // Plain strings and booleans: serialising cannot fail.
    let text = serde_json::to_string(&RuntimeConfig::of(config))
        .unwrap_or_default()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    format!(r#"<script type="application/json" id="{RUNTIME_CONFIG_ID}">{text}</script>"#)
}

/// Vite puts content-hashed files under `/assets/`: they never change, so browsers may keep them.
/// Everything else (index.html and the SPA fallback) must be revalidated so deploys show at once.
/// Every file may be sent Brotli- or gzip-encoded depending on the request's `Accept-Encoding`, so
/// caches are told to vary on it (the compression layer says so only for what it compresses itself).
/// A 304 carries both too: a cache updates its stored headers from it (RFC 9111, 4.3.4).
async fn cache_control(request: Request, next: Next) -> Response {
    let hashed = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
        let value = if hashed { IMMUTABLE } else { REVALIDATE };
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
        let varies = headers.get_all(header::VARY).iter().any(|vary| {
            vary.to_str()
                .is_ok_and(|vary| vary.to_ascii_lowercase().contains("accept-encoding"))
        });
        if !varies {
            headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_too_long_for_the_file_system_are_never_looked_up() {
        assert!(fits_the_file_system("/mg/cli/dmt.md"));
        assert!(fits_the_file_system(&format!(
            "/{}",
            "a".repeat(MAX_NAME_BYTES)
        )));
        assert!(!fits_the_file_system(&format!(
            "/{}",
            "a".repeat(MAX_NAME_BYTES + 1)
        )));
        // Counted decoded, as the file name it becomes: 100 escaped bytes are 100 bytes.
        assert!(fits_the_file_system(&format!("/{}", "%C3%A9".repeat(100))));
        assert!(!fits_the_file_system(&format!(
            "/x/{}",
            "%C3%A9".repeat(127)
        )));
        // Short segments, a long path.
        let deep = format!("/{}", ["abcdefgh"; 200].join("/"));
        assert!(!fits_the_file_system(&deep));
        assert!(fits_the_file_system(&deep[..MAX_LOOKUP_BYTES]));
    }

    /// The struct gives the bytes the `json!` map gave before it: every key when set, alphabetical.
    #[test]
    fn the_config_keeps_its_shape_byte_for_byte() {
        let mut config = Config::from_lookup(|_| None).expect("defaults");
        config.deployment_id = Some("d".into());
        config.deployment_flags = Some(r#"{"ethereal":true}"#.into());
        config.deployment_type = Some("telekinesis".into());
        config.identity_base_url = Some("https://id.example/".into());
        config.identity_project_id = Some("P2project".into());
        let all = RuntimeConfig {
            identity_emulator: Some(true),
            ..RuntimeConfig::of(&config)
        };
        assert_eq!(
            serde_json::to_string(&all).expect("JSON"),
            serde_json::json!({
                "sanctified": true,
                "identityProjectId": "P2project",
                "identityBaseUrl": "https://id.example",
                "identityEmulator": true,
                "deploymentId": "d",
                "deploymentFlags": r#"{"ethereal":true}"#,
                "deploymentType": "telekinesis",
            })
            .to_string()
        );
        let mut bare = Config::from_lookup(|_| None).expect("defaults");
        bare.identity_base_url = Some("https://id.example".into());
        bare.identity_project_id = None;
        assert_eq!(
            serde_json::to_string(&RuntimeConfig::of(&bare)).expect("JSON"),
            r#"{"identityBaseUrl":"https://id.example","sanctified":true}"#
        );
    }

    #[test]
    fn values_cannot_close_the_script_element() {
        let mut config = Config::from_lookup(|_| None).expect("defaults");
        config.deployment_id = Some("</script><script>alert(1)</script>".into());
        let script = runtime_config(&config);
        assert_eq!(script.matches("</script>").count(), 1, "{script}");
        let json = script
            .trim_start_matches(r#"<script type="application/json" id="mg-runtime-config">"#)
            .trim_end_matches("</script>");
        let parsed: serde_json::Value = serde_json::from_str(json).expect("still JSON");
        assert_eq!(parsed["deploymentId"], "</script><script>alert(1)</script>");
        assert_eq!(parsed["identityBaseUrl"], "");
        assert_eq!(parsed["identityProjectId"], "P2localemulator");
        assert_eq!(parsed["sanctified"], true);
    }
}

//! The app's documents: each public page prerendered in the variant that matches this server's
//! configuration (`pages.json`), the client shell (`index.html`) for personal routes and whatever
//! the build did not render, the not-found page with 404, the docs' Markdown twins, `llms.txt`,
//! `sitemap.xml` and `robots.txt`. Every document is filled in once and sent from memory with a
//! strong ETag (`rendered`); a rebuilt app is picked up without a restart (within a second: files
//! are looked at again at most once per `Config::static_recheck`).

pub mod manifest;
pub mod rendered;
mod respond;
mod twins;

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex, PoisonError, RwLock,
    },
};

use tokio::sync::{OnceCell, Semaphore};

use axum::{
    extract::Request,
    http::{header, HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
};

use self::{
    manifest::{RuntimeValues, Variant, PAGES_FILE},
    rendered::{FileStamp, Fill, Kind, Recheck, RenderCache, Rendered},
    respond::{respond, Extra},
    twins::Twins,
};
use super::{
    root::Root,
    route_manifest::{page_path, AppRoutes},
};
use crate::{config::Config, error::AppError, precomputed::negotiate};

const MARKDOWN: &str = "text/markdown; charset=utf-8";
const PLAIN_TEXT: &str = "text/plain; charset=utf-8";
const XML: &str = "application/xml";
/// Documents rendered at once, at most (each holds its text and its compressed copies while it is
/// made; the rest wait their turn instead of taking memory and both cores).
const MAX_RENDERS_AT_ONCE: usize = 2;
/// The docs live under this prefix; their pages have Markdown twins (`/mg/x` -> `/mg/x.md`).
const DOCS_PREFIX: &str = "/mg/";
/// One rendering under way: every request for its file waits on the same cell.
type Flight = Arc<OnceCell<Option<Arc<Rendered>>>>;

/// The manifest as last read, and what it was read from.
#[derive(Debug)]
struct Loaded {
    /// `None` before the first look; `Some(None)` while there is no manifest file.
    stamp: Option<Option<FileStamp>>,
    variant: Arc<Variant>,
    fill: Arc<Fill>,
}

/// Everything needed to answer for the app's documents.
#[derive(Debug)]
pub struct Site {
    root: Arc<Root>,
    runtime: RuntimeValues,
    routes: AppRoutes,
    sanctified: bool,
    /// The fill without the deployment id (which the manifest's build values may change).
    base_fill: Fill,
    /// `pages.json` of the build.
    manifest_path: PathBuf,
    loaded: RwLock<Loaded>,
    /// When `pages.json` was last looked at ([`Recheck::now_ms`]).
    manifest_checked_ms: AtomicU64,
    /// The docs pages' Markdown twins, as last looked at.
    twins: Twins,
    /// Bumped on every manifest change, so a rendering with old values is not kept.
    generation: AtomicU64,
    cache: RenderCache,
    /// Renderings under way, by file: concurrent first requests for one document share one
    /// rendering. Only files of the build are ever rendered, so this stays as small as the build.
    in_flight: Mutex<HashMap<PathBuf, Flight>>,
    renders: Semaphore,
    /// Renderings started since start (tests: one per document however many ask at once).
    renders_started: AtomicU64,
}

impl Site {
    pub fn new(root: Arc<Root>, config: &Config, runtime_script: &str) -> Self {
        let runtime = RuntimeValues::of(config);
        let base_fill = Fill {
            deployment_id_html: String::new(),
            site_url: config.public_url.clone(),
            runtime_script: runtime_script.to_owned(),
            identity_base_url: config.identity_base_url.clone(),
        };
        let variant = Variant::shell_only(&runtime);
        let fill = Fill {
            deployment_id_html: variant.deployment_id_html.clone(),
            ..base_fill.clone()
        };
        let site = Self {
            routes: AppRoutes::load(&root.dir),
            manifest_path: root.dir.join(PAGES_FILE),
            manifest_checked_ms: AtomicU64::new(Recheck::NEVER),
            twins: Twins::default(),
            root,
            runtime,
            sanctified: config.sanctified,
            base_fill,
            loaded: RwLock::new(Loaded {
                stamp: None,
                variant: Arc::new(variant),
                fill: Arc::new(fill),
            }),
            generation: AtomicU64::new(0),
            cache: RenderCache::new(config.static_recheck),
            in_flight: Mutex::new(HashMap::new()),
            renders: Semaphore::new(MAX_RENDERS_AT_ONCE),
            renders_started: AtomicU64::new(0),
        };
        site.current();
        site
    }

    /// The manifest in force, read again when `pages.json` changed on disk (looked at once per
    /// recheck interval).
    fn current(&self) -> (Arc<Variant>, Arc<Fill>) {
        let clock = self.cache.recheck();
        let now = clock.now_ms();
        if !clock.due(self.manifest_checked_ms.load(Ordering::Relaxed), now) {
            let loaded = self.loaded.read().unwrap_or_else(|p| p.into_inner());
            if loaded.stamp.is_some() {
                return (loaded.variant.clone(), loaded.fill.clone());
            }
        }
        let path = &self.manifest_path;
        let stamp = FileStamp::of(path);
        self.manifest_checked_ms.store(now, Ordering::Relaxed);
        {
            let loaded = self.loaded.read().unwrap_or_else(|p| p.into_inner());
            if loaded.stamp == Some(stamp) {
                return (loaded.variant.clone(), loaded.fill.clone());
            }
        }
        let mut loaded = self.loaded.write().unwrap_or_else(|p| p.into_inner());
        if loaded.stamp != Some(stamp) {
            let variant = self.read_manifest(path, stamp.is_some());
            loaded.fill = Arc::new(Fill {
                deployment_id_html: variant.deployment_id_html.clone(),
                ..self.base_fill.clone()
            });
            loaded.variant = Arc::new(variant);
            loaded.stamp = Some(stamp);
            self.generation.fetch_add(1, Ordering::Relaxed);
            self.cache.clear();
        }
        (loaded.variant.clone(), loaded.fill.clone())
    }

    /// Reads `pages.json`; without a usable one every page gets the shell, as before prerendering.
    /// Logged once per version of the file.
    fn read_manifest(&self, path: &Path, exists: bool) -> Variant {
        let fallback = || Variant::shell_only(&self.runtime);
        if !exists {
            tracing::warn!(path = %path.display(), "no prerender manifest in the built app; every page is served as the client shell (build the app: make app)");
            return fallback();
        }
        let text = match std::fs::metadata(path) {
            Ok(meta) if meta.len() > rendered::MAX_FILE_BYTES => Err("too large".to_owned()),
            _ => std::fs::read_to_string(path).map_err(|error| error.to_string()),
        };
        match text.and_then(|text| Variant::from_json(&text, &self.runtime)) {
            Ok(variant) => {
                match &variant.key {
                    Some(key) => {
                        let rendered = variant.pages.values().filter(|f| f.is_some()).count();
                        tracing::info!(%key, pages = variant.pages.len(), rendered, "prerendered pages: serving the variant of this configuration");
                        if rendered == 0 {
                            tracing::warn!(%key, "the build has no page of this configuration's variant; pages are served as the client shell");
                        }
                    }
                    None => tracing::warn!("sanctified mode without an identity project: every page is served as the client shell"),
                }
                variant
            }
            Err(error) => {
                tracing::error!(path = %path.display(), %error, "the prerender manifest is not valid; every page is served as the client shell (rebuild the app: make app)");
                fallback()
            }
        }
    }

    /// The filled-in `file`, from memory when it has not changed. A file not in memory is rendered
    /// once however many requests ask for it at the same time, and at most
    /// [`MAX_RENDERS_AT_ONCE`] files are rendered at once.
    async fn rendered(&self, file: PathBuf, kind: Kind, fill: &Arc<Fill>) -> Option<Arc<Rendered>> {
        if let Some(hit) = self.cache.fresh(&file) {
            return Some(hit);
        }
        let flight = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(file.clone())
            .or_default()
            .clone();
        let rendered = flight
            .get_or_init(|| async {
                let _turn = self.renders.acquire().await.ok()?;
                // Another flight of this file may have finished while this one waited.
                if let Some(hit) = self.cache.fresh(&file) {
                    return Some(hit);
                }
                self.render_now(file.clone(), kind, fill).await
            })
            .await
            .clone();
        let mut in_flight = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if in_flight
            .get(&file)
            .is_some_and(|current| Arc::ptr_eq(current, &flight))
        {
            in_flight.remove(&file);
        }
        rendered
    }

    async fn render_now(
        &self,
        file: PathBuf,
        kind: Kind,
        fill: &Arc<Fill>,
    ) -> Option<Arc<Rendered>> {
        self.renders_started.fetch_add(1, Ordering::Relaxed);
        let generation = self.generation.load(Ordering::Relaxed);
        let (root, fill, path) = (self.root.clone(), fill.clone(), file.clone());
        let rendered = tokio::task::spawn_blocking(move || {
            if root.escapes_blocking(&path) {
                tracing::warn!(path = %path.display(), "refused: a symlink out of STATIC_DIR");
                return None;
            }
            Rendered::render(&path, kind, &fill)
        })
        .await
        .ok()??;
        if generation == self.generation.load(Ordering::Relaxed) {
            Some(self.cache.keep(&file, rendered))
        } else {
            Some(Arc::new(rendered))
        }
    }

    /// The HTML document for `path`: the prerendered `file` if it can be had, else the shell. A
    /// docs page (`ok` status, under `/mg/`) varies on `Accept`, links its Markdown twin, and is
    /// answered with the twin when the request prefers Markdown.
    async fn document(
        &self,
        path: &str,
        file: Option<&str>,
        status: StatusCode,
        request: &HeaderMap,
        fill: &Arc<Fill>,
    ) -> Response {
        let docs =
            status == StatusCode::OK && path.starts_with(DOCS_PREFIX) && !path.ends_with('/');
        let twin = if docs {
            self.twins.of(path, &self.root, self.cache.recheck())
        } else {
            None
        };
        let mut extra = Extra {
            status,
            vary_accept: docs,
            link: None,
            content_location: None,
            isolated: status == StatusCode::OK && self.routes.is_isolated(path),
        };
        if let Some(twin) = twin {
            if negotiate::prefers_markdown(request) {
                if let Some(markdown) = self
                    .rendered(twin.file.clone(), Kind::Text(MARKDOWN), fill)
                    .await
                {
                    extra.content_location = Some(twin.location.clone());
                    return respond(&markdown, request, extra);
                }
            }
            extra.link = Some(twin.link.clone());
        }
        let prerendered = match file {
            Some(file) => {
                let page = self
                    .rendered(self.root.dir.join(file), Kind::Html, fill)
                    .await;
                if page.is_none() {
                    tracing::error!(%path, %file, "a prerendered page named in pages.json cannot be served; sending the shell");
                }
                page
            }
            None => None,
        };
        let page = match prerendered {
            Some(page) => Some(page),
            None => {
                self.rendered(self.root.dir.join("index.html"), Kind::Html, fill)
                    .await
            }
        };
        match page {
            Some(page) => respond(&page, request, extra),
            None => AppError::NotFound.into_response(),
        }
    }

    /// A path no file answered: an app route gets its prerendered frame where the build made one (a
    /// sign-in route, which is an app route only in sanctified mode) and the shell otherwise (200),
    /// anything else the not-found page with 404.
    pub async fn fallback(self: Arc<Self>, request: Request) -> Response {
        let (variant, fill) = self.current();
        let path = request.uri().path();
        if self.routes.is_app_route(path, self.sanctified) {
            let frame = variant.signed_in.get(page_path(path)).map(String::as_str);
            self.document(path, frame, StatusCode::OK, request.headers(), &fill)
                .await
        } else {
            let file = variant.not_found.as_deref();
            self.document(path, file, StatusCode::NOT_FOUND, request.headers(), &fill)
                .await
        }
    }

    /// `/index.html`: the shell.
    pub async fn shell(self: Arc<Self>, request: Request) -> Response {
        let (_, fill) = self.current();
        self.document(
            "/index.html",
            None,
            StatusCode::OK,
            request.headers(),
            &fill,
        )
        .await
    }
}

/// Before any file: redirects, prerendered pages, and the text files the server fills in; the
/// request back (`Err`) when it asks for none of these.
pub async fn document_first(site: &Arc<Site>, request: Request) -> Result<Response, Request> {
    // The build's hashed assets are files, never documents: no manifest lookup for them.
    if !matches!(*request.method(), Method::GET | Method::HEAD)
        || request.uri().path().starts_with("/assets/")
    {
        return Err(request);
    }
    let (variant, fill) = site.current();
    let path = request.uri().path();
    if let Some(target) = variant.redirects.get(path) {
        let location = match request.uri().query() {
            Some(query) => format!("{target}?{query}"),
            None => target.clone(),
        };
        if let Ok(location) = HeaderValue::from_str(&location) {
            return Ok((
                StatusCode::PERMANENT_REDIRECT,
                [(header::LOCATION, location)],
            )
                .into_response());
        }
    }
    if let Some(content_type) = text_type(path) {
        if let Some(file) = site.root.file_for(path) {
            if let Some(text) = site.rendered(file, Kind::Text(content_type), &fill).await {
                return Ok(respond(
                    &text,
                    request.headers(),
                    Extra::status(StatusCode::OK),
                ));
            }
        }
    }
    // The prerendered files are documents only once filled in, at their own paths: fetched raw
    // they would show placeholders and carry no runtime configuration. Such a path is not found.
    if path.starts_with("/pages/") {
        return Ok(site.clone().fallback(request).await);
    }
    if let Some(file) = variant.pages.get(path) {
        return Ok(site
            .document(
                path,
                file.as_deref(),
                StatusCode::OK,
                request.headers(),
                &fill,
            )
            .await);
    }
    Err(request)
}

/// The files the server fills in (`__MG_SITE_URL__`) and their types.
fn text_type(path: &str) -> Option<&'static str> {
    match path {
        "/llms.txt" | "/llms-full.txt" | "/robots.txt" => Some(PLAIN_TEXT),
        "/sitemap.xml" => Some(XML),
        _ if path.ends_with(".md") => Some(MARKDOWN),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_first_requests_for_a_document_render_it_once() {
        // Before: 200 simultaneous first requests for /llms-full.txt each rendered (and
        // compressed) their own copy: 416 MB of memory and /health at 2.7 s.
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("llms-full.txt");
        std::fs::write(&file, "The mg docs, every page. ".repeat(40_000)).expect("write");
        let config = Config::from_lookup(|_| None).expect("defaults");
        let site = Arc::new(Site::new(Arc::new(Root::new(dir.path())), &config, ""));
        let (_, fill) = site.current();
        let requests: Vec<_> = (0..100)
            .map(|_| {
                let (site, fill, file) = (site.clone(), fill.clone(), file.clone());
                tokio::spawn(async move {
                    site.rendered(file, Kind::Text(PLAIN_TEXT), &fill)
                        .await
                        .map(|rendered| {
                            rendered
                                .encoded(negotiate::Encoding::Identity)
                                .0
                                .etag
                                .clone()
                        })
                })
            })
            .collect();
        let mut tags = Vec::new();
        for request in requests {
            tags.push(request.await.expect("joined").expect("rendered"));
        }
        assert!(tags.windows(2).all(|pair| pair[0] == pair[1]));
        assert_eq!(site.renders_started.load(Ordering::Relaxed), 1);
        assert!(site.in_flight.lock().expect("lock").is_empty());
    }
}

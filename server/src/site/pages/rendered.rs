//! Each file the server fills in (a page, the shell, a Markdown twin, the sitemap) rendered once
//! into memory: the final bytes, their strong ETag and CSP, and gzip and Brotli copies. An entry is
//! made again when its file changes on disk (length, modification time or inode), so a rebuilt app
//! is served without a restart. A file is looked at again at most once per [`Recheck`] interval
//! (a second in production), not on every request: a `stat` per file per request was a third of a
//! page's cost.

use std::{
    collections::HashMap,
    path::Path,
    sync::{
        atomic::{AtomicU64, Ordering::Relaxed},
        Arc, RwLock,
    },
    time::{Duration, Instant, SystemTime},
};

use axum::{
    body::Bytes,
    http::{HeaderValue, StatusCode},
    response::Response,
};

use crate::{
    edge::hardening,
    precomputed::{Compress, Encoded, Encoding, Precomputed},
};

/// At most this many files are kept (a build has a few hundred).
const MAX_ENTRIES: usize = 2048;
/// At most this many bytes are kept, all copies counted.
const MAX_BYTES: usize = 256 * 1024 * 1024;
/// A file larger than this is not filled in at all (the build writes none near it).
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// How often what was learnt of a file on disk is looked at again: at most once per interval (zero:
/// on every use, as the tests that rewrite files ask for).
#[derive(Debug)]
pub struct Recheck {
    started: Instant,
    every_ms: u64,
}

impl Recheck {
    pub fn new(every: Duration) -> Self {
        Self {
            started: Instant::now(),
            every_ms: u64::try_from(every.as_millis()).unwrap_or(u64::MAX),
        }
    }

    /// Milliseconds since this clock was made (never [`Self::NEVER`]).
    pub fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX - 1)
    }

    /// The time of a look that never happened.
    pub const NEVER: u64 = u64::MAX;

    /// Whether something last looked at `at` is due for another look at `now`.
    pub fn due(&self, at: u64, now: u64) -> bool {
        at == Self::NEVER || self.every_ms == 0 || now.saturating_sub(at) >= self.every_ms
    }
}

/// What identifies one version of a file on disk, read with one `stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl FileStamp {
    /// The stamp of the regular file at `path` (links followed); `None` when there is none.
    pub fn of(path: &Path) -> Option<Self> {
        let metadata = std::fs::metadata(path).ok()?;
        if !metadata.is_file() {
            return None;
        }
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&metadata);
        #[cfg(not(unix))]
        let inode = 0;
        Some(Self {
            len: metadata.len(),
            modified: metadata.modified().ok(),
            inode,
        })
    }
}

/// How a file is filled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An HTML document: placeholders, the runtime config, and a CSP of the result.
    Html,
    /// Markdown, plain text or XML: the site URL only.
    Text(&'static str),
}

/// The values filled into the files.
#[derive(Debug, Clone)]
pub struct Fill {
    /// `__MG_DEPLOYMENT_ID__` (already HTML-escaped).
    pub deployment_id_html: String,
    /// `__MG_SITE_URL__`.
    pub site_url: String,
    /// The runtime-config script put before `</head>`.
    pub runtime_script: String,
    /// Joins the CSP's `connect-src`.
    pub identity_base_url: Option<String>,
}

/// A file ready to send.
#[derive(Debug)]
pub struct Rendered {
    stamp: FileStamp,
    /// When `stamp` was last compared with the file ([`Recheck::now_ms`]).
    checked_ms: AtomicU64,
    pub content_type: HeaderValue,
    /// For HTML: the policy allowing exactly the inline scripts of the body.
    pub csp: Option<HeaderValue>,
    /// The body and its compressed copies.
    pub copies: Precomputed,
}

impl Rendered {
    /// The copy for `encoding`, with its `Content-Encoding`, or the plain one.
    pub fn encoded(&self, encoding: Encoding) -> (&Encoded, Option<&'static str>) {
        self.copies.encoded(encoding)
    }

    /// Every tag this file is sent with (one per encoding).
    pub fn etags(&self) -> Vec<&HeaderValue> {
        self.copies.etags()
    }

    /// `status` (or 304) in the encoding asked for; see [`Precomputed::answer`].
    pub fn answer<'a>(
        &self,
        status: StatusCode,
        encoding: Encoding,
        if_none_match: impl IntoIterator<Item = &'a HeaderValue>,
    ) -> Response {
        self.copies
            .answer(status, self.content_type.clone(), encoding, if_none_match)
    }

    fn size(&self) -> usize {
        self.copies.size()
    }

    /// Reads and fills in `path`. `None` when it cannot be read as UTF-8 text or is too large.
    pub fn render(path: &Path, kind: Kind, fill: &Fill) -> Option<Self> {
        // Stamped before reading: a change while reading makes the next request render again.
        let stamp = FileStamp::of(path)?;
        if stamp.len > MAX_FILE_BYTES {
            tracing::error!(path = %path.display(), "not served: larger than {MAX_FILE_BYTES} bytes");
            return None;
        }
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) => {
                tracing::error!(path = %path.display(), %error, "cannot read a file of the app");
                return None;
            }
        };
        let text = text.replace("__MG_SITE_URL__", &fill.site_url);
        let (body, csp, content_type) = match kind {
            Kind::Html => {
                let text = text.replace("__MG_DEPLOYMENT_ID__", &fill.deployment_id_html);
                let html = inject(&text, &fill.runtime_script);
                let csp = hardening::csp_for(&html, fill.identity_base_url.as_deref());
                (html, Some(csp), "text/html; charset=utf-8")
            }
            Kind::Text(content_type) => (text, None, content_type),
        };
        Some(Self {
            stamp,
            checked_ms: AtomicU64::new(Recheck::NEVER),
            content_type: HeaderValue::from_static(content_type),
            csp,
            // The best Brotli costs tens of milliseconds for a page, once per build.
            copies: Precomputed::new(Bytes::from(body), Compress::ONCE),
        })
    }
}

/// Puts `script` before `</head>` (or at the end when the document has no head).
fn inject(html: &str, script: &str) -> String {
    match html.find("</head>") {
        Some(at) => format!("{}{script}{}", &html[..at], &html[at..]),
        None => format!("{html}{script}"),
    }
}

/// The key of `path` in the cache.
fn key(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

/// The rendered files, by path. Cleared when the manifest changes (the filled-in values may have).
/// The files are the build's (a request names a path, never new content), and still the cache is
/// capped: beyond `max_entries` files or `max_bytes`, a rendering is served but not kept.
#[derive(Debug)]
pub struct RenderCache {
    /// By the path's bytes (hashed as one string, not component by component as a `Path` is).
    entries: RwLock<HashMap<Box<[u8]>, Arc<Rendered>>>,
    max_entries: usize,
    max_bytes: usize,
    recheck: Recheck,
}

impl RenderCache {
    /// A cache whose files are looked at again at most once per `recheck`.
    pub fn new(recheck: Duration) -> Self {
        Self::with_limits(MAX_ENTRIES, MAX_BYTES, recheck)
    }

    fn with_limits(max_entries: usize, max_bytes: usize, recheck: Duration) -> Self {
        Self {
            entries: RwLock::default(),
            max_entries,
            max_bytes,
            recheck: Recheck::new(recheck),
        }
    }

    /// The clock of the rechecks.
    pub fn recheck(&self) -> &Recheck {
        &self.recheck
    }

    /// The kept rendering of `path` if the file has not changed since it was last looked at (when
    /// that was longer ago than the recheck interval, it is looked at now).
    pub fn fresh(&self, path: &Path) -> Option<Arc<Rendered>> {
        let entry = self
            .entries
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(key(path))
            .cloned()?;
        let now = self.recheck.now_ms();
        if !self.recheck.due(entry.checked_ms.load(Relaxed), now) {
            return Some(entry);
        }
        if FileStamp::of(path)? != entry.stamp {
            return None;
        }
        entry.checked_ms.store(now, Relaxed);
        Some(entry)
    }

    /// Keeps `rendered` for `path` unless the cache is full (then it is served but not kept).
    pub fn keep(&self, path: &Path, rendered: Rendered) -> Arc<Rendered> {
        rendered.checked_ms.store(self.recheck.now_ms(), Relaxed);
        let rendered = Arc::new(rendered);
        let mut entries = self
            .entries
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        entries.remove(key(path));
        let used: usize = entries.values().map(|entry| entry.size()).sum();
        if entries.len() < self.max_entries && used + rendered.size() <= self.max_bytes {
            entries.insert(key(path).into(), rendered.clone());
        } else {
            tracing::warn!(path = %path.display(), "page cache full: served without keeping it");
        }
        rendered
    }

    pub fn clear(&self) {
        self.entries
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
    }

    /// How many files are kept (for tests).
    pub fn len(&self) -> usize {
        self.entries
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_goes_before_the_end_of_head() {
        assert_eq!(
            inject(
                "<html><head><title>t</title></head><body></body>",
                "<s></s>"
            ),
            "<html><head><title>t</title><s></s></head><body></body>"
        );
        assert_eq!(inject("<div></div>", "<s></s>"), "<div></div><s></s>");
    }

    fn fill() -> Fill {
        Fill {
            deployment_id_html: "&lt;b&gt;".into(),
            site_url: "https://mg.example".into(),
            runtime_script: "<script type=\"application/json\">{}</script>".into(),
            identity_base_url: None,
        }
    }

    /// A file `name` holding `text`, in a temporary folder that lives as long as the first half.
    fn written(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join(name);
        std::fs::write(&file, text).expect("write");
        (dir, file)
    }

    /// `file` (Markdown) rendered.
    fn markdown(file: &std::path::Path) -> Rendered {
        Rendered::render(file, Kind::Text("text/markdown"), &fill()).expect("renders")
    }

    #[test]
    fn placeholders_are_filled_and_copies_decode_to_the_same_bytes() {
        let html = format!(
            "<html><head><link rel=canonical href=\"__MG_SITE_URL__/x\"><script>a()</script></head><body>__MG_DEPLOYMENT_ID__ {}</body></html>",
            "text ".repeat(100)
        );
        let (_dir, page) = written("page.html", &html);
        let rendered = Rendered::render(&page, Kind::Html, &fill()).expect("renders");
        let (plain, encoding) = rendered.encoded(Encoding::Identity);
        assert_eq!(encoding, None);
        let text = std::str::from_utf8(&plain.body).expect("utf-8");
        assert!(text.contains("href=\"https://mg.example/x\""), "{text}");
        assert!(text.contains("<body>&lt;b&gt; "), "{text}");
        assert!(text.contains("{}</script></head>"), "{text}");
        let csp = rendered.csp.as_ref().expect("csp").to_str().expect("ascii");
        assert!(csp.contains("'sha256-"), "{csp}");

        assert_eq!(
            crate::precomputed::decoded_copies(&rendered.copies),
            [text.as_bytes(), text.as_bytes()]
        );
        let tags = rendered.etags();
        assert_eq!(tags.len(), 3);
        assert!(tags.iter().all(|tag| tag.as_bytes().starts_with(b"\"")));
        assert_ne!(tags[0], tags[1]);
    }

    #[test]
    fn text_gets_the_site_url_only() {
        let text = "Sitemap: __MG_SITE_URL__/sitemap.xml __MG_DEPLOYMENT_ID__";
        let (_dir, file) = written("robots.txt", text);
        let rendered = Rendered::render(&file, Kind::Text("text/plain"), &fill()).expect("renders");
        assert_eq!(
            &rendered.encoded(Encoding::Identity).0.body[..],
            b"Sitemap: https://mg.example/sitemap.xml __MG_DEPLOYMENT_ID__"
        );
        assert!(rendered.csp.is_none());
    }

    #[test]
    fn a_full_cache_serves_without_keeping() {
        let dir = tempfile::tempdir().expect("dir");
        let cache = RenderCache::with_limits(2, 1_000, Duration::ZERO);
        let mut paths = Vec::new();
        for name in ["a.md", "b.md", "c.md"] {
            let file = dir.path().join(name);
            std::fs::write(&file, format!("# {name}")).expect("write");
            let rendered = markdown(&file);
            let served = cache.keep(&file, rendered);
            assert_eq!(
                &served.encoded(Encoding::Identity).0.body[..],
                format!("# {name}").as_bytes()
            );
            paths.push(file);
        }
        assert_eq!(cache.len(), 2);
        assert!(cache.fresh(&paths[2]).is_none(), "the third was not kept");
        // Made again, a kept file replaces its old rendering rather than counting twice.
        let again = markdown(&paths[0]);
        cache.keep(&paths[0], again);
        assert_eq!(cache.len(), 2);
        // Bytes count too.
        let big = dir.path().join("big.md");
        std::fs::write(&big, "x".repeat(2_000)).expect("write");
        let small_cache = RenderCache::with_limits(10, 1_000, Duration::ZERO);
        let rendered = markdown(&big);
        small_cache.keep(&big, rendered);
        assert!(small_cache.is_empty());
    }

    #[test]
    fn a_kept_rendering_is_fresh_until_the_file_changes() {
        let (_dir, file) = written("a.md", "# one");
        let cache = RenderCache::new(Duration::ZERO);
        assert!(cache.fresh(&file).is_none());
        let rendered = markdown(&file);
        cache.keep(&file, rendered);
        assert!(cache.fresh(&file).is_some());
        std::fs::write(&file, "# two, longer").expect("rewrite");
        assert!(cache.fresh(&file).is_none());
        std::fs::remove_file(&file).expect("rm");
        assert!(cache.fresh(&file).is_none());
        cache.clear();
        assert!(cache.is_empty());
    }

    #[test]
    fn a_file_is_looked_at_again_only_once_per_recheck_interval() {
        let (_dir, file) = written("a.md", "# one");
        let cache = RenderCache::new(Duration::from_millis(300));
        let rendered = markdown(&file);
        cache.keep(&file, rendered);
        std::fs::write(&file, "# two, longer").expect("rewrite");
        // Within the interval the file is not looked at: the kept rendering stands.
        assert!(cache.fresh(&file).is_some());
        std::thread::sleep(Duration::from_millis(350));
        assert!(
            cache.fresh(&file).is_none(),
            "the change is seen after the interval"
        );
    }
}

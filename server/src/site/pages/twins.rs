//! The docs pages' Markdown twins (`/mg/x` -> `/mg/x.md`): which pages have one, remembered for a
//! recheck interval and for at most [`MAX_TWINS_KNOWN`] paths (clients can make up any number).

use std::{
    collections::HashMap,
    path::PathBuf,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, PoisonError, RwLock,
    },
};

use axum::http::HeaderValue;

use super::rendered::{FileStamp, Recheck};
use crate::site::root::Root;

/// Docs paths whose twin (or its absence) is remembered; the docs have a few hundred pages, and a
/// path beyond this many is looked up on disk every time.
pub(super) const MAX_TWINS_KNOWN: usize = 4096;

/// A docs page's Markdown twin: its file, and the headers that name it.
#[derive(Debug)]
pub(super) struct Twin {
    pub(super) file: PathBuf,
    /// `Link: </mg/x.md>; rel="alternate"; type="text/markdown"` on the HTML.
    pub(super) link: HeaderValue,
    /// `Content-Location: /mg/x.md` on the Markdown sent for `/mg/x`.
    pub(super) location: HeaderValue,
}

/// A docs path's twin (`None`: it has none), and when that was last looked at.
type KnownTwin = (Option<Arc<Twin>>, AtomicU64);

/// Docs paths and their twins, with when each was last looked at.
#[derive(Debug, Default)]
pub(super) struct Twins(RwLock<HashMap<String, KnownTwin>>);

impl Twins {
    /// The Markdown twin of the docs page at `path` when the build has one, as last looked at
    /// (once per recheck interval; beyond [`MAX_TWINS_KNOWN`] paths, every time).
    pub(super) fn of(&self, path: &str, root: &Root, clock: &Recheck) -> Option<Arc<Twin>> {
        let now = clock.now_ms();
        if let Some((twin, checked)) = self
            .0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(path)
        {
            if !clock.due(checked.load(Ordering::Relaxed), now) {
                return twin.clone();
            }
        }
        let url = format!("{path}.md");
        let twin = root
            .file_for(&url)
            .filter(|file| FileStamp::of(file).is_some())
            .and_then(|file| {
                Some(Arc::new(Twin {
                    link: HeaderValue::from_str(&format!(
                        "<{url}>; rel=\"alternate\"; type=\"text/markdown\""
                    ))
                    .ok()?,
                    location: HeaderValue::from_str(&url).ok()?,
                    file,
                }))
            });
        let mut twins = self.0.write().unwrap_or_else(PoisonError::into_inner);
        if twins.len() < MAX_TWINS_KNOWN || twins.contains_key(path) {
            twins.insert(path.to_owned(), (twin.clone(), AtomicU64::new(now)));
        }
        twin
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.0.read().unwrap_or_else(PoisonError::into_inner).len()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_twins_remembered_are_bounded_and_a_path_beyond_the_bound_is_still_answered() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("mg")).expect("mkdir");
        std::fs::write(dir.path().join("mg/a.md"), "# A").expect("write");
        let root = Root::new(dir.path());
        let clock = Recheck::new(Duration::from_secs(1));
        let twins = Twins::default();
        let twin = twins.of("/mg/a", &root, &clock).expect("a twin");
        assert_eq!(twin.location, "/mg/a.md");
        // Paths a client makes up: each is looked up, but at most MAX_TWINS_KNOWN are remembered.
        for n in 0..MAX_TWINS_KNOWN + 500 {
            assert!(twins
                .of(&format!("/mg/made-up-{n}"), &root, &clock)
                .is_none());
        }
        assert_eq!(twins.len(), MAX_TWINS_KNOWN);
        assert!(
            twins.of("/mg/a", &root, &clock).is_some(),
            "a remembered path keeps its answer"
        );
        // Beyond the bound nothing is remembered: a twin that appears is seen at once.
        std::fs::write(dir.path().join("mg/late.md"), "# Late").expect("write");
        assert!(twins.of("/mg/late", &root, &clock).is_some());
        // Within the recheck interval (a second here) a remembered absence stands.
        let remembered = "/mg/made-up-0";
        std::fs::write(dir.path().join("mg/made-up-0.md"), "# Now").expect("write");
        assert!(twins.of(remembered, &root, &clock).is_none());
    }
}

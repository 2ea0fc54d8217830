//! The app's route table as the app's build wrote it (`routes.json` in the built app, generated from
//! `app/common/routes.ts`), so a path the app does not answer gets a real HTTP 404 while the app still
//! loads to show its 404 page, and the pages the table marks isolated are sent cross-origin isolated.
//! There is no copy of the table on this side.

use std::{collections::HashSet, path::Path};

use serde::Deserialize;

/// The manifest's name inside the built app.
pub const MANIFEST_FILE: &str = "routes.json";

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Manifest {
    /// Answered in every mode.
    public: HashSet<String>,
    /// Answered only in sanctified mode (spec 2.1: `/auth/callback`, `/home`).
    signed_in: HashSet<String>,
    /// Sent cross-origin isolated (the graphics bench, whose timings need the fine
    /// `performance.now()` only an isolated page gets); a manifest without the list isolates none.
    #[serde(default)]
    isolated: HashSet<String>,
}

/// Which paths are the app's.
#[derive(Debug, Clone)]
pub struct AppRoutes {
    /// `None` when the build has no usable manifest: then every path is taken to be the app's (status
    /// 200, the app decides), as before the manifest existed, rather than 404 for every page.
    manifest: Option<Manifest>,
}

impl AppRoutes {
    /// Reads `static_dir/routes.json`, once at start. A missing or unreadable manifest is logged.
    pub fn load(static_dir: &Path) -> Self {
        let path = static_dir.join(MANIFEST_FILE);
        let manifest = match std::fs::read_to_string(&path) {
            Ok(text) => match serde_json::from_str::<Manifest>(&text) {
                Ok(manifest) => Some(manifest),
                Err(error) => {
                    tracing::error!(path = %path.display(), %error, "the app's route manifest is not valid; every path is answered as an app page (rebuild the app: make app)");
                    None
                }
            },
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "no route manifest in the built app; every path is answered as an app page (build the app: make app)");
                None
            }
        };
        Self { manifest }
    }

    /// Whether the app answers `path` (one trailing slash ignored). The sign-in routes count only in
    /// sanctified mode.
    pub fn is_app_route(&self, path: &str, sanctified: bool) -> bool {
        let Some(manifest) = &self.manifest else {
            return true;
        };
        let path = page_path(path);
        path == "/index.html"
            || manifest.public.contains(path)
            || (sanctified && manifest.signed_in.contains(path))
    }

    /// Whether the page at `path` (one trailing slash ignored) is sent with
    /// `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`.
    /// Everything such a page loads is same-origin, so `require-corp` blocks nothing; other pages keep
    /// the defaults (isolation would cut them off from cross-origin popups such as an identity
    /// provider's). Without a manifest, none is.
    pub fn is_isolated(&self, path: &str) -> bool {
        self.manifest
            .as_ref()
            .is_some_and(|manifest| manifest.isolated.contains(page_path(path)))
    }
}

/// The page `path` names: a page's path with one trailing slash is that page (`/mg/overview/` is
/// `/mg/overview`), answered as it is rather than redirected; `/` stays `/`.
pub fn page_path(path: &str) -> &str {
    match path.strip_suffix('/') {
        Some(trimmed) if !trimmed.is_empty() => trimmed,
        _ => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routes(json: &str) -> AppRoutes {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join(MANIFEST_FILE), json).expect("write manifest");
        AppRoutes::load(dir.path())
    }

    #[test]
    fn paths_of_the_manifest_are_the_apps_and_nothing_else() {
        let routes = routes(r#"{"public": ["/", "/mg/overview"], "signedIn": ["/home"]}"#);
        for path in ["/", "/mg/overview", "/mg/overview/", "/index.html", "/home"] {
            assert!(routes.is_app_route(path, true), "{path}");
        }
        for path in ["/nope", "/mg/overview/extra", "/mg", "/home/x"] {
            assert!(!routes.is_app_route(path, true), "{path}");
        }
    }

    #[test]
    fn sign_in_routes_exist_only_in_sanctified_mode() {
        let routes = routes(r#"{"public": ["/"], "signedIn": ["/home", "/auth/callback"]}"#);
        assert!(!routes.is_app_route("/home", false));
        assert!(!routes.is_app_route("/auth/callback", false));
        assert!(routes.is_app_route("/", false));
    }

    #[test]
    fn isolated_pages_are_the_manifests() {
        let built =
            routes(r#"{"public": ["/", "/bench"], "signedIn": [], "isolated": ["/bench"]}"#);
        assert!(built.is_isolated("/bench"));
        assert!(built.is_isolated("/bench/"));
        assert!(!built.is_isolated("/"));
        assert!(!built.is_isolated("/bench/extra"));
        let without_list = routes(r#"{"public": ["/bench"], "signedIn": []}"#);
        assert!(!without_list.is_isolated("/bench"));
        assert!(!AppRoutes::load(Path::new("/nonexistent/mg-build")).is_isolated("/bench"));
    }

    #[test]
    fn without_a_usable_manifest_every_path_is_the_apps() {
        let missing = AppRoutes::load(Path::new("/nonexistent/mg-build"));
        assert!(missing.is_app_route("/anything", true));
        assert!(routes("{not json").is_app_route("/anything", false));
    }
}

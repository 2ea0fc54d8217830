//! The app's route table (spec 2.1), so unknown paths get a real HTTP 404 while the SPA shows its 404 page.

/// Docs tabs under `/mg/{tab}`: one per page in `app/src/content/docs/` (checked by a test).
pub const DOCS_TABS: &[&str] = &[
    "overview",
    "quickstart",
    "flow",
    "configuration",
    "cli",
    "safety",
    "esp",
    "dream",
    "dmt",
    "lsd",
];

/// Subtabs under `/mg/cli/{subtab}`.
pub const CLI_SUBTABS: &[&str] = &["main", "dmt", "lsd"];

/// Whether the app answers `path`. `/auth/callback` and `/home` exist only in sanctified mode.
pub fn is_app_route(path: &str, sanctified: bool) -> bool {
    let path = match path.strip_suffix('/') {
        Some(trimmed) if !trimmed.is_empty() => trimmed,
        _ => path,
    };
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    match segments.as_slice() {
        [""] | ["apotheosis"] | ["mg"] | ["metagenesis"] | ["telekinesis"] | ["docs"] => true,
        ["index.html"] => true,
        ["auth", "callback"] | ["home"] => sanctified,
        ["mg", tab] => DOCS_TABS.contains(tab),
        ["mg", "cli", subtab] => CLI_SUBTABS.contains(subtab),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_of_the_table_is_known() {
        for path in [
            "/",
            "/apotheosis",
            "/mg",
            "/metagenesis",
            "/mg/overview",
            "/mg/cli",
            "/mg/cli/main",
            "/mg/cli/dmt",
            "/mg/cli/lsd",
            "/telekinesis",
            "/docs",
            "/auth/callback",
            "/home",
            "/mg/overview/",
        ] {
            assert!(is_app_route(path, true), "{path}");
        }
    }

    #[test]
    fn unknown_paths_tabs_and_subtabs_are_not() {
        for path in [
            "/nope",
            "/mg/nope",
            "/mg/cli/zzz",
            "/mg/overview/extra",
            "/home/x",
            "/telekinesis/lsd",
        ] {
            assert!(!is_app_route(path, true), "{path}");
        }
    }

    #[test]
    fn sign_in_routes_exist_only_in_sanctified_mode() {
        assert!(!is_app_route("/home", false));
        assert!(!is_app_route("/auth/callback", false));
        assert!(is_app_route("/", false));
    }

    #[test]
    fn the_docs_tabs_match_the_docs_pages_of_the_app() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../app/src/content/docs");
        let mut pages: Vec<String> = std::fs::read_dir(dir)
            .expect("the app's docs folder")
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                name.strip_suffix(".md").map(str::to_owned)
            })
            .collect();
        pages.sort();
        let mut tabs: Vec<String> = DOCS_TABS.iter().map(|t| t.to_string()).collect();
        tabs.sort();
        assert_eq!(
            tabs, pages,
            "server/src/app_routes.rs DOCS_TABS must list every docs page"
        );
    }
}

//! The prerender manifest the app's build writes (`pages.json`, app/common/PRERENDER-CONTRACT.md) and the one
//! variant of it this server serves: the variant key is computed from this server's configuration,
//! falling back to the build's `VITE_*` values, by the rules the browser applies (`mg-domain`).

use std::collections::HashMap;

use mg_domain::{effective_deployment_id, DeploymentFlags, DeploymentType, ResolvedDeployment};
use serde::Deserialize;

use crate::config::Config;

/// The manifest's name inside the built app.
pub const PAGES_FILE: &str = "pages.json";
/// The only manifest format this server reads.
const VERSION: u32 = 1;

/// `pages.json` as the build writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PagesFile {
    version: u32,
    #[serde(default)]
    build: BuildValues,
    #[serde(default)]
    redirects: HashMap<String, String>,
    #[serde(default)]
    pages: HashMap<String, HashMap<String, String>>,
    #[serde(default)]
    signed_in: HashMap<String, HashMap<String, String>>,
    #[serde(default)]
    not_found: HashMap<String, String>,
}

/// The `VITE_*` values the build was made with (absent when unset).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildValues {
    pub sanctified: Option<bool>,
    pub deployment_type: Option<String>,
    pub deployment_flags: Option<String>,
    pub deployment_id: Option<String>,
}

/// What this server hands the app at run time (`static_files::runtime_config`), as far as it
/// decides which prerendered variant fits.
#[derive(Debug, Clone, Default)]
pub struct RuntimeValues {
    /// Always given: the server injects `sanctified` into every page.
    pub sanctified: Option<bool>,
    /// `identityEmulator: true` is injected (the emulator runs on a public address on purpose).
    pub emulator_marker: bool,
    /// An identity project id is injected.
    pub identity_project: bool,
    pub deployment_type: Option<String>,
    pub deployment_flags: Option<String>,
    pub deployment_id: Option<String>,
}

impl RuntimeValues {
    pub fn of(config: &Config) -> Self {
        Self {
            sanctified: Some(config.sanctified),
            emulator_marker: config.shows_emulator_marker(),
            identity_project: config.effective_identity_project_id().is_some(),
            deployment_type: config.deployment_type.clone(),
            deployment_flags: config.deployment_flags.clone(),
            deployment_id: config.deployment_id.clone(),
        }
    }
}

/// The app's rule (app/src/config/env.ts): a runtime value beats the build's; blank counts as unset.
fn effective<'a>(runtime: Option<&'a str>, build: Option<&'a str>) -> Option<&'a str> {
    let text = |value: Option<&'a str>| value.map(str::trim).filter(|v| !v.is_empty());
    text(runtime).or(text(build))
}

/// Reads the flags JSON as the browser core does, by `mg_domain::DeploymentFlags`' rule: blank or
/// unreadable -> the defaults.
fn read_flags(raw: Option<&str>) -> DeploymentFlags {
    raw.and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_default()
}

/// The variant key `{nav}-{type}-{a}{s}{e}` (app/common/PRERENDER-CONTRACT.md), or `None` when sanctified
/// mode is on without an identity project (the app then shows only its configuration notice:
/// the shell is served).
pub fn variant_key(runtime: &RuntimeValues, build: &BuildValues) -> Option<String> {
    let sanctified = runtime.sanctified.or(build.sanctified).unwrap_or(true);
    if sanctified && !runtime.identity_project {
        return None;
    }
    let nav = match (sanctified, runtime.emulator_marker) {
        (false, _) => "open",
        (true, true) => "emulator",
        (true, false) => "signin",
    };
    let kind = DeploymentType::parse(effective(
        runtime.deployment_type.as_deref(),
        build.deployment_type.as_deref(),
    ));
    let flags = read_flags(effective(
        runtime.deployment_flags.as_deref(),
        build.deployment_flags.as_deref(),
    ));
    let resolved = ResolvedDeployment::resolve(kind, flags, Some(sanctified));
    let bit = |on: bool| if on { '1' } else { '0' };
    let DeploymentFlags {
        apotheosis,
        sanctified,
        ethereal,
    } = resolved.flags;
    Some(format!(
        "{nav}-{}-{}{}{}",
        resolved.kind.as_str(),
        bit(apotheosis),
        bit(sanctified),
        bit(ethereal)
    ))
}

/// The part of the manifest this server serves.
#[derive(Debug, Clone, Default)]
pub struct Variant {
    /// The variant key, `None` when the shell must be served everywhere.
    pub key: Option<String>,
    /// Every prerendered path, with the file (relative to the app's directory) of this server's
    /// variant; `None`: the build did not render this variant, the shell is served.
    pub pages: HashMap<String, Option<String>>,
    /// The sign-in routes' frames (the page while the session is read, nothing personal in it) of
    /// this variant, by path; served only where the route exists (sanctified mode).
    pub signed_in: HashMap<String, String>,
    /// The not-found page of this variant.
    pub not_found: Option<String>,
    /// Path -> target, answered with 308.
    pub redirects: HashMap<String, String>,
    /// What `__MG_DEPLOYMENT_ID__` stands for, HTML-escaped.
    pub deployment_id_html: String,
}

impl Variant {
    /// Without a usable manifest: no page is prerendered (every page gets the shell, as before
    /// the manifest existed).
    pub fn shell_only(runtime: &RuntimeValues) -> Self {
        Self::with_build(runtime, &BuildValues::default())
    }

    fn with_build(runtime: &RuntimeValues, build: &BuildValues) -> Self {
        let id = effective_deployment_id(effective(
            runtime.deployment_id.as_deref(),
            build.deployment_id.as_deref(),
        ));
        Self {
            deployment_id_html: crate::html::escape(id),
            ..Self::default()
        }
    }

    /// Reads a manifest's text for this server's configuration. Entries naming a file outside the
    /// app's directory, or redirecting off this site, are left out (and logged).
    pub fn from_json(text: &str, runtime: &RuntimeValues) -> Result<Self, String> {
        let file: PagesFile = serde_json::from_str(text).map_err(|error| error.to_string())?;
        if file.version != VERSION {
            return Err(format!(
                "version {} (this server reads version {VERSION})",
                file.version
            ));
        }
        let mut variant = Self::with_build(runtime, &file.build);
        let key = variant_key(runtime, &file.build);
        let pick = |files: &HashMap<String, String>| {
            let file = key.as_ref().and_then(|key| files.get(key))?;
            let checked = relative_file(file);
            if checked.is_none() {
                tracing::error!(%file, "pages.json names a file outside the app; the shell is served instead");
            }
            checked
        };
        variant.pages = file
            .pages
            .iter()
            .filter(|(path, _)| path.starts_with('/'))
            .map(|(path, files)| (path.clone(), pick(files)))
            .collect();
        variant.signed_in = file
            .signed_in
            .iter()
            .filter_map(|(path, files)| Some((path.clone(), pick(files)?)))
            .collect();
        variant.not_found = pick(&file.not_found);
        variant.redirects = file
            .redirects
            .into_iter()
            .filter(|(from, to)| {
                let local = from.starts_with('/') && is_local_target(to);
                if !local {
                    tracing::error!(%from, %to, "pages.json redirect left out: not a path on this site");
                }
                local
            })
            .collect();
        variant.key = key;
        Ok(variant)
    }
}

/// `file` when it is a plain relative path inside the app's directory (no `..`, no root, no `\`).
fn relative_file(file: &str) -> Option<String> {
    let inside = !file.is_empty()
        && !file.starts_with('/')
        && !file.contains('\\')
        && file
            .split('/')
            .all(|segment| !matches!(segment, "" | "." | ".."));
    inside.then(|| file.to_owned())
}

/// A redirect target must stay on this site: a path, never `//host` or a URL.
fn is_local_target(target: &str) -> bool {
    target.starts_with('/')
        && !target.starts_with("//")
        && !target.contains('\\')
        && !target.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> RuntimeValues {
        RuntimeValues {
            sanctified: Some(true),
            identity_project: true,
            ..RuntimeValues::default()
        }
    }

    /// Every case of the file the app's tests also run through the wasm core.
    #[test]
    fn the_key_of_every_shared_case_is_the_apps() {
        let file: serde_json::Value =
            serde_json::from_str(include_str!("../../../../app/common/variant-cases.json"))
                .expect("variant-cases.json is JSON");
        let cases = file["cases"].as_array().expect("cases");
        assert!(cases.len() >= 20, "{} cases", cases.len());
        for case in cases {
            let config = &case["config"];
            let text = |name: &str| config[name].as_str().map(str::to_owned);
            let runtime = RuntimeValues {
                sanctified: config["sanctified"].as_bool(),
                identity_project: true,
                emulator_marker: config["identityEmulator"].as_bool().unwrap_or(false),
                deployment_type: text("deploymentType"),
                deployment_flags: text("deploymentFlags"),
                ..RuntimeValues::default()
            };
            assert_eq!(
                variant_key(&runtime, &BuildValues::default()).as_deref(),
                case["key"].as_str(),
                "{config}"
            );
        }
    }

    #[test]
    fn the_key_follows_the_cores_rules() {
        let build = BuildValues::default();
        let key = |runtime: &RuntimeValues| variant_key(runtime, &build);
        assert_eq!(key(&runtime()).as_deref(), Some("signin-apotheosis-110"));
        let open = RuntimeValues {
            sanctified: Some(false),
            identity_project: false,
            ..runtime()
        };
        assert_eq!(key(&open).as_deref(), Some("open-apotheosis-100"));
        let emulator = RuntimeValues {
            emulator_marker: true,
            ..runtime()
        };
        assert_eq!(key(&emulator).as_deref(), Some("emulator-apotheosis-110"));
        let by_flag = RuntimeValues {
            deployment_type: Some("Telekinesis".into()),
            deployment_flags: Some(r#"{"ethereal": true, "sanctified": false}"#.into()),
            ..runtime()
        };
        assert_eq!(key(&by_flag).as_deref(), Some("signin-ethereal-011"));
        let unknown = RuntimeValues {
            deployment_type: Some("preview".into()),
            deployment_flags: Some(r#"{"apotheosis": false}"#.into()),
            ..runtime()
        };
        assert_eq!(key(&unknown).as_deref(), Some("signin-apotheosis-010"));
    }

    #[test]
    fn unreadable_flags_are_the_defaults() {
        for flags in [
            "{not json",
            "[true]",
            r#"{"etheral": true}"#,
            r#"{"ethereal": "yes"}"#,
            r#"{"ethereal": null}"#,
        ] {
            let runtime = RuntimeValues {
                deployment_flags: Some(flags.into()),
                ..runtime()
            };
            assert_eq!(
                variant_key(&runtime, &BuildValues::default()).as_deref(),
                Some("signin-apotheosis-110"),
                "{flags}"
            );
        }
        let repeated = RuntimeValues {
            deployment_flags: Some(r#"{"ethereal": true, "ethereal": false}"#.into()),
            ..runtime()
        };
        assert_eq!(
            variant_key(&repeated, &BuildValues::default()).as_deref(),
            Some("signin-apotheosis-110")
        );
    }

    #[test]
    fn the_build_values_count_where_the_server_sets_nothing() {
        let build = BuildValues {
            sanctified: Some(false),
            deployment_type: Some("metagenesis".into()),
            deployment_flags: Some(r#"{"apotheosis": false}"#.into()),
            deployment_id: Some("built".into()),
        };
        let bare = RuntimeValues {
            sanctified: None,
            ..RuntimeValues::default()
        };
        assert_eq!(
            variant_key(&bare, &build).as_deref(),
            Some("open-metagenesis-000")
        );
        let set = RuntimeValues {
            deployment_type: Some(" ".into()),
            deployment_id: Some("run".into()),
            ..runtime()
        };
        assert_eq!(
            variant_key(&set, &build).as_deref(),
            Some("signin-metagenesis-010")
        );
        assert_eq!(Variant::with_build(&set, &build).deployment_id_html, "run");
        assert_eq!(
            Variant::with_build(&bare, &build).deployment_id_html,
            "built"
        );
        assert_eq!(
            Variant::shell_only(&RuntimeValues::default()).deployment_id_html,
            "local"
        );
    }

    #[test]
    fn sanctified_without_an_identity_project_gets_no_variant() {
        let misconfigured = RuntimeValues {
            identity_project: false,
            ..runtime()
        };
        assert_eq!(variant_key(&misconfigured, &BuildValues::default()), None);
    }

    #[test]
    fn files_and_redirects_must_stay_inside_the_site() {
        let json = r#"{"version": 1,
            "redirects": {"/mg": "/mg/overview", "/x": "//evil.example", "/y": "https://evil.example"},
            "pages": {"/": {"signin-apotheosis-110": "pages/a.html"},
                      "/up": {"signin-apotheosis-110": "../secret.html"},
                      "/abs": {"signin-apotheosis-110": "/etc/passwd"},
                      "/other": {"open-apotheosis-100": "pages/b.html"}},
            "signedIn": {"/home": {"signin-apotheosis-110": "pages/h.html"},
                         "/up": {"signin-apotheosis-110": "../secret.html"},
                         "/other": {"open-apotheosis-100": "pages/b.html"}},
            "notFound": {"signin-apotheosis-110": "pages/404.html"}}"#;
        let variant = Variant::from_json(json, &runtime()).expect("reads");
        assert_eq!(variant.pages["/"].as_deref(), Some("pages/a.html"));
        assert_eq!(variant.pages["/up"], None);
        assert_eq!(variant.pages["/abs"], None);
        assert_eq!(variant.pages["/other"], None);
        let frames: Vec<_> = variant.signed_in.iter().collect();
        assert_eq!(frames, [(&"/home".to_owned(), &"pages/h.html".to_owned())]);
        assert_eq!(variant.not_found.as_deref(), Some("pages/404.html"));
        assert_eq!(variant.redirects.len(), 1);
        assert_eq!(variant.redirects["/mg"], "/mg/overview");
    }

    #[test]
    fn another_version_or_broken_json_is_refused() {
        assert!(Variant::from_json(r#"{"version": 2}"#, &runtime()).is_err());
        assert!(Variant::from_json("{", &runtime()).is_err());
    }
}

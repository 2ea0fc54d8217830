//! Deployment flags, deployment info and the landing texts of each deployment type (spec 2.2, 3, 5).

use serde::{Deserialize, Serialize};

use mg_domain::{effective_deployment_id, ResolvedDeployment};
/// The flags and the type are `mg-domain`'s: the server reads `DEPLOYMENT_FLAGS` and
/// `DEPLOYMENT_TYPE` into them too, and picks its prerendered page by them.
pub use mg_domain::{DeploymentFlags, DeploymentType};

use crate::input::lenient;
use crate::text::join;

/// Logged (console only) when the flags JSON injected at build time cannot be read.
pub const FLAGS_PARSE_WARNING: &str = "Failed to parse VITE_DEPLOYMENT_FLAGS";

/// The status every client-built deployment info carries.
pub const ACTIVE_STATUS: &str = "active";

/// The result of reading the flags: the flags in force and, when the input was unreadable,
/// the warning the caller logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParsedFlags {
    pub flags: DeploymentFlags,
    pub warning: Option<&'static str>,
}

/// Parses the flags JSON. A missing or blank value means the defaults silently; a JSON object
/// may name any of the three keys (missing keys keep their default; a repeated key counts with
/// its last value). Anything else (broken JSON, not an object, a non-boolean value, an unknown
/// key) gives the defaults plus [`FLAGS_PARSE_WARNING`], so a typo in the build config is
/// noticed in the console.
///
/// `read` turns the text into flags through their `Deserialize` (`mg-domain`'s rule, the one the
/// server checks `DEPLOYMENT_FLAGS` by), `None` when it cannot:
/// the bindings read with the browser's `JSON.parse` (then `bindings/js_value.rs`), the host tests
/// with serde_json.
pub fn parse_flags(
    raw: Option<&str>,
    read: impl FnOnce(&str) -> Option<DeploymentFlags>,
) -> ParsedFlags {
    let text = raw.map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return ParsedFlags {
            flags: DeploymentFlags::default(),
            warning: None,
        };
    }
    match read(text) {
        Some(flags) => ParsedFlags {
            flags,
            warning: None,
        },
        None => ParsedFlags {
            flags: DeploymentFlags::default(),
            warning: Some(FLAGS_PARSE_WARNING),
        },
    }
}

/// The landing page's title, subtitle and description for a deployment type.
pub fn landing_text(kind: DeploymentType) -> LandingText {
    match kind {
        DeploymentType::Apotheosis => LandingText {
            title: "Apotheosis",
            subtitle: "Your full stack, live in your own cloud account",
            description: "React, Express and PostgreSQL on a virtual machine you own, behind nginx \
                with SSL and your own domain. One command, dmt blastoff, took it from a Git branch \
                to this page; the cards below report the health of every layer.",
        },
        DeploymentType::Ethereal => LandingText {
            title: "Ethereal",
            subtitle: "A static front end, served from the edge",
            description: "This deployment is only the site: files in object storage behind a CDN, \
                with no server or database to look after. Health checks of the API and the database \
                are switched off because there is nothing behind them.",
        },
        DeploymentType::Telekinesis => LandingText {
            title: "Telekinesis",
            subtitle: "Work that moves itself",
            description: "An event-driven task queue: producers drop messages, serverless workers \
                pick them up, retries and schedules are built in. Deployed with lsd drop, watched \
                from here.",
        },
        DeploymentType::Metagenesis => LandingText {
            title: "Metagenesis",
            subtitle: "One CLI for every way you deploy",
            description: "mg brings DMT, LSD and ESP under one command line: full-stack apps on \
                virtual machines, serverless functions, and static sites behind a CDN, all tracked \
                per project in your own cloud account. Start with mg init --dream.",
        },
    }
}

/// Landing copy for one deployment type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct LandingText {
    pub title: &'static str,
    pub subtitle: &'static str,
    pub description: &'static str,
}

/// What the build injected about this deployment (every field may be absent; one of the wrong
/// type reads as absent).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "camelCase")]
pub struct DeploymentConfig {
    #[serde(default, deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub name: Option<String>,
    /// 'apotheosis', 'ethereal', 'telekinesis' or 'metagenesis', any case; anything else: apotheosis.
    #[serde(default, deserialize_with = "lenient")]
    pub deployment_type: Option<String>,
    /// The VITE_DEPLOYMENT_FLAGS text (a JSON object of booleans).
    #[serde(default, deserialize_with = "lenient")]
    pub flags_json: Option<String>,
    /// Overrides `flags.sanctified` when given (the build's separate sanctified switch).
    #[serde(default, deserialize_with = "lenient")]
    pub sanctified: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub github_repo: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub telekinesis_queue_url: Option<String>,
}

/// The deployment info shown on the landing page (spec 3), built on the client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct DeploymentInfo {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub deployment_type: DeploymentType,
    pub flags: DeploymentFlags,
    #[cfg_attr(feature = "machines", tsify(type = "\"active\""))]
    pub status: &'static str,
    /// Milliseconds since the Unix epoch at which the info was built.
    pub created: u64,
    pub github_repo: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub telekinesis_queue_url: Option<String>,
    pub landing: LandingText,
    /// True when database and queue are absent (type ethereal or the ethereal flag).
    pub ethereal: bool,
}

/// The id shown when the build did not inject one.
pub use mg_domain::DEFAULT_DEPLOYMENT_ID;
/// The source repository linked when the build did not name one.
pub const DEFAULT_GITHUB_REPO: &str = "https://github.com/metagenesis/mg";

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

impl DeploymentInfo {
    /// Builds the info; returns it with the flags warning to log, if any. `read_flags` reads the
    /// flags JSON (see [`DeploymentFlags::parse`]).
    pub fn build(
        config: DeploymentConfig,
        now_ms: u64,
        read_flags: impl FnOnce(&str) -> Option<DeploymentFlags>,
    ) -> (Self, Option<&'static str>) {
        let parsed = parse_flags(config.flags_json.as_deref(), read_flags);
        // The rules (the sanctified switch; ethereal by type or flag makes type, flags and text all
        // say so, so the card never shows 'Apotheosis On' beside text saying there is nothing
        // behind the page) are `mg-domain`'s: the server picks its prerendered page by them.
        let resolved = ResolvedDeployment::resolve(
            DeploymentType::parse(config.deployment_type.as_deref()),
            parsed.flags,
            config.sanctified,
        );
        let deployment_type = resolved.kind;
        let flags = resolved.flags;
        let ethereal = resolved.ethereal;
        let id = effective_deployment_id(config.id.as_deref()).to_owned();
        let name = non_blank(config.name).unwrap_or_else(|| join(&["mg-", &id]));
        let info = Self {
            id,
            name,
            deployment_type,
            flags,
            status: ACTIVE_STATUS,
            created: now_ms,
            github_repo: non_blank(config.github_repo)
                .unwrap_or_else(|| DEFAULT_GITHUB_REPO.to_owned()),
            telekinesis_queue_url: non_blank(config.telekinesis_queue_url),
            landing: landing_text(deployment_type),
            ethereal,
        };
        (info, parsed.warning)
    }
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::input::read_json;
    use proptest::prelude::*;

    const DEFAULTS: DeploymentFlags = DeploymentFlags {
        apotheosis: true,
        sanctified: false,
        ethereal: false,
    };

    #[test]
    fn flags_are_parsed_exactly() {
        let warn = Some(FLAGS_PARSE_WARNING);
        let cases: [(Option<&str>, DeploymentFlags, Option<&str>); 13] = [
            (None, DEFAULTS, None),
            (Some(""), DEFAULTS, None),
            (Some("  "), DEFAULTS, None),
            (
                Some(r#"{"apotheosis":false,"sanctified":true,"ethereal":true}"#),
                DeploymentFlags {
                    apotheosis: false,
                    sanctified: true,
                    ethereal: true,
                },
                None,
            ),
            (
                Some(r#"{"sanctified":true}"#),
                DeploymentFlags {
                    sanctified: true,
                    ..DEFAULTS
                },
                None,
            ),
            (Some("{}"), DEFAULTS, None),
            (Some("{not json"), DEFAULTS, warn),
            (Some("[true]"), DEFAULTS, warn),
            (Some(r#"{"sanctified":"yes"}"#), DEFAULTS, warn),
            (Some(r#"{"sanctifed":true}"#), DEFAULTS, warn),
            (Some(r#"{"ethereal":null}"#), DEFAULTS, warn),
            (Some("true"), DEFAULTS, warn),
            (
                Some(r#"{"sanctified":false,"sanctified":true}"#),
                DeploymentFlags {
                    sanctified: true,
                    ..DEFAULTS
                },
                None,
            ),
        ];
        for (raw, flags, warning) in cases {
            let parsed = parse_flags(raw, read_json);
            assert_eq!(parsed.flags, flags, "input {raw:?}");
            assert_eq!(parsed.warning, warning, "input {raw:?}");
        }
    }

    #[test]
    fn the_warning_text_is_the_spec_message() {
        assert_eq!(FLAGS_PARSE_WARNING, "Failed to parse VITE_DEPLOYMENT_FLAGS");
    }

    #[test]
    fn every_type_has_its_own_landing_text() {
        let all = [
            DeploymentType::Apotheosis,
            DeploymentType::Ethereal,
            DeploymentType::Telekinesis,
            DeploymentType::Metagenesis,
        ];
        for (i, a) in all.iter().enumerate() {
            let text = landing_text(*a);
            assert!(!text.subtitle.is_empty() && text.description.len() > 60);
            assert_eq!(text.title.to_ascii_lowercase(), a.as_str());
            for b in &all[i + 1..] {
                assert_ne!(text.description, landing_text(*b).description);
            }
        }
    }

    #[test]
    fn info_is_built_with_defaults_and_overrides() {
        let (info, warning) =
            DeploymentInfo::build(DeploymentConfig::default(), 1_700_000_000_000, read_json);
        assert_eq!(warning, None);
        assert_eq!(info.id, "local");
        assert_eq!(info.name, "mg-local");
        assert_eq!(info.status, "active");
        assert_eq!(info.created, 1_700_000_000_000);
        assert_eq!(info.deployment_type, DeploymentType::Apotheosis);
        assert_eq!(info.flags, DEFAULTS);
        assert_eq!(info.telekinesis_queue_url, None);
        assert!(!info.ethereal);

        let config = DeploymentConfig {
            id: Some("dep-42".into()),
            deployment_type: Some("ethereal".into()),
            flags_json: Some("oops".into()),
            sanctified: Some(true),
            telekinesis_queue_url: Some("https://sqs.example/q".into()),
            ..DeploymentConfig::default()
        };
        let (info, warning) = DeploymentInfo::build(config, 5, read_json);
        assert_eq!(warning, Some(FLAGS_PARSE_WARNING));
        assert_eq!(info.id, "dep-42");
        assert!(info.flags.sanctified && !info.flags.apotheosis);
        assert!(info.ethereal);
        assert_eq!(info.landing.title, "Ethereal");
        assert_eq!(
            info.telekinesis_queue_url.as_deref(),
            Some("https://sqs.example/q")
        );
    }

    #[test]
    fn the_config_object_is_read_by_its_camel_case_keys() {
        let value = serde_json::json!({"id": "d1", "deploymentType": "ethereal", "flagsJson": "{}",
            "sanctified": true, "githubRepo": "https://g/r", "telekinesisQueueUrl": 5});
        let config = DeploymentConfig::deserialize(value).expect("an object reads");
        assert_eq!(config.id.as_deref(), Some("d1"));
        assert_eq!(config.deployment_type.as_deref(), Some("ethereal"));
        assert_eq!(config.sanctified, Some(true));
        assert_eq!(config.github_repo.as_deref(), Some("https://g/r"));
        assert_eq!(config.telekinesis_queue_url, None, "a number is not a URL");
    }

    #[test]
    fn the_ethereal_flag_alone_marks_the_deployment_ethereal() {
        let config = DeploymentConfig {
            flags_json: Some(r#"{"ethereal":true}"#.into()),
            ..DeploymentConfig::default()
        };
        let info = DeploymentInfo::build(config, 0, read_json).0;
        assert!(info.ethereal);
        assert_eq!(info.deployment_type, DeploymentType::Ethereal);
        assert_eq!(info.landing.title, "Ethereal");
    }

    #[test]
    fn type_flags_and_text_agree_for_every_deployment_type() {
        for (kind, flags) in [
            ("apotheosis", "{}"),
            ("ethereal", r#"{"apotheosis":true}"#),
            ("telekinesis", "{}"),
            ("metagenesis", r#"{"apotheosis":false}"#),
            ("apotheosis", r#"{"ethereal":true}"#),
        ] {
            let config = DeploymentConfig {
                deployment_type: Some(kind.into()),
                flags_json: Some(flags.into()),
                ..DeploymentConfig::default()
            };
            let info = DeploymentInfo::build(config, 0, read_json).0;
            assert_eq!(info.ethereal, info.flags.ethereal, "{kind} {flags}");
            assert_eq!(
                info.ethereal,
                info.deployment_type == DeploymentType::Ethereal,
                "{kind} {flags}"
            );
            assert_eq!(info.landing, landing_text(info.deployment_type));
            // Nothing behind an ethereal page: apotheosis (the API's Wisdom) is off.
            assert!(!(info.ethereal && info.flags.apotheosis), "{kind} {flags}");
        }
    }

    #[test]
    fn every_flag_the_server_accepts_is_read_here() {
        let defaults = DeploymentFlags::default();
        for name in mg_domain::FLAG_NAMES {
            let json = format!(r#"{{"{name}": true, "{name}": false}}"#);
            let parsed = parse_flags(Some(&json), read_json);
            assert_eq!(parsed.warning, None, "{name}");
            let json = format!(r#"{{"{name}": {}}}"#, !defaults_of(&defaults, name));
            let parsed = parse_flags(Some(&json), read_json);
            assert_ne!(parsed.flags, defaults, "{name} is read");
        }
    }

    fn defaults_of(flags: &DeploymentFlags, name: &str) -> bool {
        match name {
            "apotheosis" => flags.apotheosis,
            "sanctified" => flags.sanctified,
            _ => flags.ethereal,
        }
    }

    proptest! {
        #[test]
        fn any_flags_text_parses_to_valid_flags_without_panicking(raw in ".{0,64}") {
            let parsed = parse_flags(Some(&raw), read_json);
            if parsed.warning.is_some() {
                prop_assert_eq!(parsed.flags, DEFAULTS);
            }
        }

        #[test]
        fn any_boolean_object_round_trips(a: bool, s: bool, e: bool) {
            let raw = format!(r#"{{"apotheosis":{a},"sanctified":{s},"ethereal":{e}}}"#);
            let parsed = parse_flags(Some(&raw), read_json);
            prop_assert_eq!(parsed.warning, None);
            prop_assert_eq!(parsed.flags, DeploymentFlags { apotheosis: a, sanctified: s, ethereal: e });
        }
    }
}

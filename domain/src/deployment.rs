//! A deployment's type and flags after the rules the browser (core-wasm's deployment info) and the
//! server (which prerendered variant it serves) must apply alike (spec 2.2, 3).

use serde::Serialize;

use crate::flags::DeploymentFlags;

/// The four kinds of deployment the landing page knows (spec 2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "lowercase")]
pub enum DeploymentType {
    #[default]
    Apotheosis,
    Ethereal,
    Telekinesis,
    Metagenesis,
}

impl DeploymentType {
    /// Reads a type name case-insensitively (surrounding blanks ignored); anything unknown, or
    /// nothing, is apotheosis, the spec's default type.
    pub fn parse(raw: Option<&str>) -> Self {
        let name = raw.map(str::trim).unwrap_or_default();
        [Self::Ethereal, Self::Telekinesis, Self::Metagenesis]
            .into_iter()
            .find(|kind| name.eq_ignore_ascii_case(kind.as_str()))
            .unwrap_or(Self::Apotheosis)
    }

    /// The lower-case name (`apotheosis`, ...), as the app and the prerender variant keys spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Apotheosis => "apotheosis",
            Self::Ethereal => "ethereal",
            Self::Telekinesis => "telekinesis",
            Self::Metagenesis => "metagenesis",
        }
    }
}

/// The type and flags a deployment runs with once the rules have been applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResolvedDeployment {
    pub kind: DeploymentType,
    pub flags: DeploymentFlags,
    /// True when database and queue are absent (type ethereal or the ethereal flag).
    pub ethereal: bool,
}

impl ResolvedDeployment {
    /// Applies the rules to the parsed type and flags: the separate sanctified switch, when
    /// given, overrides `flags.sanctified`; an ethereal deployment (by type or by flag) is only the
    /// site (no API, no database, no queue), so type and flags then all say so: type ethereal,
    /// ethereal on, apotheosis (the API's Wisdom) off.
    pub fn resolve(
        kind: DeploymentType,
        mut flags: DeploymentFlags,
        sanctified: Option<bool>,
    ) -> Self {
        if let Some(sanctified) = sanctified {
            flags.sanctified = sanctified;
        }
        let ethereal = kind == DeploymentType::Ethereal || flags.ethereal;
        let kind = if ethereal {
            flags.ethereal = true;
            flags.apotheosis = false;
            DeploymentType::Ethereal
        } else {
            kind
        };
        Self {
            kind,
            flags,
            ethereal,
        }
    }
}

/// The id shown when the deployment names none.
pub const DEFAULT_DEPLOYMENT_ID: &str = "local";

/// The deployment id in force: `raw` trimmed, or [`DEFAULT_DEPLOYMENT_ID`] when absent or blank.
pub fn effective_deployment_id(raw: Option<&str>) -> &str {
    match raw.map(str::trim) {
        Some(id) if !id.is_empty() => id,
        _ => DEFAULT_DEPLOYMENT_ID,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::FLAG_DEFAULTS;

    #[test]
    fn types_parse_case_insensitively_and_default_to_apotheosis() {
        for (raw, kind) in [
            (Some("Ethereal"), DeploymentType::Ethereal),
            (Some("telekinesis"), DeploymentType::Telekinesis),
            (Some(" METAGENESIS "), DeploymentType::Metagenesis),
            (Some("apotheosis"), DeploymentType::Apotheosis),
            (Some("dmt"), DeploymentType::Apotheosis),
            (Some(""), DeploymentType::Apotheosis),
            (None, DeploymentType::Apotheosis),
        ] {
            assert_eq!(DeploymentType::parse(raw), kind, "{raw:?}");
        }
    }

    #[test]
    fn the_sanctified_switch_overrides_the_flag() {
        let on = ResolvedDeployment::resolve(DeploymentType::Apotheosis, FLAG_DEFAULTS, Some(true));
        assert!(on.flags.sanctified);
        let flags = DeploymentFlags {
            sanctified: true,
            ..FLAG_DEFAULTS
        };
        let off = ResolvedDeployment::resolve(DeploymentType::Telekinesis, flags, Some(false));
        assert!(!off.flags.sanctified);
        let kept = ResolvedDeployment::resolve(DeploymentType::Telekinesis, flags, None);
        assert!(kept.flags.sanctified);
        assert_eq!(kept.kind, DeploymentType::Telekinesis);
    }

    #[test]
    fn ethereal_by_type_or_by_flag_turns_apotheosis_off() {
        let by_type = ResolvedDeployment::resolve(DeploymentType::Ethereal, FLAG_DEFAULTS, None);
        let by_flag = ResolvedDeployment::resolve(
            DeploymentType::Metagenesis,
            DeploymentFlags {
                ethereal: true,
                ..FLAG_DEFAULTS
            },
            None,
        );
        for resolved in [by_type, by_flag] {
            assert!(resolved.ethereal);
            assert_eq!(resolved.kind, DeploymentType::Ethereal);
            assert!(resolved.flags.ethereal && !resolved.flags.apotheosis);
        }
    }

    #[test]
    fn a_blank_deployment_id_is_the_local_one() {
        assert_eq!(effective_deployment_id(None), "local");
        assert_eq!(effective_deployment_id(Some("  ")), "local");
        assert_eq!(effective_deployment_id(Some(" dep-1 ")), "dep-1");
    }
}

//! The deployment flags (spec 3): which exist, what holds when the deployment says nothing, and how
//! their JSON is read.

use std::fmt;

use serde::{
    de::{Deserialize, Deserializer, MapAccess, Visitor},
    Serialize,
};

/// The flags a deployment's JSON may set; any other key makes the JSON unreadable (spec 5: the
/// defaults are used and a warning logged in the browser; the server refuses it at start).
pub const FLAG_NAMES: [&str; 3] = ["apotheosis", "sanctified", "ethereal"];

/// The feature flags of a deployment. Default: apotheosis on, the others off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct DeploymentFlags {
    pub apotheosis: bool,
    pub sanctified: bool,
    pub ethereal: bool,
}

/// Spec 3: "The default is apotheosis true".
pub const FLAG_DEFAULTS: DeploymentFlags = DeploymentFlags {
    apotheosis: true,
    sanctified: false,
    ethereal: false,
};

impl Default for DeploymentFlags {
    fn default() -> Self {
        FLAG_DEFAULTS
    }
}

/// One key of the flags object: the names of [`FLAG_NAMES`]; any other key fails the read.
#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum FlagKey {
    Apotheosis,
    Sanctified,
    Ethereal,
}

/// The flags JSON's rule, the one the browser core (its deployment info), the server's start (its
/// check of `DEPLOYMENT_FLAGS`) and the server's choice of prerendered page all read it by: an object
/// naming any of [`FLAG_NAMES`], each with a boolean; missing keys keep their default, a repeated key
/// counts with its last value. Anything else (not an object, a value that is not a boolean, an
/// unknown key) fails, so a typo in the configuration is noticed rather than silently ignored.
///
/// Not derived: a derived struct reader skips unknown keys (serde-wasm-bindgen's even looks up the
/// known ones only).
impl<'de> Deserialize<'de> for DeploymentFlags {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;

        impl<'de> Visitor<'de> for Members {
            type Value = DeploymentFlags;

            fn expecting(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
                out.write_str("an object of boolean deployment flags")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
                let mut flags = DeploymentFlags::default();
                while let Some(key) = members.next_key::<FlagKey>()? {
                    let value = members.next_value::<bool>()?;
                    *match key {
                        FlagKey::Apotheosis => &mut flags.apotheosis,
                        FlagKey::Sanctified => &mut flags.sanctified,
                        FlagKey::Ethereal => &mut flags.ethereal,
                    } = value;
                }
                Ok(flags)
            }
        }

        deserializer.deserialize_map(Members)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Option<DeploymentFlags> {
        serde_json::from_str(json).ok()
    }

    #[test]
    fn every_flag_name_can_be_set_and_nothing_else() {
        for name in FLAG_NAMES {
            let value = !flag_of(&FLAG_DEFAULTS, name);
            let flags = read(&format!(r#"{{"{name}": {value}}}"#)).expect(name);
            assert_eq!(flag_of(&flags, name), value, "{name}");
            assert_ne!(flags, FLAG_DEFAULTS, "{name}");
        }
        assert_eq!(read(r#"{"etheral": true}"#), None);
        assert_eq!(read(r#"{"Ethereal": true}"#), None);
    }

    #[test]
    fn only_an_object_of_booleans_reads() {
        assert_eq!(read("{}"), Some(FLAG_DEFAULTS));
        let both = read(r#"{"ethereal": true, "apotheosis": false, "ethereal": false}"#);
        assert_eq!(
            both,
            Some(DeploymentFlags {
                apotheosis: false,
                ..FLAG_DEFAULTS
            }),
            "a repeated key counts with its last value"
        );
        for unreadable in [
            "",
            "null",
            "true",
            "[1]",
            r#""{}""#,
            r#"{"ethereal": 1}"#,
            r#"{"ethereal": "true"}"#,
            r#"{"ethereal": null}"#,
            r#"{"ethereal": true"#,
            r#"{"ethereal": true} x"#,
        ] {
            assert_eq!(read(unreadable), None, "{unreadable}");
        }
    }

    fn flag_of(flags: &DeploymentFlags, name: &str) -> bool {
        match name {
            "apotheosis" => flags.apotheosis,
            "sanctified" => flags.sanctified,
            _ => flags.ethereal,
        }
    }
}

//! The deployment flags (spec 3): which exist, and what holds when the deployment says nothing.

/// The flags a deployment's JSON may set; any other key makes the JSON unreadable (spec 5: the
/// defaults are used and a warning logged in the browser; the server refuses it at start).
pub const FLAG_NAMES: [&str; 3] = ["apotheosis", "sanctified", "ethereal"];

/// Each flag's value when the deployment does not set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagDefaults {
    pub apotheosis: bool,
    pub sanctified: bool,
    pub ethereal: bool,
}

/// Spec 3: "The default is apotheosis true".
pub const FLAG_DEFAULTS: FlagDefaults = FlagDefaults {
    apotheosis: true,
    sanctified: false,
    ethereal: false,
};

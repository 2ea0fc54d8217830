//! The deployment flags (spec 3): which exist, and what holds when the deployment says nothing.

/// The flags a deployment's JSON may set; any other key makes the JSON unreadable (spec 5: the
/// defaults are used and a warning logged in the browser; the server refuses it at start).
pub const FLAG_NAMES: [&str; 3] = ["apotheosis", "sanctified", "ethereal"];

/// The value of each deployment flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagValues {
    pub apotheosis: bool,
    pub sanctified: bool,
    pub ethereal: bool,
}

/// Spec 3: "The default is apotheosis true".
pub const FLAG_DEFAULTS: FlagValues = FlagValues {
    apotheosis: true,
    sanctified: false,
    ethereal: false,
};

impl Default for FlagValues {
    fn default() -> Self {
        FLAG_DEFAULTS
    }
}

impl FlagValues {
    /// Sets the flag called `name` (one of [`FLAG_NAMES`]); `false`, and nothing changed, for any
    /// other name.
    pub fn set(&mut self, name: &str, value: bool) -> bool {
        let flag = match name {
            "apotheosis" => &mut self.apotheosis,
            "sanctified" => &mut self.sanctified,
            "ethereal" => &mut self.ethereal,
            _ => return false,
        };
        *flag = value;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_name_can_be_set_and_nothing_else() {
        for name in FLAG_NAMES {
            let mut flags = FLAG_DEFAULTS;
            assert!(flags.set(name, !flag_of(&FLAG_DEFAULTS, name)), "{name}");
            assert_ne!(flags, FLAG_DEFAULTS, "{name}");
        }
        let mut flags = FLAG_DEFAULTS;
        assert!(!flags.set("etheral", true));
        assert_eq!(flags, FLAG_DEFAULTS);
    }

    fn flag_of(flags: &FlagValues, name: &str) -> bool {
        match name {
            "apotheosis" => flags.apotheosis,
            "sanctified" => flags.sanctified,
            _ => flags.ethereal,
        }
    }
}

//! The login modal's providers (spec 2.3, 4, 8): one provider loading at a time, two failure messages.

use serde::Serialize;

use crate::text::join;

/// The six social providers of the login modal and their labels: the server's identity emulator
/// offers the same ones (the shared `mg-domain` crate).
pub use mg_domain::{provider_label, PROVIDERS};

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct LoginSnapshot {
    /// The provider whose sign-in is starting; every other provider is disabled meanwhile.
    pub loading: Option<String>,
    pub error: Option<String>,
}

/// One provider of the login modal, as the modal lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "machines", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct LoginProvider {
    /// The identity provider's id, passed to its OAuth start call.
    pub id: &'static str,
    /// The button's label: 'Continue with {label}'.
    pub label: &'static str,
}

/// The providers in display order.
pub fn providers() -> impl Iterator<Item = LoginProvider> {
    PROVIDERS
        .iter()
        .map(|&(id, label)| LoginProvider { id, label })
}

#[derive(Debug, Clone, Default)]
pub struct LoginMachine {
    snap: LoginSnapshot,
}

impl LoginMachine {
    pub fn snapshot(&self) -> &LoginSnapshot {
        &self.snap
    }

    /// No timers in this machine.
    pub fn next_deadline(&self) -> Option<u64> {
        None
    }

    pub fn is_disabled(&self, provider: &str) -> bool {
        self.snap.loading.as_deref().is_some_and(|p| p != provider)
    }

    /// A provider was clicked. Returns true when the hook must start its OAuth flow.
    pub fn choose(&mut self, provider: &str) -> bool {
        if self.snap.loading.is_some() || provider.is_empty() {
            return false;
        }
        self.snap.loading = Some(provider.to_owned());
        self.snap.error = None;
        true
    }

    /// The start call answered. With `ok` and a URL, returns the URL to send the browser to
    /// (the provider stays loading); otherwise shows 'Failed to connect with {provider}...'.
    pub fn started(&mut self, ok: bool, url: Option<&str>) -> Option<String> {
        let provider = self.snap.loading.clone()?;
        match url.filter(|u| ok && !u.trim().is_empty()) {
            Some(url) => Some(url.to_owned()),
            None => {
                self.fail(join(&[
                    "Failed to connect with ",
                    provider_label(&provider),
                    ". Please try again.",
                ]));
                None
            }
        }
    }

    /// The start call threw.
    pub fn start_threw(&mut self) {
        if let Some(provider) = self.snap.loading.clone() {
            self.fail(join(&[
                "An error occurred with ",
                provider_label(&provider),
                " login. Please try again.",
            ]));
        }
    }

    fn fail(&mut self, message: String) {
        self.snap.loading = None;
        self.snap.error = Some(message);
    }
}

// Host only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn choosing_marks_one_loading_and_disables_the_others() {
        let mut machine = LoginMachine::default();
        assert!(machine.choose("discord"));
        assert_eq!(machine.snapshot().loading.as_deref(), Some("discord"));
        assert!(!machine.is_disabled("discord"));
        for (id, _) in PROVIDERS.iter().filter(|(id, _)| *id != "discord") {
            assert!(machine.is_disabled(id), "{id} disabled");
        }
        assert!(!machine.choose("google"));
    }

    #[test]
    fn outcomes_give_the_exact_messages() {
        // (provider, ok, url, threw, error shown)
        type Case<'a> = (&'a str, bool, Option<&'a str>, bool, Option<&'a str>);
        let cases: [Case; 5] = [
            (
                "google",
                true,
                Some("https://accounts.example/o"),
                false,
                None,
            ),
            (
                "google",
                false,
                None,
                false,
                Some("Failed to connect with Google. Please try again."),
            ),
            (
                "github",
                true,
                Some(""),
                false,
                Some("Failed to connect with GitHub. Please try again."),
            ),
            (
                "linkedin",
                false,
                Some("https://x"),
                false,
                Some("Failed to connect with LinkedIn. Please try again."),
            ),
            (
                "discord",
                false,
                None,
                true,
                Some("An error occurred with Discord login. Please try again."),
            ),
        ];
        for (provider, ok, url, threw, error) in cases {
            let mut machine = LoginMachine::default();
            machine.choose(provider);
            if threw {
                machine.start_threw();
            } else {
                let redirect = machine.started(ok, url);
                assert_eq!(redirect.is_some(), error.is_none());
            }
            assert_eq!(machine.snapshot().error.as_deref(), error, "{provider}");
            assert_eq!(machine.snapshot().loading.is_none(), error.is_some());
        }
    }

    #[test]
    fn after_a_failure_any_provider_can_be_chosen_again() {
        let mut machine = LoginMachine::default();
        machine.choose("facebook");
        machine.start_threw();
        assert!(!machine.is_disabled("google"));
        assert!(machine.choose("google"));
        assert_eq!(machine.snapshot().error, None);
    }

    proptest! {
        #[test]
        fn at_most_one_provider_loads(events in proptest::collection::vec((0u8..3, 0usize..6, any::<bool>()), 0..30)) {
            let mut machine = LoginMachine::default();
            for (kind, index, ok) in events {
                match kind {
                    0 => { machine.choose(PROVIDERS[index].0); }
                    1 => { machine.started(ok, Some("https://idp.example")); }
                    _ => machine.start_threw(),
                }
                let disabled = PROVIDERS.iter().filter(|(id, _)| machine.is_disabled(id)).count();
                prop_assert_eq!(disabled, if machine.snapshot().loading.is_some() { 5 } else { 0 });
                prop_assert!(!(machine.snapshot().loading.is_some() && machine.snapshot().error.is_some()));
            }
        }
    }
}

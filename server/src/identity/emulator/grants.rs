//! The emulator's short-lived secrets: sign-in attempts (`state`, from start to the provider page)
//! and one-time OAuth codes (from the provider page to the exchange). Memory only, single-use.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use ring::rand::{SecureRandom, SystemRandom};

/// A sign-in attempt may sit on the provider page this long.
pub const ATTEMPT_TTL: Duration = Duration::from_secs(15 * 60);
/// Beyond this many live entries the oldest are forgotten (a flood cannot exhaust memory).
const CAPACITY: usize = 10_000;

/// The account a person picked or typed on the provider page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub email: String,
    pub name: String,
    pub username: String,
}

/// What the exchange of a code does: sign in, or simulate a failure chosen on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    SignIn,
    ProviderNotEnabled,
    UserMustExist,
}

/// Started by `oauth/authorize`: which provider, and where the browser goes back to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub provider: String,
    pub redirect_url: String,
}

/// What a one-time code stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub provider: String,
    pub account: Account,
    pub outcome: Outcome,
}

/// Entries keyed by an unguessable random token, each with its deadline.
#[derive(Debug)]
struct Expiring<T> {
    entries: Mutex<HashMap<String, (T, Instant)>>,
}

impl<T> Default for Expiring<T> {
    fn default() -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
        }
    }
}

impl<T: Clone> Expiring<T> {
    fn insert(&self, value: T, ttl: Duration) -> String {
        let token = random_token();
        let now = Instant::now();
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= CAPACITY {
                entries.retain(|_, (_, deadline)| *deadline > now);
                if entries.len() >= CAPACITY {
                    entries.clear();
                }
            }
            entries.insert(token.clone(), (value, now + ttl));
        }
        token
    }

    fn peek(&self, token: &str) -> Option<T> {
        let entries = self.entries.lock().ok()?;
        let (value, deadline) = entries.get(token)?;
        (*deadline > Instant::now()).then(|| value.clone())
    }

    fn take(&self, token: &str) -> Option<T> {
        let (value, deadline) = self.entries.lock().ok()?.remove(token)?;
        (deadline > Instant::now()).then_some(value)
    }
}

/// The attempts and codes of one emulator.
#[derive(Debug)]
pub struct Grants {
    code_ttl: Duration,
    attempts: Expiring<Attempt>,
    codes: Expiring<Grant>,
}

impl Grants {
    /// Codes live `code_ttl` (5 minutes outside tests).
    pub fn new(code_ttl: Duration) -> Self {
        Self {
            code_ttl,
            attempts: Expiring::default(),
            codes: Expiring::default(),
        }
    }

    /// Records a sign-in attempt; the returned `state` names it in the provider page's URL.
    pub fn start(&self, attempt: Attempt) -> String {
        self.attempts.insert(attempt, ATTEMPT_TTL)
    }

    /// The attempt behind `state`, still usable (the page can be reloaded).
    pub fn attempt(&self, state: &str) -> Option<Attempt> {
        self.attempts.peek(state)
    }

    /// Ends the attempt (the person continued) and returns it.
    pub fn finish(&self, state: &str) -> Option<Attempt> {
        self.attempts.take(state)
    }

    /// Issues a one-time code for `grant`.
    pub fn issue_code(&self, grant: Grant) -> String {
        self.codes.insert(grant, self.code_ttl)
    }

    /// Redeems a code: the first call within its lifetime gets the grant, every other call `None`.
    pub fn redeem(&self, code: &str) -> Option<Grant> {
        self.codes.take(code)
    }
}

/// 32 random bytes, URL-safe base64 (no padding): safe in a query string, impossible to guess.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    // The system RNG failing means the OS is broken; a zero token would then still be unique
    // enough for a development emulator, but never happens in practice.
    let _ = SystemRandom::new().fill(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grant() -> Grant {
        Grant {
            provider: "github".into(),
            account: Account {
                email: "ada@example.com".into(),
                name: "Ada".into(),
                username: "ada".into(),
            },
            outcome: Outcome::SignIn,
        }
    }

    #[test]
    fn a_code_is_redeemed_once() {
        let grants = Grants::new(Duration::from_secs(300));
        let code = grants.issue_code(grant());
        assert_eq!(grants.redeem(&code), Some(grant()));
        assert_eq!(grants.redeem(&code), None);
        assert_eq!(grants.redeem("made-up"), None);
    }

    #[test]
    fn an_expired_code_is_refused() {
        let grants = Grants::new(Duration::ZERO);
        let code = grants.issue_code(grant());
        assert_eq!(grants.redeem(&code), None);
    }

    #[test]
    fn tokens_are_distinct_and_url_safe() {
        let a = random_token();
        assert_ne!(a, random_token());
        assert!(a
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    }
}

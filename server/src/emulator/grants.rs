//! The emulator's short-lived secrets: sign-in attempts (`state`, from start to the provider page)
//! and one-time OAuth codes (from the provider page to the exchange). Memory only, single-use.
//!
//! Both are bounded without ever being cleared wholesale: each entry expires on its own, each
//! client (peer address, IPv6 by /64) holds at most [`PER_CLIENT`] of a kind (its own oldest goes
//! first), and past [`GLOBAL_CAPACITY`] live entries new ones are refused rather than older ones
//! of other people dropped. A flood from one address can only push out its own sign-ins.

use std::{
    collections::{BTreeMap, HashMap, VecDeque},
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use ring::rand::{SecureRandom, SystemRandom};

/// A sign-in attempt may sit on the provider page this long.
pub const ATTEMPT_TTL: Duration = Duration::from_secs(15 * 60);
/// Live attempts (and, separately, codes) one client may hold; a new one beyond pushes out its oldest.
pub const PER_CLIENT: usize = 64;
/// Live attempts (and, separately, codes) in all; beyond this new ones are refused until some expire.
pub const GLOBAL_CAPACITY: usize = 10_000;

/// Who started an entry: the peer address, IPv6 clients by their /64 (one host's whole prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl From<IpAddr> for ClientKey {
    fn from(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self(IpAddr::V4(v4)),
                None => {
                    let bits = u128::from(v6) & (u128::MAX << 64);
                    Self(IpAddr::V6(bits.into()))
                }
            },
            v4 => Self(v4),
        }
    }
}

/// The store is at its global capacity: the caller answers "try again shortly".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;

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

#[derive(Debug)]
struct Entry<T> {
    value: T,
    deadline: Instant,
    seq: u64,
    client: ClientKey,
}

/// Entries keyed by an unguessable random token; every operation is O(log n).
#[derive(Debug)]
struct Store<T> {
    entries: HashMap<String, Entry<T>>,
    /// Every entry by (deadline, insertion number): the first one is the next to expire.
    by_deadline: BTreeMap<(Instant, u64), String>,
    /// Each client's entries, oldest first (at most `per_client`, so a linear scan is cheap).
    by_client: HashMap<ClientKey, VecDeque<String>>,
    next_seq: u64,
}

impl<T> Default for Store<T> {
    fn default() -> Self {
        Self {
            entries: HashMap::new(),
            by_deadline: BTreeMap::new(),
            by_client: HashMap::new(),
            next_seq: 0,
        }
    }
}

impl<T> Store<T> {
    fn remove(&mut self, token: &str) -> Option<Entry<T>> {
        let entry = self.entries.remove(token)?;
        self.by_deadline.remove(&(entry.deadline, entry.seq));
        if let Some(tokens) = self.by_client.get_mut(&entry.client) {
            tokens.retain(|t| t != token);
            if tokens.is_empty() {
                self.by_client.remove(&entry.client);
            }
        }
        Some(entry)
    }

    fn drop_expired(&mut self, now: Instant) {
        while let Some((&(deadline, _), token)) = self.by_deadline.first_key_value() {
            if deadline > now {
                break;
            }
            let token = token.clone();
            self.remove(&token);
        }
    }
}

/// One kind of entry (attempts or codes) with its limits.
#[derive(Debug)]
struct Expiring<T> {
    store: Mutex<Store<T>>,
    per_client: usize,
    capacity: usize,
}

impl<T: Clone> Expiring<T> {
    fn new(per_client: usize, capacity: usize) -> Self {
        Self {
            store: Mutex::new(Store::default()),
            per_client: per_client.max(1),
            capacity: capacity.max(1),
        }
    }

    fn insert(&self, client: ClientKey, value: T, ttl: Duration) -> Result<String, Full> {
        let now = Instant::now();
        let mut store = self.store.lock().map_err(|_| Full)?;
        store.drop_expired(now);
        let oldest_of_client = store
            .by_client
            .get(&client)
            .filter(|tokens| tokens.len() >= self.per_client)
            .and_then(|tokens| tokens.front().cloned());
        if let Some(oldest) = oldest_of_client {
            store.remove(&oldest);
        }
        if store.entries.len() >= self.capacity {
            return Err(Full);
        }
        let token = random_token();
        let deadline = now + ttl;
        let seq = store.next_seq;
        store.next_seq += 1;
        store.by_deadline.insert((deadline, seq), token.clone());
        store
            .by_client
            .entry(client)
            .or_default()
            .push_back(token.clone());
        store.entries.insert(
            token.clone(),
            Entry {
                value,
                deadline,
                seq,
                client,
            },
        );
        Ok(token)
    }

    fn peek(&self, token: &str) -> Option<T> {
        let store = self.store.lock().ok()?;
        let entry = store.entries.get(token)?;
        (entry.deadline > Instant::now()).then(|| entry.value.clone())
    }

    fn take(&self, token: &str) -> Option<T> {
        let entry = self.store.lock().ok()?.remove(token)?;
        (entry.deadline > Instant::now()).then_some(entry.value)
    }

    fn len(&self) -> usize {
        self.store.lock().map(|s| s.entries.len()).unwrap_or(0)
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
    /// Codes live `code_ttl` (5 minutes outside tests); the default limits.
    pub fn new(code_ttl: Duration) -> Self {
        Self::with_limits(code_ttl, PER_CLIENT, GLOBAL_CAPACITY)
    }

    /// With other limits (tests).
    pub fn with_limits(code_ttl: Duration, per_client: usize, capacity: usize) -> Self {
        Self {
            code_ttl,
            attempts: Expiring::new(per_client, capacity),
            codes: Expiring::new(per_client, capacity),
        }
    }

    /// Records a sign-in attempt of `client`; the returned `state` names it in the provider page's URL.
    pub fn start(&self, client: ClientKey, attempt: Attempt) -> Result<String, Full> {
        self.attempts.insert(client, attempt, ATTEMPT_TTL)
    }

    /// The attempt behind `state`, still usable (the page can be reloaded).
    pub fn attempt(&self, state: &str) -> Option<Attempt> {
        self.attempts.peek(state)
    }

    /// Ends the attempt (the person continued) and returns it.
    pub fn finish(&self, state: &str) -> Option<Attempt> {
        self.attempts.take(state)
    }

    /// Issues a one-time code for `grant`, counted against `client` (the browser on the page).
    pub fn issue_code(&self, client: ClientKey, grant: Grant) -> Result<String, Full> {
        self.codes.insert(client, grant, self.code_ttl)
    }

    /// Redeems a code: the first call within its lifetime gets the grant, every other call `None`.
    pub fn redeem(&self, code: &str) -> Option<Grant> {
        self.codes.take(code)
    }

    /// Live attempts and codes held (for tests and the soak's bound).
    pub fn held(&self) -> (usize, usize) {
        (self.attempts.len(), self.codes.len())
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

    fn attempt() -> Attempt {
        Attempt {
            provider: "github".into(),
            redirect_url: "http://localhost:3000/auth/callback".into(),
        }
    }

    fn client(last: u8) -> ClientKey {
        IpAddr::from([203, 0, 113, last]).into()
    }

    #[test]
    fn a_code_is_redeemed_once() {
        let grants = Grants::new(Duration::from_secs(300));
        let code = grants.issue_code(client(1), grant()).expect("room");
        assert_eq!(grants.redeem(&code), Some(grant()));
        assert_eq!(grants.redeem(&code), None);
        assert_eq!(grants.redeem("made-up"), None);
    }

    #[test]
    fn an_expired_code_is_refused_and_dropped() {
        let grants = Grants::new(Duration::ZERO);
        let code = grants.issue_code(client(1), grant()).expect("room");
        assert_eq!(grants.redeem(&code), None);
        grants.issue_code(client(1), grant()).expect("room");
        grants.issue_code(client(2), grant()).expect("room");
        assert_eq!(grants.held().1, 1, "expired codes go as new ones arrive");
    }

    #[test]
    fn ten_thousand_attempts_from_one_client_leave_everyone_elses_sign_in_alone() {
        // Before: the 10,000th attempt cleared the whole map, ending every sign-in in progress.
        let grants = Grants::new(Duration::from_secs(300));
        let victim = grants.start(client(2), attempt()).expect("room");
        let first_of_flood = grants.start(client(1), attempt()).expect("room");
        for _ in 0..GLOBAL_CAPACITY {
            grants
                .start(client(1), attempt())
                .expect("the flood only pushes out its own");
        }
        assert_eq!(grants.attempt(&victim), Some(attempt()));
        assert_eq!(
            grants.attempt(&first_of_flood),
            None,
            "its own oldest went first"
        );
        assert_eq!(grants.held().0, PER_CLIENT + 1);
        assert_eq!(grants.finish(&victim), Some(attempt()));
    }

    #[test]
    fn at_the_global_cap_new_attempts_are_refused_and_live_ones_kept() {
        let grants = Grants::with_limits(Duration::from_secs(300), 2, 4);
        let held: Vec<String> = (1..=4)
            .map(|n| grants.start(client(n), attempt()).expect("room"))
            .collect();
        assert_eq!(grants.start(client(9), attempt()), Err(Full));
        for state in &held {
            assert_eq!(grants.attempt(state), Some(attempt()));
        }
        // A client already holding entries replaces its own oldest once at its cap, never others'.
        grants.start(client(1), attempt()).expect_err("still full");
        assert!(grants.finish(&held[0]).is_some());
        assert!(grants.start(client(9), attempt()).is_ok(), "room again");
    }

    #[test]
    fn codes_are_capped_per_client_too() {
        let grants = Grants::with_limits(Duration::from_secs(300), 3, 100);
        let mine = grants.issue_code(client(5), grant()).expect("room");
        let first = grants.issue_code(client(1), grant()).expect("room");
        for _ in 0..10 {
            grants.issue_code(client(1), grant()).expect("room");
        }
        assert_eq!(grants.held().1, 4);
        assert_eq!(grants.redeem(&first), None);
        assert_eq!(grants.redeem(&mine), Some(grant()));
    }

    #[test]
    fn ipv6_clients_count_by_their_64_prefix() {
        let a: IpAddr = "2001:db8:1:2::1".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("ip");
        let c: IpAddr = "2001:db8:1:3::1".parse().expect("ip");
        assert_eq!(ClientKey::from(a), ClientKey::from(b));
        assert_ne!(ClientKey::from(a), ClientKey::from(c));
        let mapped: IpAddr = "::ffff:203.0.113.7".parse().expect("ip");
        assert_eq!(ClientKey::from(mapped), client(7));
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

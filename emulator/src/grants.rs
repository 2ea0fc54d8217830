//! The emulator's short-lived secrets: sign-in attempts (`state`, from start to the provider page)
//! and one-time OAuth codes (from the provider page to the exchange). Memory only, single-use.
//!
//! Both are bounded without ever being cleared wholesale: each entry expires on its own, each
//! client (its address as the server sees it, IPv6 by /64) holds at most [`PER_CLIENT`] of a kind
//! and is refused more until some of its own end, and at [`GLOBAL_CAPACITY`] live entries a new
//! one pushes out the oldest entry of the client holding the most (of clients holding as many, the
//! oldest entry of them all, whatever the addresses). So a flood, from one address or from many,
//! only ever costs the flooders their own entries: anyone else can still start.

use std::{
    cmp::Reverse,
    collections::{BTreeMap, BTreeSet, HashMap, VecDeque},
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use mg_platform::time::Clock;

/// A sign-in attempt may sit on the provider page this long.
pub const ATTEMPT_TTL: Duration = Duration::from_secs(15 * 60);
/// Live attempts (and, separately, codes) one client may hold; beyond it the client is refused
/// (429) until some of its own finish or expire. A person signs in with one or two at a time.
pub const PER_CLIENT: usize = 64;
/// Live attempts (and, separately, codes) in all; at this many a new one pushes out the oldest of
/// the client holding the most, so memory stays bounded without refusing anyone else.
pub const GLOBAL_CAPACITY: usize = 10_000;

/// Who started an entry: the client address (`ClientInfo::ip`, the one a trusted proxy forwarded
/// or else the peer), IPv6 clients by their /64 (one host's whole prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// Why a new entry was not stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// This client holds [`PER_CLIENT`] live entries of the kind already: 429, try later.
    ClientLimit,
    /// The store cannot be used (a panic poisoned its lock): 503.
    Unavailable,
}

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

/// Where a client stands when an entry must go: how many it holds, then how old its oldest is
/// (its insertion number, reversed so the oldest ranks last), then the client itself.
type Rank = (usize, Reverse<u64>, ClientKey);

/// Entries keyed by an unguessable random token; every operation is O(log n).
#[derive(Debug)]
struct Store<T> {
    entries: HashMap<String, Entry<T>>,
    /// Every entry by (deadline, insertion number): the first one is the next to expire.
    by_deadline: BTreeMap<(Instant, u64), String>,
    /// Each client's entries, oldest first (at most `per_client`, so a linear scan is cheap).
    by_client: HashMap<ClientKey, VecDeque<String>>,
    /// Every client with entries by [`Rank`]: the last one holds the most and, of those holding
    /// as many, has the oldest entry. (Ranked by address instead, the numerically highest went
    /// first at equal counts: every IPv6 client before any IPv4 one.)
    by_rank: BTreeSet<Rank>,
    next_seq: u64,
}

impl<T> Default for Store<T> {
    fn default() -> Self {
        Self {
            entries: HashMap::new(),
            by_deadline: BTreeMap::new(),
            by_client: HashMap::new(),
            by_rank: BTreeSet::new(),
            next_seq: 0,
        }
    }
}

impl<T> Store<T> {
    /// `client`'s [`Rank`] as its entries stand; `None` when it holds none.
    fn rank(&self, client: &ClientKey) -> Option<Rank> {
        let tokens = self.by_client.get(client)?;
        let oldest = self.entries.get(tokens.front()?)?.seq;
        Some((tokens.len(), Reverse(oldest), *client))
    }

    /// Runs `change` on the store with `client`'s rank taken out before and put back after.
    fn reranked<R>(&mut self, client: ClientKey, change: impl FnOnce(&mut Self) -> R) -> R {
        if let Some(rank) = self.rank(&client) {
            self.by_rank.remove(&rank);
        }
        let result = change(self);
        if let Some(rank) = self.rank(&client) {
            self.by_rank.insert(rank);
        }
        result
    }

    fn remove(&mut self, token: &str) -> Option<Entry<T>> {
        let client = self.entries.get(token)?.client;
        self.reranked(client, |store| {
            let entry = store.entries.remove(token)?;
            store.by_deadline.remove(&(entry.deadline, entry.seq));
            if let Some(tokens) = store.by_client.get_mut(&client) {
                tokens.retain(|t| t != token);
                if tokens.is_empty() {
                    store.by_client.remove(&client);
                }
            }
            Some(entry)
        })
    }

    fn held_by(&self, client: &ClientKey) -> usize {
        self.by_client.get(client).map_or(0, VecDeque::len)
    }

    /// Drops the oldest entry of the client holding the most (of those holding as many, the
    /// oldest entry of them all); false when there is none.
    fn drop_from_heaviest(&mut self) -> bool {
        let oldest = self
            .by_rank
            .last()
            .and_then(|(_, _, client)| self.by_client.get(client))
            .and_then(|tokens| tokens.front().cloned());
        oldest.is_some_and(|token| self.remove(&token).is_some())
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
    clock: Clock,
}

impl<T: Clone> Expiring<T> {
    fn new(per_client: usize, capacity: usize) -> Self {
        Self {
            store: Mutex::new(Store::default()),
            per_client: per_client.max(1),
            capacity: capacity.max(1),
            clock: Clock::default(),
        }
    }

    fn insert(&self, client: ClientKey, value: T, ttl: Duration) -> Result<String, Refused> {
        let now = self.clock.instant();
        let mut store = self.store.lock().map_err(|_| Refused::Unavailable)?;
        store.drop_expired(now);
        if store.held_by(&client) >= self.per_client {
            return Err(Refused::ClientLimit);
        }
        while store.entries.len() >= self.capacity {
            if !store.drop_from_heaviest() {
                return Err(Refused::Unavailable);
            }
        }
        let token = random_token();
        let deadline = now + ttl;
        let seq = store.next_seq;
        store.next_seq += 1;
        store.reranked(client, |store| {
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
        });
        Ok(token)
    }

    fn peek(&self, token: &str) -> Option<T> {
        let store = self.store.lock().ok()?;
        let entry = store.entries.get(token)?;
        (entry.deadline > self.clock.instant()).then(|| entry.value.clone())
    }

    fn take(&self, token: &str) -> Option<T> {
        let entry = self.store.lock().ok()?.remove(token)?;
        (entry.deadline > self.clock.instant()).then_some(entry.value)
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

    /// Reads the entries' expiries against `clock` (the server's `Config::clock`).
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.attempts.clock = clock.clone();
        self.codes.clock = clock;
        self
    }

    /// Records a sign-in attempt of `client`; the returned `state` names it in the provider page's URL.
    pub fn start(&self, client: ClientKey, attempt: Attempt) -> Result<String, Refused> {
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
    pub fn issue_code(&self, client: ClientKey, grant: Grant) -> Result<String, Refused> {
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
    URL_SAFE_NO_PAD.encode(mg_platform::random::random_bytes::<32>())
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
    fn a_client_over_its_own_bound_is_refused_and_keeps_what_it_holds() {
        let grants = Grants::new(Duration::from_secs(300));
        let victim = grants.start(client(2), attempt()).expect("room");
        let first_of_flood = grants.start(client(1), attempt()).expect("room");
        for _ in 1..PER_CLIENT {
            grants.start(client(1), attempt()).expect("under its bound");
        }
        for _ in 0..GLOBAL_CAPACITY {
            assert_eq!(
                grants.start(client(1), attempt()),
                Err(Refused::ClientLimit)
            );
        }
        assert_eq!(grants.attempt(&victim), Some(attempt()));
        assert_eq!(grants.attempt(&first_of_flood), Some(attempt()));
        assert_eq!(grants.held().0, PER_CLIENT + 1);
        assert!(
            grants.start(client(3), attempt()).is_ok(),
            "others still start"
        );
        // Once one of its own ends, the client may start again.
        assert!(grants.finish(&first_of_flood).is_some());
        assert!(grants.start(client(1), attempt()).is_ok());
    }

    #[test]
    fn a_flood_from_many_addresses_never_refuses_a_new_client() {
        // Before: at the global cap every new attempt was refused (503) until some expired, so
        // a few hundred addresses at their own bound blocked every sign-in for 15 minutes.
        let grants = Grants::with_limits(Duration::from_secs(300), 3, 10);
        let early = grants.start(client(200), attempt()).expect("room");
        for n in 1..=3 {
            for _ in 0..3 {
                grants.start(client(n), attempt()).expect("room");
            }
        }
        assert_eq!(grants.held().0, 10, "at the global cap");
        let late = grants
            .start(client(201), attempt())
            .expect("a new client still starts");
        assert_eq!(grants.held().0, 10, "by pushing out a flooder's oldest");
        assert_eq!(grants.attempt(&early), Some(attempt()));
        assert_eq!(grants.attempt(&late), Some(attempt()));
    }

    #[test]
    fn at_equal_counts_the_oldest_entry_goes_whatever_the_address() {
        // Before: clients holding as many were ranked by address, so the numerically highest
        // went first: every IPv6 client before any IPv4 one, however recent.
        let grants = Grants::with_limits(Duration::from_secs(300), 64, 3);
        let v6: IpAddr = "2001:db8::1".parse().expect("ip");
        let oldest = grants.start(client(9), attempt()).expect("room");
        let ipv6 = grants.start(v6.into(), attempt()).expect("room");
        let high = grants.start(client(200), attempt()).expect("room");
        let newcomer = grants.start(client(50), attempt()).expect("room");
        assert_eq!(grants.attempt(&oldest), None, "the oldest of all went");
        for kept in [&ipv6, &high, &newcomer] {
            assert_eq!(grants.attempt(kept), Some(attempt()));
        }
        grants.start(client(51), attempt()).expect("room");
        assert_eq!(grants.attempt(&ipv6), None, "then the next oldest");
        assert_eq!(grants.attempt(&high), Some(attempt()));
        // A client holding more still goes first, its own oldest entry first, even when another
        // client's entry is older.
        let grants = Grants::with_limits(Duration::from_secs(300), 64, 3);
        let light = grants.start(client(9), attempt()).expect("room");
        let heavy_first = grants.start(client(7), attempt()).expect("room");
        let heavy_second = grants.start(client(7), attempt()).expect("room");
        grants.start(client(50), attempt()).expect("room");
        assert_eq!(grants.attempt(&heavy_first), None);
        assert_eq!(grants.attempt(&heavy_second), Some(attempt()));
        assert_eq!(grants.attempt(&light), Some(attempt()));
    }

    #[test]
    fn codes_are_capped_per_client_too() {
        let grants = Grants::with_limits(Duration::from_secs(300), 3, 100);
        let mine = grants.issue_code(client(5), grant()).expect("room");
        let first = grants.issue_code(client(1), grant()).expect("room");
        for _ in 0..2 {
            grants.issue_code(client(1), grant()).expect("room");
        }
        assert_eq!(
            grants.issue_code(client(1), grant()),
            Err(Refused::ClientLimit)
        );
        assert_eq!(grants.held().1, 4);
        assert_eq!(grants.redeem(&first), Some(grant()));
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

//! What this instance remembers about sessions, in one bounded store: session tokens that verified
//! (so the hot path skips the signature check) and sessions it recorded in the database (so it
//! skips a write), each until it expires; and when it last pruned expired sessions from the database.
//!
//! Everything here is a shortcut: forgetting an entry costs one signature check or one idempotent
//! write, never a wrong answer. So the store is bounded by entries and by bytes, and when either is
//! reached the least recently used entries go first (never the whole store at once).

use std::{
    mem::size_of,
    num::NonZeroUsize,
    sync::{
        atomic::{AtomicI64, Ordering},
        Arc, Mutex, PoisonError,
    },
};

use lru::LruCache;

use super::verify::{SessionClaims, LEEWAY_SECONDS};

/// The most entries kept, verified tokens and recorded sessions together (before: 10,000 tokens
/// plus 50,000 sessions in two maps).
pub const MAX_ENTRIES: usize = 50_000;
/// The most bytes the entries may hold (keys, claims and the map's own bookkeeping, estimated).
pub const MAX_BYTES: usize = 16 * 1024 * 1024;
/// Expired sessions are deleted at most this often per instance (on a write, not on a timer).
pub const PRUNE_EVERY_MS: i64 = 60_000;
/// What one entry costs beyond its key and claims: the map's node (two links, the key's pointer and
/// length, the entry) and its slot in the hash table, rounded up.
const ENTRY_OVERHEAD_BYTES: usize = 128;

/// A session token that verified: its claims, and its SHA-256 (hex), the only form in which a
/// session is stored. Shared, so the hot path clones a pointer instead of the claims.
#[derive(Debug)]
pub struct VerifiedSession {
    pub claims: SessionClaims,
    pub token_hash: String,
    /// What ties the token to its session, and what signing that session out revokes
    /// (`super::binding_of`): the sign-in's id when the token names one, else `token_hash`.
    pub binding: String,
    /// SHA-256 (hex) of the user id (`super::user_key`): the key of the user's not-before time.
    pub user_key: String,
}

impl VerifiedSession {
    /// Until when (unix ms, exclusive) the token passes the expiry check: `exp` plus the leeway,
    /// to the end of that second, as the verifier's own check counts it.
    fn valid_until_ms(&self) -> i64 {
        let last_second = self.claims.exp.saturating_add(LEEWAY_SECONDS);
        i64::try_from(last_second.saturating_add(1).saturating_mul(1000)).unwrap_or(i64::MAX)
    }

    fn heap_bytes(&self) -> usize {
        let claims = &self.claims;
        let optional = |text: &Option<String>| text.as_ref().map_or(0, String::len);
        size_of::<Self>()
            + claims.sub.len()
            + claims.iss.len()
            + optional(&claims.drn)
            + optional(&claims.email)
            + optional(&claims.name)
            + claims
                .roles
                .iter()
                .map(|role| size_of::<String>() + role.len())
                .sum::<usize>()
            + optional(&claims.sid)
            + self.token_hash.len()
            + self.binding.len()
            + self.user_key.len()
    }
}

#[derive(Debug, Clone)]
enum Kind {
    /// The key is a session token that verified.
    Verified(Arc<VerifiedSession>),
    /// The key names a session this instance recorded in the database, with the binding of the
    /// token it was recorded with (`signed_in::recorded_key`: SHA-256 hex, `/`, the binding).
    Recorded,
}

#[derive(Debug)]
struct Entry {
    kind: Kind,
    /// Unix ms: the entry counts only before this.
    until_ms: i64,
    bytes: usize,
}

/// The two kinds of key cannot collide: a token that verified is a JWT (it has dots), a recorded
/// session's key has none (hex digits, `/`, `:`). A lookup of the wrong kind finds nothing.
#[derive(Debug)]
struct Entries {
    map: LruCache<Box<str>, Entry>,
    bytes: usize,
    max_bytes: usize,
}

impl Entries {
    /// What the live entry under `key` is; an expired one is dropped on the way.
    fn live(&mut self, key: &str, now_ms: i64) -> Option<Kind> {
        let entry = self.map.get(key)?;
        if entry.until_ms > now_ms {
            return Some(entry.kind.clone());
        }
        self.remove(key);
        None
    }

    fn insert(&mut self, key: &str, kind: Kind, until_ms: i64) {
        let bytes = ENTRY_OVERHEAD_BYTES
            + key.len()
            + match &kind {
                Kind::Verified(session) => session.heap_bytes(),
                Kind::Recorded => 0,
            };
        if bytes > self.max_bytes {
            return;
        }
        let entry = Entry {
            kind,
            until_ms,
            bytes,
        };
        // The replaced entry of the same key, or the least recently used one when full.
        if let Some((_, gone)) = self.map.push(key.into(), entry) {
            self.bytes -= gone.bytes;
        }
        self.bytes += bytes;
        while self.bytes > self.max_bytes {
            match self.map.pop_lru() {
                Some((_, gone)) => self.bytes -= gone.bytes,
                None => break,
            }
        }
    }

    fn remove(&mut self, key: &str) {
        if let Some(gone) = self.map.pop(key) {
            self.bytes -= gone.bytes;
        }
    }
}

/// Verified tokens and recorded sessions, at most `MAX_ENTRIES` and `MAX_BYTES` of them.
#[derive(Debug)]
pub struct SessionStore {
    entries: Mutex<Entries>,
    last_prune_ms: AtomicI64,
}

impl Default for SessionStore {
    fn default() -> Self {
        Self::with_limits(MAX_ENTRIES, MAX_BYTES)
    }
}

impl SessionStore {
    /// A store of at most `max_entries` entries holding at most `max_bytes`.
    pub fn with_limits(max_entries: usize, max_bytes: usize) -> Self {
        Self {
            entries: Mutex::new(Entries {
                map: LruCache::new(NonZeroUsize::new(max_entries).unwrap_or(NonZeroUsize::MIN)),
                bytes: 0,
                max_bytes,
            }),
            last_prune_ms: AtomicI64::new(0),
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        // Every update leaves the entries consistent, so a panic elsewhere cannot corrupt them.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The verified session of `token`, if it verified before and has not expired.
    pub fn verified(&self, token: &str, now_ms: i64) -> Option<Arc<VerifiedSession>> {
        match self.entries().live(token, now_ms)? {
            Kind::Verified(session) => Some(session),
            Kind::Recorded => None,
        }
    }

    /// Remembers that `token` verified as `session`, until the token expires.
    pub fn remember_verified(&self, token: &str, session: Arc<VerifiedSession>) {
        let until_ms = session.valid_until_ms();
        self.entries()
            .insert(token, Kind::Verified(session), until_ms);
    }

    /// Whether this instance recorded the session `key` and needs no new write before `now_ms`.
    pub fn is_recorded(&self, key: &str, now_ms: i64) -> bool {
        self.entries()
            .live(key, now_ms)
            .is_some_and(|kind| matches!(kind, Kind::Recorded))
    }

    /// Remembers that the session `key` is recorded and needs no new write before `fresh_until_ms`.
    pub fn remember_recorded(&self, key: &str, fresh_until_ms: i64) {
        self.entries().insert(key, Kind::Recorded, fresh_until_ms);
    }

    /// Forgets a session (logout), so this instance writes it again if it is ever used again.
    pub fn forget(&self, key: &str) {
        self.entries().remove(key);
    }

    /// How many entries are held, and their estimated bytes.
    pub fn size(&self) -> (usize, usize) {
        let entries = self.entries();
        (entries.map.len(), entries.bytes)
    }

    /// True at most once per `PRUNE_EVERY_MS`: the caller then prunes expired sessions.
    pub fn prune_due(&self, now_ms: i64) -> bool {
        let last = self.last_prune_ms.load(Ordering::Relaxed);
        now_ms - last >= PRUNE_EVERY_MS
            && self
                .last_prune_ms
                .compare_exchange(last, now_ms, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{SessionStore, VerifiedSession, MAX_BYTES, MAX_ENTRIES, PRUNE_EVERY_MS};
    use crate::identity::verify::SessionClaims;

    const NOW: i64 = 1_800_000_000_000;

    fn session(sub: &str, exp_seconds: u64, padding: usize) -> Arc<VerifiedSession> {
        Arc::new(VerifiedSession {
            claims: SessionClaims {
                sub: sub.to_owned(),
                iss: "P1".into(),
                exp: exp_seconds,
                iat: None,
                drn: Some("DS".into()),
                sid: None,
                email: Some(format!("{sub}@example.com")),
                name: Some("x".repeat(padding)),
                roles: vec![],
            },
            token_hash: crate::identity::sha256_hex(sub.as_bytes()),
            binding: crate::identity::sha256_hex(sub.as_bytes()),
            user_key: crate::identity::user_key(sub),
        })
    }

    /// A string shaped like a session token (dots) of about `len` bytes.
    fn token(n: usize, len: usize) -> String {
        format!("eyJ.{n}.{}", "s".repeat(len))
    }

    fn key(n: usize) -> String {
        crate::identity::sha256_hex(n.to_string().as_bytes())
    }

    #[test]
    fn a_verified_token_is_remembered_until_its_expiry_and_the_leeway() {
        let store = SessionStore::default();
        let exp = u64::try_from(NOW / 1000).expect("positive");
        store.remember_verified("a.b.c", session("u", exp, 0));
        assert!(store.verified("a.b.c", NOW).is_some());
        // Accepted through the last second of the 5 s leeway, refused after it, and then gone.
        assert!(store.verified("a.b.c", NOW + 5_999).is_some());
        assert!(store.verified("a.b.c", NOW + 6_000).is_none());
        assert_eq!(store.size().0, 0, "the expired entry was dropped");
    }

    #[test]
    fn a_recorded_session_is_fresh_until_its_time_and_forgotten_at_logout() {
        let store = SessionStore::default();
        store.remember_recorded(&key(1), NOW + 1_000);
        assert!(store.is_recorded(&key(1), NOW));
        assert!(!store.is_recorded(&key(1), NOW + 1_000));
        store.remember_recorded(&key(2), NOW + 1_000);
        store.forget(&key(2));
        assert!(!store.is_recorded(&key(2), NOW));
    }

    #[test]
    fn the_two_kinds_of_entry_never_answer_for_each_other() {
        let store = SessionStore::default();
        store.remember_recorded(&key(1), NOW + 1_000);
        store.remember_verified("a.b.c", session("u", u64::MAX, 0));
        assert!(
            store.verified(&key(1), NOW).is_none(),
            "a session key sent as a token"
        );
        assert!(!store.is_recorded("a.b.c", NOW), "a token is not a session");
    }

    /// Before: both maps were cleared wholesale when full, so a flood of new sessions also made
    /// every live one verify and write again. Now the least recently used go, one at a time.
    #[test]
    fn a_flood_of_sessions_stays_within_the_entry_limit_and_keeps_the_recent_ones() {
        let store = SessionStore::default();
        store.remember_recorded(&key(0), NOW + 1_000);
        for n in 1..=MAX_ENTRIES + 10_000 {
            store.remember_recorded(&key(n), NOW + 1_000);
            if n % 1_000 == 0 {
                // A session in use stays, however many others arrive.
                assert!(store.is_recorded(&key(0), NOW));
            }
        }
        let (entries, bytes) = store.size();
        assert_eq!(entries, MAX_ENTRIES);
        assert!(bytes <= MAX_BYTES);
        assert!(store.is_recorded(&key(0), NOW), "the session in use");
        assert!(
            store.is_recorded(&key(MAX_ENTRIES + 10_000), NOW),
            "the newest"
        );
        assert!(!store.is_recorded(&key(1), NOW), "the least recently used");
    }

    #[test]
    fn large_tokens_stay_within_the_byte_limit() {
        let store = SessionStore::default();
        // 8 KiB tokens (the most the verifier reads) with 1 KiB of claims each: about 9.3 KiB an
        // entry, so these 5,000 would be 46 MiB.
        let sent = 5_000;
        for n in 0..sent {
            store.remember_verified(&token(n, 8 * 1024), session(&n.to_string(), u64::MAX, 1024));
        }
        let (entries, bytes) = store.size();
        assert!(bytes <= MAX_BYTES, "{bytes} bytes");
        assert!(entries > 1_000 && entries < sent, "{entries} entries");
        assert!(store.verified(&token(sent - 1, 8 * 1024), NOW).is_some());
        assert!(store.verified(&token(0, 8 * 1024), NOW).is_none());
    }

    #[test]
    fn an_entry_larger_than_the_whole_store_is_not_kept() {
        let store = SessionStore::with_limits(10, 1_000);
        store.remember_recorded(&key(1), NOW + 1_000);
        store.remember_verified(&token(1, 2_000), session("u", u64::MAX, 0));
        assert!(store.verified(&token(1, 2_000), NOW).is_none());
        assert!(
            store.is_recorded(&key(1), NOW),
            "and nothing else went for it"
        );
    }

    #[test]
    fn pruning_comes_due_once_per_interval() {
        let store = SessionStore::default();
        let start = 10 * PRUNE_EVERY_MS;
        assert!(store.prune_due(start));
        assert!(!store.prune_due(start + 1));
        assert!(store.prune_due(start + PRUNE_EVERY_MS));
    }
}
